package index_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/rewards"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/indextest"
)

// govParams are testParams with short votes (ten blocks: room for a few
// votes, as CometBFT may add an empty block after each), small deposits
// and short reward epochs.
func govParams() app.Params {
	p := testParams.WithDefaults()
	p.Gov.VotingPeriodBlocks, p.Gov.TimelockBlocks, p.Gov.ProposalDeposit, p.Gov.MinProposerStake = 10, 0, 1_000, 100
	p.Rewards.EpochBlocks = 4
	return p
}

// untilProposal submits cheap transfers (blocks are made only for
// transactions) until proposal id is no longer active in the projection.
func untilProposal(t *testing.T, w *wallet, ch *chain.Chain, ix *index.Index, id uint64) index.Proposal {
	t.Helper()
	for range 20 {
		p, err := ix.Proposal(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != gov.StatusActive {
			return p
		}
		w.submit(t, ch, ix, tx.KindTransfer, map[string]any{"to": w.addr.Hex(), "amount": amount(1)})
	}
	t.Fatalf("proposal #%d is still active after 20 blocks", id)
	return index.Proposal{}
}

// TestGovernanceAndRewardsRebuildEqualsLive drives proposals, votes and a
// rewarded merge that closes an issue through a real node, checks the
// projected balances against the chain's (deposits move, rewards mint)
// and what the reads show, then rebuilds from the stopped node's blocks
// and compares row for row.
func TestGovernanceAndRewardsRebuildEqualsLive(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob, op := newWallet(), newWallet(), newWallet()
		carol := newWallet().addr
		genesis := app.Genesis{Params: govParams(), Operators: []common.Address{op.addr}, Allocations: []ledger.Allocation{
			{Address: alice.addr, Amount: 1_000_000}, {Address: bob.addr, Amount: 1_000_000},
		}}
		dir := t.TempDir()
		ch := openChain(t, dir, genesis)
		live := openStore(t, dsn)
		defer live.Close()
		ix := index.New(quiet, live, ch.Client())
		stop := follow(t, ix)

		// 1. A parameter change that passes: alice's deposit goes into
		// escrow and back; bob changes his vote.
		alice.submit(t, ch, ix, tx.KindStake, map[string]any{"amount": amount(30_000)})
		bob.submit(t, ch, ix, tx.KindStake, map[string]any{"amount": amount(10_000)})
		alice.submit(t, ch, ix, tx.KindPropose, map[string]any{"proposalType": "param", "title": "Raise the quorum",
			"description": "Because.", "payload": `{"name":"quorumBps","value":"4000"}`, "deposit": amount(1_000)})
		checkAgainstChain(t, ch, ix, alice.addr, app.EscrowAddress)
		bob.submit(t, ch, ix, tx.KindVote, map[string]any{"proposal": "1", "option": "no"})
		bob.submit(t, ch, ix, tx.KindVote, map[string]any{"proposal": "1", "option": "yes"})
		alice.submit(t, ch, ix, tx.KindVote, map[string]any{"proposal": "1", "option": "abstain"})
		passed := untilProposal(t, bob, ch, ix, 1)
		if passed.Status != gov.StatusExecuted || passed.Tally != (index.Tally{Yes: 10_000, Abstain: 30_000, TotalPower: 40_000, Voters: 2, QuorumBps: 3340, ThresholdBps: 5000}) ||
			passed.EndedHeight == nil || passed.Payload["value"] != "4000" || passed.Deposit != 1_000 || passed.CreatedAt == "" {
			t.Fatalf("passed proposal = %+v", passed)
		}
		votes, total, err := ix.Votes(ctx, 1, nil, index.Page{Number: 1, Limit: 10})
		if err != nil || total != 2 || len(votes) != 2 || votes[0].Voter != alice.addr.Hex() || votes[0].Option != "abstain" ||
			votes[1].Voter != bob.addr.Hex() || votes[1].Option != "yes" || votes[1].Power != 10_000 {
			t.Fatalf("votes = %+v (total %d) %v", votes, total, err)
		}

		// 2. One that misses the quorum: the deposit goes to the treasury.
		bob.submit(t, ch, ix, tx.KindPropose, map[string]any{"proposalType": "text", "title": "Nobody cares",
			"description": "", "payload": "{}", "deposit": amount(1_000)})
		if rejected := untilProposal(t, alice, ch, ix, 2); rejected.Status != gov.StatusRejected || rejected.Tally.Voters != 0 {
			t.Fatalf("rejected proposal = %+v", rejected)
		}

		// 3. A merge in an eligible repository (a star, two contributors)
		// that closes carol's issue: the author, the reporter and the
		// closer are rewarded, and the closed issue is projected.
		act := func(actor common.Address, action string, payload map[string]any) {
			t.Helper()
			forgeAct(t, op, ch, ix, actor, action, payload)
		}
		act(alice.addr, "repo.create", map[string]any{"name": "x"})
		act(alice.addr, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/main", "old": forge.ZeroSHA, "new": sha1})
		act(alice.addr, "repo.collaborator.set", map[string]any{"repo": 1, "user": bob.addr, "permission": "write"})
		act(carol, "repo.star", map[string]any{"repo": 1})
		act(carol, "issue.create", map[string]any{"repo": 1, "title": "broken"})
		act(bob.addr, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/fix", "old": forge.ZeroSHA, "new": sha2})
		act(bob.addr, "pr.create", map[string]any{"repo": 1, "title": "Fix", "body": "Fixes #1.", "headBranch": "fix", "headSha": sha2, "baseSha": sha1})
		act(alice.addr, "pr.merge", map[string]any{"repo": 1, "number": 2, "style": "merge", "mergeSha": sha3})
		is, err := ix.Issue(ctx, 1, 1)
		if err != nil || is.State != forge.StateClosed || is.StateReason != forge.ReasonCompleted || is.Closed == "" {
			t.Fatalf("the issue the merge closed = %+v %v", is, err)
		}
		got, total, err := ix.Rewards(ctx, nil, index.Page{Number: 1, Limit: 10})
		if err != nil || total != 3 || len(got) != 3 {
			t.Fatalf("rewards = %+v (total %d) %v", got, total, err)
		}
		byKind := map[string]index.Reward{}
		for _, r := range got {
			byKind[r.Kind] = r
		}
		pr := byKind[rewards.KindPR]
		if pr.Account != bob.addr.Hex() || pr.Repo == "" || pr.Number != 2 || pr.Minted == 0 || pr.Treasury == 0 || pr.Reason != "" ||
			byKind[rewards.KindIssueReporter].Account != carol.Hex() || byKind[rewards.KindIssueCloser].Account != bob.addr.Hex() {
			t.Fatalf("rewards = %+v", got)
		}
		totals, err := ix.RewardTotals(ctx, bob.addr)
		if err != nil || totals.Scores != (index.Scores{Total: 2, PR: 1, Issue: 1}) || totals.Earned != pr.Minted+byKind[rewards.KindIssueCloser].Minted {
			t.Fatalf("bob's totals = %+v %v", totals, err)
		}
		ranks, err := ix.Leaderboard(ctx, 7*24*time.Hour, 10)
		if err != nil || len(ranks) != 2 || ranks[0].Address != bob.addr.Hex() || ranks[0].Rank != 1 || ranks[1].Address != carol.Hex() {
			t.Fatalf("leaderboard = %+v %v", ranks, err)
		}

		// 4. Every balance the chain moved or minted agrees.
		checkAgainstChain(t, ch, ix, alice.addr, bob.addr, carol, op.addr, app.EscrowAddress, app.TreasuryAddress)
		figures, err := ix.GovFigures(ctx)
		if err != nil || figures.Proposals != (index.ProposalsByStatus{Executed: 1, Rejected: 1}) || len(figures.RewardsPerEpoch) != 1 ||
			figures.Supply <= 2_000_000 || figures.Staked != 40_000 {
			t.Fatalf("figures = %+v %v", figures, err)
		}
		stop()
		if err := ch.Close(); err != nil {
			t.Fatal(err)
		}

		// 5. Rebuilt from the blocks, into a fresh database and in place.
		hist, err := chain.OpenHistory(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		defer hist.Close()
		catchUp(t, live, hist)
		if err := index.New(quiet, live, hist).Sync(ctx); err != nil {
			t.Fatal(err)
		}
		want := indextest.Dump(t, live)
		if len(want["gov_proposals"]) != 2 || len(want["gov_votes"]) != 2 || len(want["chain_rewards"]) != 3 || len(want["chain_epochs"]) == 0 {
			t.Fatalf("governance rows: %d proposals, %d votes, %d rewards, %d epochs", len(want["gov_proposals"]),
				len(want["gov_votes"]), len(want["chain_rewards"]), len(want["chain_epochs"]))
		}
		rebuilt := openStore(t, freshDatabase(t, name))
		defer rebuilt.Close()
		if _, err := index.Rebuild(ctx, quiet, rebuilt, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "fresh rebuild", indextest.Dump(t, rebuilt), want)
		if _, err := index.Rebuild(ctx, quiet, live, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "rebuild in place", indextest.Dump(t, live), want)
	})
}

// TestGovernanceEventsInBlockOrder projects a scripted block whose
// begin-block events end one proposal while its transactions make and
// vote on another: the latest event of each proposal wins, the moves and
// mints change balances, and the creation time stays the first block's.
func TestGovernanceEventsInBlockOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	alice, bob := newWallet(), newWallet()
	a, b := alice.addr.Hex(), bob.addr.Hex()
	escrow, treasury := app.EscrowAddress.Hex(), app.TreasuryAddress.Hex()
	c := newScriptedChain(t, app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 5_000}}})
	ok := func(env tx.Envelope, events ...abci.Event) item { return item{raw: encoded(t, env), events: events} }
	proposal := func(id, status, yes, cause string, extra ...string) abci.Event {
		data := `{"id":` + id + `,"proposer":"` + a + `","type":"text","title":"t` + id + `","description":"","payload":{},"deposit":100,` +
			`"status":"` + status + `","createdHeight":1,"votingEndHeight":3,"quorumBps":3340,"thresholdBps":5000,"totalPower":10,"yes":` + yes + `,"no":0,"abstain":0,"voters":1}`
		return event(app.EventProposal, append([]string{"id", id, "cause", cause, "status", status, "data", data}, extra...)...)
	}
	// Block 1: alice proposes #1 (deposit into escrow) and votes on it.
	propose := alice.sign(t, tx.KindPropose, map[string]any{"proposalType": "text", "title": "t1", "description": "", "payload": "{}", "deposit": "100"})
	alice.nonce++
	vote := alice.sign(t, tx.KindVote, map[string]any{"proposal": "1", "option": "yes"})
	alice.nonce++
	c.add(nil,
		ok(propose, proposal("1", "active", "0", "propose"), event(app.EventMove, "from", a, "to", escrow, "amount", "100", "reason", "deposit")),
		ok(vote, proposal("1", "active", "10", "vote", "voter", a, "vote", `{"proposal":1,"voter":"`+a+`","option":"yes","power":10,"height":1}`)),
	)
	// Block 2: nothing happens but a transfer.
	transfer := alice.sign(t, tx.KindTransfer, map[string]any{"to": b, "amount": "1"})
	alice.nonce++
	c.add(nil, ok(transfer, event("Transfer", "from", a, "to", b, "amount", "1")))
	// Block 3: the vote ends (deposit back), an epoch begins; a reward is minted.
	ended := proposal("1", "passed", "10", "end")
	c.add([]abci.Event{
		event(app.EventEpoch, "epoch", "1"),
		event(app.EventMove, "from", escrow, "to", a, "amount", "100", "reason", "deposit returned"),
		ended,
	}, ok(alice.sign(t, tx.KindTransfer, map[string]any{"to": b, "amount": "1"}),
		event("Transfer", "from", a, "to", b, "amount", "1"),
		event(app.EventReward, "account", b, "kind", "commit", "data", `{"kind":"commit","account":"`+b+`","repo":9,"sha":"`+sha1+`","repoStars":1,"repoContributors":2,"epoch":1,"base":50,"multiplierBps":10000,"minted":45,"treasury":5,"withheld":0,"reputation":1}`),
		event(app.EventMint, "to", b, "amount", "45", "reason", "reward"),
		event(app.EventMint, "to", treasury, "amount", "5", "reason", "reward share"),
	))
	alice.nonce++

	st := openStore(t, filepath.Join(t.TempDir(), "index.db"))
	defer st.Close()
	ix := index.New(quiet, st, c)
	if err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	p, err := ix.Proposal(ctx, 1)
	if err != nil || p.Status != gov.StatusPassed || p.Tally.Yes != 10 || p.CreatedAt != "2023-11-14T22:13:21.0000005Z" || p.VotingEndHeight != 2 {
		t.Fatalf("proposal = %+v %v", p, err)
	}
	for addr, want := range map[common.Address]uint64{alice.addr: 4_998, bob.addr: 47, app.EscrowAddress: 0, app.TreasuryAddress: 5} {
		if got, _ := ix.Account(ctx, addr); got.Balance != want {
			t.Errorf("balance of %s = %d, want %d", addr.Hex(), got.Balance, want)
		}
	}
	rw, total, err := ix.Rewards(ctx, &bob.addr, index.Page{Number: 1, Limit: 5})
	if err != nil || total != 1 || rw[0].Minted != 45 || rw[0].Repo != "" || rw[0].SHA != sha1 || rw[0].Height != 3 {
		t.Fatalf("bob's rewards = %+v %v", rw, err)
	}
	if s, _ := ix.Status(ctx); s.Supply != 5_050 {
		t.Fatalf("supply = %d, want 5050 after the mints", s.Supply)
	}
}
