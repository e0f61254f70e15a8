// Package rewards is the chain module that mints contribution rewards. The
// forge module reports each contribution as it applies the action that
// accepted it (a merge, an approving review of a merged pull request, an
// issue closed as completed, commits reaching a default branch); this
// module decides what it is worth: the parameter amount times the
// contributor's reputation multiplier, nothing for the rules that withhold
// a reward, at most what the per-account, per-repository and per-epoch
// caps leave, with a share to the treasury. Everything it decides is in
// the Outcome, so a contributor can see why a reward was smaller or none.
//
// State keys:
//
//	rewards/used/<epoch>/a/<addr>    gross rewards of the account this epoch
//	rewards/used/<epoch>/r/<repo>    of the repository
//	rewards/used/<epoch>/all         of the chain
//	rewards/done/<kind>/<id>         a contribution already rewarded
package rewards

import (
	"encoding/binary"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/reputation"
	"github.com/dforge/dforge/internal/chain/state"
)

// Contribution kinds.
const (
	KindPR            = "pr"
	KindReview        = "review"
	KindIssueReporter = "issue_reporter"
	KindIssueCloser   = "issue_closer"
	KindCommit        = "commit"
)

// Reasons a reward is withheld in whole or in part.
const (
	ReasonSelfMerge       = "self_merge"
	ReasonOwnReview       = "own_review"
	ReasonOwnIssue        = "own_issue"
	ReasonRepoNotEligible = "repo_not_eligible"
	ReasonCapAccount      = "cap_account"
	ReasonCapRepo         = "cap_repo"
	ReasonCapEpoch        = "cap_epoch"
	ReasonAlreadyRewarded = "already_rewarded"
)

// Contribution is accepted work the forge reports. Reason is set when a
// forge rule already withholds it (a self-merge, an own issue).
type Contribution struct {
	Kind    string         `json:"kind"`
	Account common.Address `json:"account"`
	Repo    uint64         `json:"repo"`
	Number  uint64         `json:"number,omitempty"`
	SHA     string         `json:"sha,omitempty"`
	Reason  string         `json:"reason,omitempty"`
	// The repository's standing when the work was accepted.
	RepoStars        uint64 `json:"repoStars"`
	RepoContributors uint64 `json:"repoContributors"`
}

// Outcome is what a contribution earned.
type Outcome struct {
	Contribution
	Epoch         uint64 `json:"epoch"`
	Base          uint64 `json:"base"`
	MultiplierBps uint64 `json:"multiplierBps"`
	// Minted went to the contributor, Treasury to the treasury; Withheld
	// is the part of base × multiplier a rule or a cap kept back.
	Minted     uint64 `json:"minted"`
	Treasury   uint64 `json:"treasury"`
	Withheld   uint64 `json:"withheld"`
	Reputation uint64 `json:"reputation"` // the contributor's score after it
}

// Base is the parameter amount of a kind of contribution.
func Base(p params.Rewards, kind string) uint64 {
	switch kind {
	case KindPR:
		return p.PR
	case KindReview:
		return p.Review
	case KindIssueReporter:
		return p.IssueReporter
	case KindIssueCloser:
		return p.IssueCloser
	case KindCommit:
		return p.Commit
	}
	return 0
}

// Points is the reputation a rewarded contribution of kind earns.
func Points(p params.Reputation, kind string) uint64 {
	switch kind {
	case KindPR:
		return p.PR
	case KindReview:
		return p.Review
	case KindIssueReporter, KindIssueCloser:
		return p.Issue
	case KindCommit:
		return p.Commit
	}
	return 0
}

// Grant rewards each contribution at height, in order, minting to the
// contributor and the treasury.
func Grant(kv state.KV, p params.Params, height uint64, treasury common.Address, cs []Contribution) ([]Outcome, error) {
	epoch, err := reputation.Epoch(kv)
	if err != nil {
		return nil, err
	}
	out := make([]Outcome, 0, len(cs))
	for _, c := range cs {
		o, err := grant(kv, p, height, epoch, treasury, c)
		if err != nil {
			return nil, fmt.Errorf("reward %s of %s: %w", c.Kind, c.Account.Hex(), err)
		}
		out = append(out, o)
	}
	return out, nil
}

func grant(kv state.KV, p params.Params, height, epoch uint64, treasury common.Address, c Contribution) (Outcome, error) {
	score, err := reputation.Score(kv, p.Reputation, c.Account)
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{Contribution: c, Epoch: epoch, Base: Base(p.Rewards, c.Kind), MultiplierBps: reputation.Multiplier(p.Reputation, score), Reputation: score}
	gross := reputation.Apply(o.Base, o.MultiplierBps)
	if o.Reason == "" {
		o.Reason = eligibility(p.Rewards, c)
	}
	if o.Reason == "" {
		done, err := markDone(kv, c)
		if err != nil {
			return o, err
		}
		if done {
			o.Reason = ReasonAlreadyRewarded
		}
	}
	if o.Reason != "" {
		o.Withheld = gross
		return o, nil
	}
	granted, reason, err := capped(kv, p.Rewards, epoch, c, gross)
	if err != nil {
		return o, err
	}
	o.Withheld, o.Reason = gross-granted, reason
	o.Treasury = reputation.Apply(granted, p.Rewards.TreasuryShareBps)
	o.Minted = granted - o.Treasury
	if err := ledger.Mint(kv, c.Account, o.Minted); err != nil {
		return o, err
	}
	if err := ledger.Mint(kv, treasury, o.Treasury); err != nil {
		return o, err
	}
	if granted > 0 {
		if o.Reputation, err = reputation.Add(kv, p.Reputation, c.Account, height, Points(p.Reputation, c.Kind)); err != nil {
			return o, err
		}
	}
	return o, nil
}

// eligibility is the rule that withholds the whole reward, if any.
func eligibility(p params.Rewards, c Contribution) string {
	if c.RepoStars < p.MinRepoStars || c.RepoContributors < p.MinRepoContributors {
		return ReasonRepoNotEligible
	}
	return ""
}

// markDone records c as rewarded and reports whether it already was: a
// commit pays once wherever it is pushed, an issue once however often it
// is reopened and closed, a review once per reviewer and pull request.
func markDone(kv state.KV, c Contribution) (bool, error) {
	var id []byte
	switch c.Kind {
	case KindCommit:
		id = []byte(c.SHA)
	case KindReview:
		id = append(binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, c.Repo), c.Number), c.Account.Bytes()...)
	default:
		id = binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, c.Repo), c.Number)
	}
	key := append([]byte("rewards/done/"+c.Kind+"/"), id...)
	v, err := kv.Get(key)
	if err != nil {
		return false, err
	}
	if v != nil {
		return true, nil
	}
	return false, kv.Set(key, []byte{1})
}

// capped takes gross from the three caps' room and returns what fits and,
// when not all of it did, the cap that bound.
func capped(kv state.KV, p params.Rewards, epoch uint64, c Contribution, gross uint64) (uint64, string, error) {
	keys := []struct {
		key    []byte
		cap    uint64
		reason string
	}{
		{usedKey(epoch, append([]byte("a/"), c.Account.Bytes()...)), p.CapPerAccount, ReasonCapAccount},
		{usedKey(epoch, binary.BigEndian.AppendUint64([]byte("r/"), c.Repo)), p.CapPerRepo, ReasonCapRepo},
		{usedKey(epoch, []byte("all")), p.CapPerEpoch, ReasonCapEpoch},
	}
	granted, reason := gross, ""
	used := make([]uint64, len(keys))
	for i, k := range keys {
		u, err := state.GetUint64(kv, k.key)
		if err != nil {
			return 0, "", err
		}
		used[i] = u
		room := k.cap - min(u, k.cap)
		if room < granted {
			granted, reason = room, k.reason
		}
	}
	for i, k := range keys {
		if err := state.SetUint64(kv, k.key, used[i]+granted); err != nil {
			return 0, "", err
		}
	}
	return granted, reason, nil
}

func usedKey(epoch uint64, rest []byte) []byte {
	return append(binary.BigEndian.AppendUint64([]byte("rewards/used/"), epoch), append([]byte("/"), rest...)...)
}

// Used is what the chain minted (gross) in epoch, for the analytics.
func Used(kv state.KV, epoch uint64) (uint64, error) {
	return state.GetUint64(kv, usedKey(epoch, []byte("all")))
}
