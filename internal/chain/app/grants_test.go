package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/grants"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

const grantTreasury = 10_000

// grantChain is an app whose genesis funds the treasury and the proposer,
// with a two-block vote and no timelock.
type grantChain struct {
	t      *testing.T
	a      *app.App
	st     *state.Store
	height int64
	nonces map[common.Address]uint64
	supply uint64
}

func newGrantChain(t *testing.T, proposer wallet) *grantChain {
	t.Helper()
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	p := app.DefaultParams()
	p.Gov.VotingPeriodBlocks, p.Gov.TimelockBlocks, p.Gov.ProposalDeposit, p.Gov.MinProposerStake = 2, 0, 100, 1_000
	g := app.Genesis{Params: p, Allocations: []ledger.Allocation{{Address: app.TreasuryAddress, Amount: grantTreasury}, {Address: proposer.addr, Amount: 100_000}}}
	raw, _ := json.Marshal(g)
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: raw}); err != nil {
		t.Fatal(err)
	}
	return &grantChain{t: t, a: a, st: st, nonces: map[common.Address]uint64{}, supply: grantTreasury + 100_000}
}

// send signs kind from w with its next nonce.
func (c *grantChain) send(w wallet, kind tx.Kind, msg map[string]any) []byte {
	msg["from"], msg["nonce"] = w.addr.Hex(), strconv.FormatUint(c.nonces[w.addr], 10)
	c.nonces[w.addr]++
	return encodeSigned(c.t, w, kind, testChainID, msg)
}

// block commits the next block and fails the test on a refused transaction.
func (c *grantChain) block(txs ...[]byte) *abci.FinalizeBlockResponse {
	c.t.Helper()
	c.height++
	res := finalize(c.t, c.a, c.height, txs...)
	for i, r := range res.TxResults {
		if r.Code != 0 {
			c.t.Fatalf("block %d: transaction %d refused: %d %s", c.height, i, r.Code, r.Log)
		}
	}
	return res
}

// refused checks that CheckTx refuses raw with code; the nonce it took is
// given back, since nothing was applied.
func (c *grantChain) refused(w wallet, raw []byte, code uint32) {
	c.t.Helper()
	if res := checkTx(c.t, c.a, raw); res.Code != code {
		c.t.Fatalf("CheckTx = %d %s, want code %d (%s)", res.Code, res.Log, code, tx.CodeName(code))
	}
	c.nonces[w.addr]--
}

func (c *grantChain) approve(w wallet, grant, milestone uint64) []byte {
	return c.send(w, tx.KindGrantApprove, map[string]any{"grant": strconv.FormatUint(grant, 10), "milestone": strconv.FormatUint(milestone, 10)})
}

func (c *grantChain) grant(id uint64) *grants.Grant {
	c.t.Helper()
	g, err := grants.Get(c.st, id)
	if err != nil {
		c.t.Fatal(err)
	}
	return g
}

// conserved checks that the accounts hold the whole supply: grants only
// move tokens between the treasury, the escrow and recipients.
func (c *grantChain) conserved(accounts ...common.Address) {
	c.t.Helper()
	var sum uint64
	for _, a := range append(accounts, app.TreasuryAddress, app.GrantEscrowAddress, app.EscrowAddress) {
		acct := account(c.t, c.a, a)
		sum += acct.Balance + acct.Staked + acct.Unbonding
	}
	if sum != c.supply {
		c.t.Fatalf("at block %d the accounts hold %d, the supply is %d", c.height, sum, c.supply)
	}
}

func grantPayload(expiry uint64, reviewers []wallet, milestones ...grants.Milestone) string {
	list := make([]map[string]string, len(milestones))
	for i, m := range milestones {
		list[i] = map[string]string{"description": m.Description, "amount": strconv.FormatUint(m.Amount, 10), "recipient": m.Recipient.Hex()}
	}
	raw, _ := json.Marshal(list)
	names := make([]string, len(reviewers))
	for i, r := range reviewers {
		names[i] = r.addr.Hex()
	}
	p, _ := json.Marshal(map[string]string{"milestones": string(raw), "reviewers": strings.Join(names, ","), "expiry": strconv.FormatUint(expiry, 10)})
	return string(p)
}

// propose makes a grant proposal, votes it through and returns its
// proposal once it executed (or failed).
func (c *grantChain) propose(alice wallet, payload string) *gov.Proposal {
	c.t.Helper()
	res := c.block(c.send(alice, tx.KindPropose, map[string]any{"proposalType": "grant", "title": "Docs translation",
		"description": "Translate the docs.", "payload": payload, "deposit": "100"}))
	id, _ := strconv.ParseUint(attr(res.TxResults[0].Events[0], "id"), 10, 64)
	c.block(c.send(alice, tx.KindVote, map[string]any{"proposal": strconv.FormatUint(id, 10), "option": "yes"}))
	for range 4 {
		pr, err := gov.GetProposal(c.st, id)
		if err != nil {
			c.t.Fatal(err)
		}
		if pr.Status == gov.StatusExecuted || pr.Status == gov.StatusFailed || pr.Status == gov.StatusRejected {
			return pr
		}
		c.block()
	}
	c.t.Fatalf("grant proposal #%d never executed", id)
	return nil
}

// TestGrantLifecycle: a grant proposal passes and escrows its total from
// the treasury; two of three reviewers release a milestone to its
// recipient; every refusal applies nothing; at the expiry the unreleased
// rest returns to the treasury; the supply is conserved throughout.
func TestGrantLifecycle(t *testing.T) {
	alice, bob, carol := newWallet(t), newWallet(t), newWallet(t)
	r1, r2, r3, outsider := newWallet(t), newWallet(t), newWallet(t), newWallet(t)
	people := []common.Address{alice.addr, bob.addr, carol.addr, r1.addr, r2.addr, r3.addr, outsider.addr}
	c := newGrantChain(t, alice)
	c.block(c.send(alice, tx.KindStake, map[string]any{"amount": "50000"}))

	// 1. Pass → escrow.
	const expiry = 16
	pr := c.propose(alice, grantPayload(expiry, []wallet{r1, r2, r3},
		grants.Milestone{Description: "Translate the guide", Amount: 1_000, Recipient: bob.addr},
		grants.Milestone{Description: "Translate the API docs\nand the FAQ", Amount: 2_000, Recipient: carol.addr}))
	if pr.Status != gov.StatusExecuted {
		t.Fatalf("the grant proposal is %s (%s)", pr.Status, pr.Failure)
	}
	if got := balance(t, c.st, app.TreasuryAddress); got != grantTreasury-3_000 {
		t.Fatalf("treasury after the escrow = %d", got)
	}
	if got := balance(t, c.st, app.GrantEscrowAddress); got != 3_000 {
		t.Fatalf("grant escrow = %d, want 3000", got)
	}
	g := c.grant(pr.ID)
	if g.Status != grants.StatusActive || g.Total != 3_000 || g.Expiry != expiry || len(g.Reviewers) != 3 || g.Milestones[1].Description != "Translate the API docs\nand the FAQ" {
		t.Fatalf("grant = %+v", g)
	}
	c.conserved(people...)

	// 2. One approval records, two release.
	res := c.block(c.approve(r1, pr.ID, 0))
	if ev := res.TxResults[0].Events; len(ev) != 1 || ev[0].Type != app.EventGrant || attr(ev[0], "cause") != grants.CauseApprove {
		t.Fatalf("first approval events = %+v", ev)
	}
	c.refused(r1, c.approve(r1, pr.ID, 0), tx.CodeAlreadyApproved)
	c.refused(outsider, c.approve(outsider, pr.ID, 0), tx.CodeNotReviewer)
	c.refused(r2, c.approve(r2, pr.ID+7, 0), tx.CodeGrantNotFound)
	c.refused(r2, c.approve(r2, pr.ID, 2), tx.CodeGrantNotFound)
	res = c.block(c.approve(r2, pr.ID, 0))
	if ev := res.TxResults[0].Events; len(ev) != 2 || ev[0].Type != ledger.EventMove || attr(ev[0], "to") != bob.addr.Hex() || attr(ev[0], "amount") != "1000" || attr(ev[1], "cause") != grants.CauseRelease {
		t.Fatalf("releasing approval events = %+v", ev)
	}
	if got := balance(t, c.st, bob.addr); got != 1_000 {
		t.Fatalf("bob = %d, want 1000", got)
	}
	c.refused(r3, c.approve(r3, pr.ID, 0), tx.CodeMilestoneReleased)
	c.refused(r1, c.approve(r1, pr.ID, 0), tx.CodeMilestoneReleased)
	if g := c.grant(pr.ID); g.Released != 1_000 || !g.Milestones[0].Released || len(g.Milestones[0].Approvals) != 2 {
		t.Fatalf("grant after the release = %+v", g)
	}
	c.block(c.approve(r3, pr.ID, 1)) // one of three: not released
	c.conserved(people...)

	// 3. At the expiry the rest returns to the treasury.
	treasury := balance(t, c.st, app.TreasuryAddress)
	for c.height < expiry-1 {
		c.block()
	}
	res = c.block()
	if len(res.Events) < 2 || res.Events[len(res.Events)-2].Type != ledger.EventMove || attr(res.Events[len(res.Events)-2], "amount") != "2000" ||
		attr(res.Events[len(res.Events)-1], "cause") != grants.CauseExpire {
		t.Fatalf("expiry events = %+v", res.Events)
	}
	if got := balance(t, c.st, app.TreasuryAddress); got != treasury+2_000 {
		t.Fatalf("treasury after the expiry = %d, want %d", got, treasury+2_000)
	}
	if got := balance(t, c.st, app.GrantEscrowAddress); got != 0 {
		t.Fatalf("grant escrow after the expiry = %d", got)
	}
	if g := c.grant(pr.ID); g.Status != grants.StatusExpired || g.Refunded != 2_000 || g.ExpiredHeight != expiry {
		t.Fatalf("grant after the expiry = %+v", g)
	}
	c.refused(r1, c.approve(r1, pr.ID, 1), tx.CodeGrantExpired)
	c.conserved(people...)
}

// TestGrantCompletes: releasing every milestone completes the grant, and
// its expiry then returns nothing.
func TestGrantCompletes(t *testing.T) {
	alice, bob, r1 := newWallet(t), newWallet(t), newWallet(t)
	c := newGrantChain(t, alice)
	c.block(c.send(alice, tx.KindStake, map[string]any{"amount": "50000"}))
	pr := c.propose(alice, grantPayload(12, []wallet{r1}, grants.Milestone{Description: "All of it", Amount: 500, Recipient: bob.addr}))
	c.block(c.approve(r1, pr.ID, 0))
	if g := c.grant(pr.ID); g.Status != grants.StatusCompleted || g.Released != 500 {
		t.Fatalf("grant = %+v", g)
	}
	treasury := balance(t, c.st, app.TreasuryAddress)
	for c.height < 13 {
		if res := c.block(); len(res.Events) != 0 && c.height == 12 {
			t.Fatalf("a completed grant's expiry gave events %+v", res.Events)
		}
	}
	if got := balance(t, c.st, app.TreasuryAddress); got != treasury {
		t.Fatalf("treasury moved from %d to %d", treasury, got)
	}
	c.conserved(alice.addr, bob.addr, r1.addr)
}

// TestGrantExecutionFails: a treasury short of the total, or an expiry
// not above the execution height, fails the proposal with its reason and
// moves nothing.
func TestGrantExecutionFails(t *testing.T) {
	alice, bob, r1 := newWallet(t), newWallet(t), newWallet(t)
	c := newGrantChain(t, alice)
	c.block(c.send(alice, tx.KindStake, map[string]any{"amount": "50000"}))
	for _, tc := range []struct {
		payload, reason string
	}{
		{grantPayload(1_000, []wallet{r1}, grants.Milestone{Description: "Too much", Amount: grantTreasury + 1, Recipient: bob.addr}), "the treasury holds"},
		{grantPayload(5, []wallet{r1}, grants.Milestone{Description: "Too late", Amount: 10, Recipient: bob.addr}), "is not after its execution"},
	} {
		pr := c.propose(alice, tc.payload)
		if pr.Status != gov.StatusFailed || !strings.Contains(pr.Failure, tc.reason) {
			t.Fatalf("proposal = %s %q, want failed with %q", pr.Status, pr.Failure, tc.reason)
		}
		if _, err := grants.Get(c.st, pr.ID); err == nil {
			t.Fatalf("a failed grant proposal #%d opened a grant", pr.ID)
		}
	}
	if got := balance(t, c.st, app.GrantEscrowAddress); got != 0 {
		t.Fatalf("grant escrow = %d", got)
	}
	c.conserved(alice.addr, bob.addr, r1.addr)
}

// TestGrantProposalRefusals: a grant proposal that breaks a rule is
// refused with invalid_field and applies nothing.
func TestGrantProposalRefusals(t *testing.T) {
	alice, bob, r1, r2 := newWallet(t), newWallet(t), newWallet(t), newWallet(t)
	c := newGrantChain(t, alice)
	c.block(c.send(alice, tx.KindStake, map[string]any{"amount": "50000"}))
	ok := grants.Milestone{Description: "Fine", Amount: 10, Recipient: bob.addr}
	many := make([]grants.Milestone, grants.MaxMilestones+1)
	for i := range many {
		many[i] = ok
	}
	milestones := func(raw string) string {
		p, _ := json.Marshal(map[string]string{"milestones": raw, "reviewers": r1.addr.Hex(), "expiry": "100"})
		return string(p)
	}
	for name, payload := range map[string]string{
		"no milestones":      grantPayload(100, []wallet{r1}),
		"21 milestones":      grantPayload(100, []wallet{r1}, many...),
		"empty description":  grantPayload(100, []wallet{r1}, grants.Milestone{Description: " ", Amount: 10, Recipient: bob.addr}),
		"long description":   grantPayload(100, []wallet{r1}, grants.Milestone{Description: strings.Repeat("é", grants.MaxDescription+1), Amount: 10, Recipient: bob.addr}),
		"tab in description": grantPayload(100, []wallet{r1}, grants.Milestone{Description: "a\tb", Amount: 10, Recipient: bob.addr}),
		"NUL in description": grantPayload(100, []wallet{r1}, grants.Milestone{Description: "a\x00b", Amount: 10, Recipient: bob.addr}),
		"zero amount":        grantPayload(100, []wallet{r1}, grants.Milestone{Description: "x", Amount: 0, Recipient: bob.addr}),
		"zero recipient":     grantPayload(100, []wallet{r1}, grants.Milestone{Description: "x", Amount: 10}),
		"overflow":           milestones(fmt.Sprintf(`[{"description":"a","amount":"%d","recipient":"%s"},{"description":"b","amount":"2","recipient":"%s"}]`, uint64(1<<63-1), bob.addr.Hex(), bob.addr.Hex())),
		"amount as number":   milestones(fmt.Sprintf(`[{"description":"a","amount":5,"recipient":"%s"}]`, bob.addr.Hex())),
		"unknown member":     milestones(fmt.Sprintf(`[{"description":"a","amount":"5","recipient":"%s","x":"1"}]`, bob.addr.Hex())),
		"not an array":       milestones(`{}`),
		"no reviewers":       grantPayload(100, nil, ok),
		"twice a reviewer":   grantPayload(100, []wallet{r1, r2, r1}, ok),
		"16 reviewers":       grantPayload(100, []wallet{r1, r2, r1, r2, r1, r2, r1, r2, r1, r2, r1, r2, r1, r2, r1, r2}, ok),
		"zero reviewer":      strings.Replace(grantPayload(100, []wallet{r1}, ok), r1.addr.Hex(), "0x0000000000000000000000000000000000000000", 1),
		"bad expiry":         strings.Replace(grantPayload(100, []wallet{r1}, ok), `"expiry":"100"`, `"expiry":"1e3"`, 1),
		"zero expiry":        grantPayload(0, []wallet{r1}, ok),
		"missing key":        `{"milestones":"[]","reviewers":""}`,
	} {
		raw := c.send(alice, tx.KindPropose, map[string]any{"proposalType": "grant", "title": "T", "description": "", "payload": payload, "deposit": "100"})
		if res := checkTx(t, c.a, raw); res.Code != tx.CodeInvalidField {
			t.Errorf("%s: CheckTx = %d %s, want invalid_field", name, res.Code, res.Log)
		}
		c.nonces[alice.addr]--
	}
	if got := balance(t, c.st, alice.addr); got != 50_000 {
		t.Fatalf("alice = %d: a refused proposal moved her deposit", got)
	}
}
