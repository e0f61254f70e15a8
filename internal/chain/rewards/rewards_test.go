package rewards_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/reputation"
	"github.com/dforge/dforge/internal/chain/rewards"
	"github.com/dforge/dforge/internal/chain/state"
)

var (
	treasury = common.HexToAddress("0x7e")
	alice    = common.HexToAddress("0xa1")
	bob      = common.HexToAddress("0xb0")
)

// eligible is a contribution to a repository that meets the default
// minimums (one star, two contributors).
func eligible(kind string, who common.Address, repo, number uint64) rewards.Contribution {
	return rewards.Contribution{Kind: kind, Account: who, Repo: repo, Number: number, RepoStars: 1, RepoContributors: 2}
}

func grantOne(t *testing.T, kv *state.Store, p params.Params, c rewards.Contribution) rewards.Outcome {
	t.Helper()
	out, err := rewards.Grant(kv, p, 5, treasury, []rewards.Contribution{c})
	if err != nil {
		t.Fatal(err)
	}
	return out[0]
}

func TestAMergedPRPaysItsAuthorAndTheTreasury(t *testing.T) {
	kv, p := state.OpenMemory(), params.Defaults()
	o := grantOne(t, kv, p, eligible(rewards.KindPR, alice, 1, 7))
	// 100 tokens at 1.0x, 10 % to the treasury.
	if o.Minted != 90_000_000 || o.Treasury != 10_000_000 || o.Withheld != 0 || o.Reason != "" || o.MultiplierBps != 10_000 {
		t.Fatalf("outcome %+v", o)
	}
	if b, _ := ledger.Balance(kv, alice); b != 90_000_000 {
		t.Fatalf("alice has %d", b)
	}
	if b, _ := ledger.Balance(kv, treasury); b != 10_000_000 {
		t.Fatalf("treasury has %d", b)
	}
	if s, _ := ledger.Supply(kv); s != 100_000_000 {
		t.Fatalf("supply %d", s)
	}
	if r, _ := reputation.Score(kv, p.Reputation, alice); r != p.Reputation.PR {
		t.Fatalf("reputation %d, want %d", r, p.Reputation.PR)
	}
}

func TestTheMultiplierRaisesTheReward(t *testing.T) {
	kv, p := state.OpenMemory(), params.Defaults()
	if _, err := reputation.Add(kv, p.Reputation, alice, 1, 500); err != nil { // 1.5x
		t.Fatal(err)
	}
	o := grantOne(t, kv, p, eligible(rewards.KindReview, alice, 1, 7))
	if o.MultiplierBps != 15_000 || o.Minted+o.Treasury != 30_000_000 {
		t.Fatalf("outcome %+v", o)
	}
}

// Each rule that withholds a whole reward mints nothing and says why.
func TestRulesThatWithholdAReward(t *testing.T) {
	p := params.Defaults()
	cases := []struct {
		name   string
		c      rewards.Contribution
		before []rewards.Contribution
		reason string
	}{
		{"self-merge", withReason(eligible(rewards.KindPR, alice, 1, 1), rewards.ReasonSelfMerge), nil, rewards.ReasonSelfMerge},
		{"review by the PR's author", withReason(eligible(rewards.KindReview, alice, 1, 1), rewards.ReasonOwnReview), nil, rewards.ReasonOwnReview},
		{"issue closed by its reporter", withReason(eligible(rewards.KindIssueCloser, alice, 1, 1), rewards.ReasonOwnIssue), nil, rewards.ReasonOwnIssue},
		{"repository without stars", rewards.Contribution{Kind: rewards.KindPR, Account: alice, Repo: 1, Number: 1, RepoStars: 0, RepoContributors: 5}, nil, rewards.ReasonRepoNotEligible},
		{"repository with one contributor", rewards.Contribution{Kind: rewards.KindPR, Account: alice, Repo: 1, Number: 1, RepoStars: 9, RepoContributors: 1}, nil, rewards.ReasonRepoNotEligible},
		{"a commit rewarded before (pushed to a fork)", commit(alice, 2, "c0ffee"), []rewards.Contribution{commit(alice, 1, "c0ffee")}, rewards.ReasonAlreadyRewarded},
		{"an issue closed again after a reopen", eligible(rewards.KindIssueReporter, bob, 1, 3), []rewards.Contribution{eligible(rewards.KindIssueReporter, bob, 1, 3)}, rewards.ReasonAlreadyRewarded},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kv := state.OpenMemory()
			for _, b := range c.before {
				grantOne(t, kv, p, b)
			}
			supply, _ := ledger.Supply(kv)
			o := grantOne(t, kv, p, c.c)
			if o.Reason != c.reason || o.Minted != 0 || o.Treasury != 0 || o.Withheld == 0 {
				t.Fatalf("outcome %+v, want all withheld for %s", o, c.reason)
			}
			if s, _ := ledger.Supply(kv); s != supply {
				t.Fatalf("supply moved from %d to %d", supply, s)
			}
		})
	}
}

func withReason(c rewards.Contribution, r string) rewards.Contribution { c.Reason = r; return c }

func commit(who common.Address, repo uint64, sha string) rewards.Contribution {
	c := eligible(rewards.KindCommit, who, repo, 0)
	c.SHA = sha
	return c
}

// Each cap bounds what is minted and names itself when it bites.
func TestCapsWithholdWhatIsOver(t *testing.T) {
	p := params.Defaults()
	p.Rewards.CapPerAccount = 250_000_000 // two and a half PRs
	kv := state.OpenMemory()
	var got []rewards.Outcome
	for n := range uint64(3) {
		got = append(got, grantOne(t, kv, p, eligible(rewards.KindPR, alice, 1, n+1)))
	}
	last := got[2]
	// The third PR's 100 tokens at a 1.02x multiplier (20 reputation points) meet 50 tokens of room.
	if last.Reason != rewards.ReasonCapAccount || last.Minted+last.Treasury+last.Withheld != reputation.Apply(100_000_000, last.MultiplierBps) {
		t.Fatalf("third PR %+v", last)
	}
	total := uint64(0)
	for _, o := range got {
		total += o.Minted + o.Treasury
	}
	if total != p.Rewards.CapPerAccount {
		t.Fatalf("minted %d, cap %d", total, p.Rewards.CapPerAccount)
	}
	// Bob's first PR is not touched by Alice's cap.
	if o := grantOne(t, kv, p, eligible(rewards.KindPR, bob, 1, 9)); o.Withheld != 0 {
		t.Fatalf("bob %+v", o)
	}
}

// Over random sequences of contributions the minted total never passes
// any cap: per account, per repository or per epoch.
func TestPropertyMintedNeverExceedsTheCaps(t *testing.T) {
	kinds := []string{rewards.KindPR, rewards.KindReview, rewards.KindIssueReporter, rewards.KindIssueCloser, rewards.KindCommit}
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		p := params.Defaults()
		p.Rewards.EpochBlocks = uint64(1 + r.IntN(5))
		p.Rewards.CapPerAccount = uint64(r.IntN(400)) * 1_000_000
		p.Rewards.CapPerRepo = uint64(r.IntN(600)) * 1_000_000
		p.Rewards.CapPerEpoch = uint64(r.IntN(900)) * 1_000_000
		kv := state.OpenMemory()
		type key struct {
			epoch uint64
			who   string
		}
		minted := map[key]uint64{}
		for h := uint64(1); h < 40; h++ {
			if _, err := reputation.AdvanceEpoch(kv, h, p.Rewards.EpochBlocks); err != nil {
				t.Fatal(err)
			}
			var cs []rewards.Contribution
			for range r.IntN(6) {
				c := eligible(kinds[r.IntN(len(kinds))], common.BigToAddress(bigOf(uint64(1+r.IntN(4)))), uint64(1+r.IntN(3)), uint64(r.IntN(50)))
				c.SHA = fmt.Sprintf("%040x", r.Uint64())
				cs = append(cs, c)
			}
			out, err := rewards.Grant(kv, p, h, treasury, cs)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range out {
				g := o.Minted + o.Treasury
				minted[key{o.Epoch, "a" + o.Account.Hex()}] += g
				minted[key{o.Epoch, fmt.Sprint("r", o.Repo)}] += g
				minted[key{o.Epoch, "epoch"}] += g
			}
		}
		for k, v := range minted {
			limit := p.Rewards.CapPerEpoch
			switch k.who[0] {
			case 'a':
				limit = p.Rewards.CapPerAccount
			case 'r':
				limit = p.Rewards.CapPerRepo
			}
			if v > limit {
				t.Fatalf("seed %d: %s minted %d in epoch %d, over its cap %d", seed, k.who, v, k.epoch, limit)
			}
		}
	}
}

func bigOf(n uint64) *big.Int { return new(big.Int).SetUint64(n) }
