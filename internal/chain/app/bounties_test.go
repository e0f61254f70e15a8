package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/bounty"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// bountyChain is an app with an operator, a repository (id 1) owned by
// owner, and funded wallets; each step is one block.
type bountyChain struct {
	t       *testing.T
	a       *app.App
	st      *state.Store
	op      wallet
	owner   wallet
	height  int64
	nonces  map[common.Address]uint64
	wallets []wallet
}

func newBountyChain(t *testing.T, funders int) *bountyChain {
	t.Helper()
	c := &bountyChain{t: t, st: state.OpenMemory(), op: newWallet(t), owner: newWallet(t), nonces: map[common.Address]uint64{}}
	a, err := app.New(c.st)
	if err != nil {
		t.Fatal(err)
	}
	c.a = a
	g := app.TreasuryGenesis(c.op.addr)
	for range funders {
		w := newWallet(t)
		c.wallets = append(c.wallets, w)
		g.Allocations = append(g.Allocations, ledger.Allocation{Address: w.addr, Amount: 1_000_000})
	}
	// The operator relays for everyone here, under their delegations.
	g.Delegations = delegatedTo(c.op.addr, c.owner.addr)
	for _, w := range c.wallets {
		g.Delegations = append(g.Delegations, delegatedTo(c.op.addr, w.addr)...)
	}
	raw, _ := json.Marshal(g)
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: raw}); err != nil {
		t.Fatal(err)
	}
	c.forge(c.owner.addr, "repo.create", `{"name":"lib"}`)
	// Writers open pull requests from the repository's own branches.
	for _, w := range c.wallets {
		c.forge(c.owner.addr, "repo.collaborator.set", fmt.Sprintf(`{"repo":1,"user":%q,"permission":"write"}`, w.addr.Hex()))
	}
	return c
}

// run applies one transaction in the next block and returns its result.
func (c *bountyChain) run(from wallet, kind tx.Kind, msg map[string]any) *abci.ExecTxResult {
	c.t.Helper()
	msg["from"], msg["nonce"] = from.addr.Hex(), strconv.FormatUint(c.nonces[from.addr], 10)
	raw := encodeSigned(c.t, from, kind, app.DefaultParams().ChainID, msg)
	c.height++
	res := block(c.t, c.a, c.height, raw)[0]
	if res.Code == 0 || kind == tx.KindForge {
		c.nonces[from.addr]++
	}
	return res
}

func (c *bountyChain) forge(actor common.Address, action, payload string) *abci.ExecTxResult {
	c.t.Helper()
	res := c.run(c.op, tx.KindForge, map[string]any{"actor": actor.Hex(), "action": action, "payload": payload})
	if res.Code != 0 {
		c.t.Fatalf("%s: %d %s", action, res.Code, res.Log)
	}
	return res
}

func (c *bountyChain) issue(author common.Address, title string) uint64 {
	c.t.Helper()
	res := c.forge(author, "issue.create", fmt.Sprintf(`{"repo":1,"title":%q}`, title))
	return uint64(c.nextNumber(res))
}

// pull opens a pull request by author whose body fixes the issues.
func (c *bountyChain) pull(author common.Address, body string) uint64 {
	c.t.Helper()
	res := c.forge(author, "pr.create", fmt.Sprintf(`{"repo":1,"title":"Fix","body":%q,"headBranch":"fix","headSha":"%040d","baseSha":"%040d"}`, body, 1, 2))
	return uint64(c.nextNumber(res))
}

func (c *bountyChain) merge(number uint64) *abci.ExecTxResult {
	c.t.Helper()
	return c.forge(c.owner.addr, "pr.merge", fmt.Sprintf(`{"repo":1,"number":%d,"style":"merge","mergeSha":"%040d"}`, number, number+10))
}

func (c *bountyChain) nextNumber(res *abci.ExecTxResult) int {
	var ch struct {
		Issue struct{ Number int } `json:"issue"`
	}
	if err := json.Unmarshal([]byte(attr(res.Events[0], "data")), &ch); err != nil {
		c.t.Fatal(err)
	}
	return ch.Issue.Number
}

func (c *bountyChain) fund(w wallet, issue, amount, expiry uint64) *abci.ExecTxResult {
	c.t.Helper()
	return c.run(w, tx.KindBountyFund, map[string]any{"repo": "1", "issue": strconv.FormatUint(issue, 10),
		"amount": strconv.FormatUint(amount, 10), "expiry": strconv.FormatUint(expiry, 10)})
}

func (c *bountyChain) refund(w wallet, issue uint64) *abci.ExecTxResult {
	c.t.Helper()
	return c.run(w, tx.KindBountyRefund, map[string]any{"repo": "1", "issue": strconv.FormatUint(issue, 10)})
}

func (c *bountyChain) balance(a common.Address) uint64 { return balance(c.t, c.st, a) }

func wantTxCode(t *testing.T, what string, res *abci.ExecTxResult, code uint32) {
	t.Helper()
	if res.Code != code {
		t.Fatalf("%s: code %d (%s) %q, want %d (%s)", what, res.Code, tx.CodeName(res.Code), res.Log, code, tx.CodeName(code))
	}
}

// Two funders fund an issue; a third user's pull request that fixes it is
// merged, and the same transaction pays the whole escrow to its author.
func TestBountyPaidByTheMergeThatFixesTheIssue(t *testing.T) {
	c := newBountyChain(t, 3)
	alice, bob, carol := c.wallets[0], c.wallets[1], c.wallets[2]
	n := c.issue(alice.addr, "It crashes")
	wantTxCode(t, "alice funds", c.fund(alice, n, 300, 1000), 0)
	wantTxCode(t, "bob funds", c.fund(bob, n, 200, 1000), 0)
	wantTxCode(t, "alice again", c.fund(alice, n, 100, 900), 0)
	b, _, err := bounty.Get(c.st, 1, n)
	if err != nil || b.Total != 600 || len(b.Shares) != 2 || b.Shares[0] != (bounty.Share{Funder: alice.addr, Amount: 400, Expiry: 1000}) {
		t.Fatalf("bounty after funding: %+v %v", b, err)
	}
	if got := c.balance(app.BountyEscrowAddress); got != 600 {
		t.Fatalf("escrow %d, want 600", got)
	}
	pr := c.pull(carol.addr, "Fixes #"+strconv.FormatUint(n, 10))
	before := c.balance(carol.addr)
	res := c.merge(pr)
	if got := c.balance(carol.addr); got != before+600 {
		t.Fatalf("carol's balance %d, want %d", got, before+600)
	}
	if got := c.balance(app.BountyEscrowAddress); got != 0 {
		t.Fatalf("escrow %d after the payout", got)
	}
	var paid *bounty.Change
	for _, ev := range res.Events {
		if ev.Type == bounty.EventType {
			ch, err := bounty.ParseEvent(ev)
			if err != nil {
				t.Fatal(err)
			}
			paid = &ch
		}
	}
	if paid == nil || paid.Cause != bounty.CausePaid || paid.Account != carol.addr || paid.Amount != 600 || paid.Bounty.Status != bounty.StatusPaid || paid.Bounty.PaidHeight != uint64(c.height) {
		t.Fatalf("payout event: %+v", paid)
	}
	// Paid means nothing is left: no refund, and the closed issue takes no
	// new funding.
	wantTxCode(t, "refund after payout", c.refund(alice, n), tx.CodeBountyNoShare)
	wantTxCode(t, "fund a closed issue", c.fund(bob, n, 10, 5000), tx.CodeBountyNotOpen)
}

// Every refusal names its code and moves nothing.
func TestBountyRefusals(t *testing.T) {
	c := newBountyChain(t, 2)
	alice, bob := c.wallets[0], c.wallets[1]
	n := c.issue(alice.addr, "Slow")
	pr := c.pull(bob.addr, "unrelated")
	closed := c.issue(alice.addr, "Won't do")
	c.forge(c.owner.addr, "issue.close", fmt.Sprintf(`{"repo":1,"number":%d,"reason":"not_planned"}`, closed))
	balBefore := c.balance(alice.addr)
	wantTxCode(t, "unknown issue", c.fund(alice, 99, 10, 1000), tx.CodeNotFound)
	wantTxCode(t, "private-range repository", c.run(alice, tx.KindBountyFund, map[string]any{"repo": strconv.FormatUint(1<<48, 10), "issue": "1", "amount": "10", "expiry": "1000"}), tx.CodeNotFound)
	wantTxCode(t, "pull request", c.fund(alice, pr, 10, 1000), tx.CodeBountyNotIssue)
	wantTxCode(t, "closed issue", c.fund(alice, closed, 10, 1000), tx.CodeBountyNotOpen)
	wantTxCode(t, "expiry now", c.fund(alice, n, 10, uint64(c.height+1)), tx.CodeInvalidField)
	wantTxCode(t, "too much", c.fund(alice, n, 2_000_000, 1000), tx.CodeInsufficientFunds)
	wantTxCode(t, "no share", c.refund(alice, n), tx.CodeBountyNoShare)
	if got := c.balance(alice.addr); got != balBefore {
		t.Fatalf("refusals moved alice's balance %d -> %d", balBefore, got)
	}
	// A zero amount never reaches the module: the format refuses it.
	zero, err := tx.Sign(alice.key, tx.KindBountyFund, map[string]any{"from": alice.addr.Hex(), "repo": "1", "issue": "1", "amount": "0", "expiry": "9", "nonce": "0"}, app.DefaultParams().ChainID)
	if err == nil {
		_, err = tx.Verify(zero, app.DefaultParams().ChainID)
	}
	if !errors.Is(err, &tx.Error{Code: tx.CodeNonPositiveAmount}) {
		t.Fatalf("zero amount: %v", err)
	}
	// The module refuses it too, on its own.
	if _, err := bounty.Fund(state.NewOverlay(c.st), alice.addr, 1, n, 0, 1000, 1); !errors.Is(bounty.TxError(err), &tx.Error{Code: tx.CodeNonPositiveAmount}) {
		t.Fatalf("zero amount in the module: %v", err)
	}
	// Refund: not before the expiry, then the whole share back.
	expiry := uint64(c.height + 3)
	wantTxCode(t, "fund", c.fund(alice, n, 500, expiry), 0)
	wantTxCode(t, "refund at once", c.refund(alice, n), tx.CodeBountyNotExpired)
	for uint64(c.height) < expiry {
		c.height++
		block(t, c.a, c.height)
	}
	wantTxCode(t, "refund after expiry", c.refund(alice, n), 0)
	if got := c.balance(alice.addr); got != balBefore {
		t.Fatalf("alice's balance after the refund %d, want %d", got, balBefore)
	}
	if b, _, _ := bounty.Get(c.st, 1, n); b.Status != bounty.StatusRefunded || b.Total != 0 {
		t.Fatalf("bounty after the refund: %+v", b)
	}
}

// A merge that closes an issue with no bounty writes no bounty state, so a
// chain without bounties keeps its app hash (the checkpoints of
// TestAppHashStableBeforeUpgrades and TestAppHashStable pin one).
func TestMergeWithoutBountyWritesNothing(t *testing.T) {
	c := newBountyChain(t, 1)
	n := c.issue(c.wallets[0].addr, "Bug")
	pr := c.pull(c.wallets[0].addr, "fixes #"+strconv.FormatUint(n, 10))
	res := c.merge(pr)
	for _, ev := range res.Events {
		if ev.Type == bounty.EventType || (ev.Type == ledger.EventMove && attr(ev, "reason") == app.ReasonBountyPaid) {
			t.Fatalf("a merge without a bounty emitted %s", ev.Type)
		}
	}
	if _, ok, _ := bounty.Get(c.st, 1, n); ok {
		t.Fatal("a merge without a bounty wrote a bounty record")
	}
}

// The property: over random funds, refunds, hand closes and merges, the
// supply never changes, the sum of every balance (escrow included) equals
// it, and the escrow holds exactly the open shares.
func TestBountySupplyConserved(t *testing.T) {
	paid, refunded := 0, 0
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, seed*7919))
			c := newBountyChain(t, 4)
			supply, err := ledger.Supply(c.st)
			if err != nil {
				t.Fatal(err)
			}
			var issues []uint64
			for range 3 {
				issues = append(issues, c.issue(c.wallets[0].addr, "Bug"))
			}
			for step := range 60 {
				w := c.wallets[rng.IntN(len(c.wallets))]
				n := issues[rng.IntN(len(issues))]
				switch op := rng.IntN(10); {
				case op < 5:
					c.fund(w, n, uint64(1+rng.IntN(5000)), uint64(c.height)+uint64(1+rng.IntN(8)))
				case op < 8:
					if c.refund(w, n).Code == 0 {
						refunded++
					}
				case op < 9:
					for _, ev := range c.merge(c.pull(w.addr, "fixes #"+strconv.FormatUint(n, 10))).Events {
						if ev.Type == bounty.EventType {
							paid++
						}
					}
					issues = append(issues, c.issue(w.addr, "Another"))
				default: // closed by hand: pays nothing (it may be closed already)
					c.run(c.op, tx.KindForge, map[string]any{"actor": c.owner.addr.Hex(), "action": "issue.close", "payload": fmt.Sprintf(`{"repo":1,"number":%d}`, n)})
				}
				checkConservation(t, c, supply, issues, step)
			}
		})
	}
	// The sequences must reach both ways out of escrow to prove anything.
	if paid == 0 || refunded == 0 {
		t.Fatalf("the random runs paid %d bounties and refunded %d shares", paid, refunded)
	}
}

func checkConservation(t *testing.T, c *bountyChain, supply uint64, issues []uint64, step int) {
	t.Helper()
	sum := c.balance(app.BountyEscrowAddress) + c.balance(app.TreasuryAddress)
	for _, w := range c.wallets {
		sum += c.balance(w.addr)
	}
	if now, _ := ledger.Supply(c.st); now != supply || sum != supply {
		t.Fatalf("step %d: supply %d, balances %d, want %d", step, now, sum, supply)
	}
	open := uint64(0)
	for _, n := range issues {
		b, _, err := bounty.Get(c.st, 1, n)
		if err != nil {
			t.Fatal(err)
		}
		shares := uint64(0)
		for _, s := range b.Shares {
			shares += s.Amount
		}
		if shares != b.Total {
			t.Fatalf("step %d: issue %d total %d, shares %d", step, n, b.Total, shares)
		}
		open += shares
	}
	if got := c.balance(app.BountyEscrowAddress); got != open {
		t.Fatalf("step %d: escrow %d, open shares %d", step, got, open)
	}
}
