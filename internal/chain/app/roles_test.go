package app_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// roleChain is a chain where alice stakes in block 1 and so may propose
// and vote alone from block 2 on; a vote lasts two blocks and a passed
// proposal executes at once.
type roleChain struct {
	t      *testing.T
	a      *app.App
	st     *state.Store
	alice  wallet
	nonce  uint64
	height int64
}

func newRoleChain(t *testing.T) *roleChain {
	t.Helper()
	alice := newWallet(t)
	p := app.DefaultParams()
	p.Gov.VotingPeriodBlocks, p.Gov.TimelockBlocks, p.Gov.ProposalDeposit, p.Gov.MinProposerStake = 2, 0, 0, 0
	g, _ := json.Marshal(app.Genesis{Params: p, Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 1_000_000}}})
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: g}); err != nil {
		t.Fatal(err)
	}
	c := &roleChain{t: t, a: a, st: st, alice: alice}
	c.block(c.send(tx.KindStake, map[string]any{"amount": "500000"}))
	return c
}

func (c *roleChain) send(kind tx.Kind, m map[string]any) []byte {
	m["from"], m["nonce"] = c.alice.addr.Hex(), strconv.FormatUint(c.nonce, 10)
	c.nonce++
	return encodeSigned(c.t, c.alice, kind, app.DefaultParams().ChainID, m)
}

func (c *roleChain) block(txs ...[]byte) *abci.FinalizeBlockResponse {
	c.height++
	return finalize(c.t, c.a, c.height, txs...)
}

func rolePayload(account, role, action string) string {
	return `{"account":"` + account + `","role":"` + role + `","action":"` + action + `"}`
}

// pass proposes payload, votes yes and runs blocks until it is executed
// or has failed; it returns the proposal and the events of its last block.
func (c *roleChain) pass(payload string) (*gov.Proposal, []abci.Event) {
	c.t.Helper()
	res := c.block(c.send(tx.KindPropose, map[string]any{"proposalType": "role", "title": "A role", "description": "", "payload": payload, "deposit": "0"}))
	if code := res.TxResults[0].Code; code != 0 {
		c.t.Fatalf("propose: code %d: %s", code, res.TxResults[0].Log)
	}
	pr := lastProposal(c.t, res.TxResults[0].Events)
	c.block(c.send(tx.KindVote, map[string]any{"proposal": strconv.FormatUint(pr.ID, 10), "option": "yes"}))
	for range 5 {
		res = c.block()
		got, err := gov.GetProposal(c.st, pr.ID)
		if err != nil {
			c.t.Fatal(err)
		}
		if got.Status == gov.StatusExecuted || got.Status == gov.StatusFailed || got.Status == gov.StatusRejected {
			return got, res.Events
		}
	}
	c.t.Fatalf("proposal #%d never ended", pr.ID)
	return nil, nil
}

func lastProposal(t *testing.T, events []abci.Event) gov.Proposal {
	t.Helper()
	for _, ev := range events {
		if ev.Type == gov.EventProposal {
			var p gov.Proposal
			if err := json.Unmarshal([]byte(attr(ev, "data")), &p); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatal("no Proposal event")
	return gov.Proposal{}
}

func (c *roleChain) has(a common.Address, role string) bool {
	c.t.Helper()
	ok, err := roles.Has(c.st, a, role)
	if err != nil {
		c.t.Fatal(err)
	}
	return ok
}

// A passed role proposal grants the role, with a Role event; granting it
// again fails with the reason on the proposal; a revoke takes it back.
func TestRoleProposalGrantsAndRevokes(t *testing.T) {
	c := newRoleChain(t)
	bob := newWallet(t).addr

	pr, events := c.pass(rolePayload(bob.Hex(), roles.Ambassador, "grant"))
	if pr.Status != gov.StatusExecuted || !c.has(bob, roles.Ambassador) {
		t.Fatalf("after the grant: status %s (%s), held %v", pr.Status, pr.Failure, c.has(bob, roles.Ambassador))
	}
	if c.has(bob, roles.ForumModerator) {
		t.Fatal("the grant gave another role too")
	}
	var change *roles.Change
	for _, ev := range events {
		if ev.Type == roles.EventType {
			ch, err := roles.ParseEvent(ev)
			if err != nil {
				t.Fatal(err)
			}
			change = &ch
		}
	}
	want := roles.Change{Account: bob, Role: roles.Ambassador, Action: "grant", Proposal: pr.ID}
	if change == nil || *change != want {
		t.Fatalf("Role event = %+v, want %+v", change, want)
	}

	again, _ := c.pass(rolePayload(bob.Hex(), roles.Ambassador, "grant"))
	if again.Status != gov.StatusFailed || !strings.Contains(again.Failure, "already holds") {
		t.Fatalf("a second grant: status %s, failure %q", again.Status, again.Failure)
	}

	revoked, _ := c.pass(rolePayload(bob.Hex(), roles.Ambassador, "revoke"))
	if revoked.Status != gov.StatusExecuted || c.has(bob, roles.Ambassador) {
		t.Fatalf("after the revoke: status %s (%s), held %v", revoked.Status, revoked.Failure, c.has(bob, roles.Ambassador))
	}

	none, _ := c.pass(rolePayload(bob.Hex(), roles.EventOrganizer, "revoke"))
	if none.Status != gov.StatusFailed || !strings.Contains(none.Failure, "does not hold") {
		t.Fatalf("revoking a role not held: status %s, failure %q", none.Status, none.Failure)
	}
}

// A role proposal naming an unknown role or action, or a bad account, is
// refused when proposed, with the invalid-field code, and no proposal is made.
func TestRoleProposalRefusedWhenProposed(t *testing.T) {
	c := newRoleChain(t)
	bob := newWallet(t).addr.Hex()
	cases := map[string]string{
		"unknown role":   rolePayload(bob, "pope", "grant"),
		"zero address":   rolePayload("0x0000000000000000000000000000000000000000", roles.Ambassador, "grant"),
		"not an address": rolePayload("bob", roles.Ambassador, "grant"),
		"unknown action": rolePayload(bob, roles.Ambassador, "promote"),
		"missing member": `{"account":"` + bob + `","role":"ambassador"}`,
	}
	for _, name := range []string{"unknown role", "zero address", "not an address", "unknown action", "missing member"} {
		res := c.block(c.send(tx.KindPropose, map[string]any{"proposalType": "role", "title": "Bad", "description": "", "payload": cases[name], "deposit": "0"}))
		c.nonce-- // a refused proposal does not use the nonce
		if code := res.TxResults[0].Code; code != tx.CodeInvalidField {
			t.Errorf("%s: code %d (%s), want %d", name, code, res.TxResults[0].Log, tx.CodeInvalidField)
		}
	}
	if _, err := gov.GetProposal(c.st, 1); err == nil {
		t.Fatal("a refused role proposal was recorded")
	}
}

// Genesis role holders hold their roles from the first block.
func TestGenesisRoles(t *testing.T) {
	holder := newWallet(t).addr
	g, _ := json.Marshal(app.Genesis{Params: app.DefaultParams(), Roles: []roles.Grant{{Address: holder, Role: roles.EventOrganizer}}})
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: g}); err != nil {
		t.Fatal(err)
	}
	if ok, err := roles.Has(st, holder, roles.EventOrganizer); err != nil || !ok {
		t.Fatalf("genesis organizer: held %v, %v", ok, err)
	}
}
