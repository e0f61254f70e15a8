package api_test

import (
	"crypto/ecdsa"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// TestGrants: a staker proposes a grant, the vote passes it and its total
// moves from the treasury to the grant escrow; two of three reviewers
// approve a milestone and its recipient is paid; a release twice, a
// stranger's approval and an unknown grant are refused with 409, 403 and
// 404, nothing applied; at the expiry the rest returns to the treasury;
// the list and the detail show each step.
func TestGrants(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testGrants(t, opts)
		})
	}
}

// grantsNode relays wallet-signed transactions to a forgetest node.
type grantsNode struct {
	*forgetest.Node
	t *testing.T
}

func (n *grantsNode) sign(key *ecdsa.PrivateKey, kind tx.Kind, msg map[string]any) tx.Envelope {
	n.t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	msg["from"], msg["nonce"] = from.Hex(), strconv.FormatUint(n.Nonce(from), 10)
	env, err := tx.Sign(key, kind, msg, 7771)
	check(n.t, "sign", err)
	return env
}

// send relays a transaction that must apply.
func (n *grantsNode) send(key *ecdsa.PrivateKey, kind tx.Kind, msg map[string]any) {
	n.t.Helper()
	res := n.Call("POST", "/api/v1/chain/txs", nil, n.sign(key, kind, msg))
	var out struct{ Code uint32 }
	if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK || out.Code != 0 {
		n.t.Fatalf("relay %s: %d %s", kind, res.Status, res.Body)
	}
}

// refused relays a transaction that must be refused with status and code.
func (n *grantsNode) refused(key *ecdsa.PrivateKey, kind tx.Kind, msg map[string]any, status int, code string) {
	n.t.Helper()
	res := n.Call("POST", "/api/v1/chain/txs", nil, n.sign(key, kind, msg))
	var e apiError
	if err := json.Unmarshal(res.Body, &e); err != nil || res.Status != status || e.Code != code || e.Message == "" {
		n.t.Fatalf("relay %s %v: %d %s, want %d %s", kind, msg, res.Status, res.Body, status, code)
	}
}

func (n *grantsNode) balance(addr common.Address) uint64 {
	n.t.Helper()
	var a struct{ Balance uint64 }
	n.JSON("GET", "/api/v1/accounts/"+addr.Hex(), nil, nil, http.StatusOK, &a)
	return a.Balance
}

func (n *grantsNode) grant(id uint64) index.GrantInfo {
	n.t.Helper()
	var g index.GrantInfo
	n.JSON("GET", "/api/v1/grants/"+strconv.FormatUint(id, 10), nil, nil, http.StatusOK, &g)
	return g
}

func (n *grantsNode) height() int64 {
	n.t.Helper()
	var s index.Status
	n.JSON("GET", "/api/v1/chain/status", nil, nil, http.StatusOK, &s)
	return s.Height
}

func testGrants(t *testing.T, opts []forgetest.Option) {
	keys := stakerKeys(6)
	alice, bob, r1, r2, r3, stranger := keys[0], keys[1], keys[2], keys[3], keys[4], keys[5]
	addr := func(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }
	const treasury = 50_000
	opts = append(opts, forgetest.WithGenesis(func(g *app.Genesis) {
		def := app.DefaultParams()
		g.Params.Gov = def.Gov
		g.Params.Gov.VotingPeriodBlocks, g.Params.Gov.TimelockBlocks, g.Params.Gov.ProposalDeposit, g.Params.Gov.MinProposerStake = votingBlocks, 0, 1_000, 5_000
		g.Allocations = append(g.Allocations, ledger.Allocation{Address: crypto.PubkeyToAddress(alice.PublicKey), Amount: 1_000_000},
			ledger.Allocation{Address: app.TreasuryAddress, Amount: treasury})
	}))
	n := &grantsNode{Node: forgetest.Start(t, opts...), t: t}
	n.send(alice, tx.KindStake, map[string]any{"amount": "10000"})

	// 1. The proposal: the grant is listed as proposed, with its terms.
	expiry := n.height() + 4*votingBlocks
	milestones, _ := json.Marshal([]map[string]string{
		{"description": "Translate the guide", "amount": "3000", "recipient": crypto.PubkeyToAddress(bob.PublicKey).Hex()},
		{"description": "Translate the FAQ\nand the API docs", "amount": "4000", "recipient": crypto.PubkeyToAddress(bob.PublicKey).Hex()},
	})
	reviewers := []string{crypto.PubkeyToAddress(r1.PublicKey).Hex(), crypto.PubkeyToAddress(r2.PublicKey).Hex(), crypto.PubkeyToAddress(r3.PublicKey).Hex()}
	payload, _ := json.Marshal(map[string]string{"milestones": string(milestones), "reviewers": strings.Join(reviewers, ","), "expiry": strconv.FormatInt(expiry, 10)})
	// A payload that breaks a rule is refused before a block, naming the field.
	bad := strings.Replace(string(payload), `\"amount\":\"3000\"`, `\"amount\":\"0\"`, 1)
	if bad == string(payload) {
		t.Fatal("the bad payload is the good one")
	}
	res := n.Call("POST", "/api/v1/chain/txs", nil, n.sign(alice, tx.KindPropose, map[string]any{"proposalType": "grant", "title": "Translations",
		"description": "", "payload": bad, "deposit": "1000"}))
	var refusal apiError
	if err := json.Unmarshal(res.Body, &refusal); err != nil || res.Status != http.StatusBadRequest || refusal.Code != "invalid_field" ||
		!strings.Contains(refusal.Message, "milestones[0].amount") {
		t.Fatalf("a zero milestone amount: %d %s", res.Status, res.Body)
	}
	n.send(alice, tx.KindPropose, map[string]any{"proposalType": "grant", "title": "Translations", "description": "Docs in every language.",
		"payload": string(payload), "deposit": "1000"})
	var list []index.GrantInfo
	res = n.JSON("GET", "/api/v1/grants?status=proposed", nil, nil, http.StatusOK, &list)
	if res.Header.Get("X-Total-Count") != "1" || len(list) != 1 {
		t.Fatalf("proposed grants = %+v", list)
	}
	g := list[0]
	if g.ID != 1 || g.Title != "Translations" || g.Status != "proposed" || g.Total != 7_000 || g.Expiry != expiry || g.ApprovalsNeeded != 2 ||
		len(g.Reviewers) != 3 || g.Reviewers[1].Address != reviewers[1] || g.Reviewers[1].Username == "" || len(g.Milestones) != 2 ||
		g.Milestones[1].Description != "Translate the FAQ\nand the API docs" || g.Milestones[1].Amount != 4_000 || g.Milestones[1].Index != 1 ||
		g.Proposer.Address != crypto.PubkeyToAddress(alice.PublicKey).Hex() {
		t.Fatalf("proposed grant = %+v", g)
	}

	// 2. The vote passes it: the total goes into the escrow.
	n.send(alice, tx.KindVote, map[string]any{"proposal": "1", "option": "yes"})
	for i := 0; n.grant(1).Status == "proposed"; i++ {
		if i == 3*votingBlocks {
			t.Fatal("the grant is still proposed")
		}
		n.send(alice, tx.KindTransfer, map[string]any{"to": crypto.PubkeyToAddress(alice.PublicKey).Hex(), "amount": "1"})
	}
	if g := n.grant(1); g.Status != "active" || g.Released != 0 {
		t.Fatalf("grant after the vote = %+v", g)
	}
	if got := n.balance(app.GrantEscrowAddress); got != 7_000 {
		t.Fatalf("grant escrow = %d, want 7000", got)
	}
	if got := n.balance(app.TreasuryAddress); got != treasury-7_000 {
		t.Fatalf("treasury = %d, want %d", got, treasury-7_000)
	}

	// 3. Two of three reviewers release milestone 0 to bob.
	approve := func(m int) map[string]any { return map[string]any{"grant": "1", "milestone": strconv.Itoa(m)} }
	n.send(r1, tx.KindGrantApprove, approve(0))
	if g := n.grant(1); g.Milestones[0].Released || len(g.Milestones[0].Approvals) != 1 || g.Milestones[0].Approvals[0].Reviewer.Address != reviewers[0] {
		t.Fatalf("after one approval = %+v", g.Milestones[0])
	}
	n.refused(r1, tx.KindGrantApprove, approve(0), http.StatusConflict, "already_approved")
	n.refused(stranger, tx.KindGrantApprove, approve(0), http.StatusForbidden, "not_reviewer")
	n.refused(r2, tx.KindGrantApprove, map[string]any{"grant": "9", "milestone": "0"}, http.StatusNotFound, "grant_not_found")
	n.refused(r2, tx.KindGrantApprove, approve(2), http.StatusNotFound, "grant_not_found")
	n.send(r2, tx.KindGrantApprove, approve(0))
	if got := n.balance(addr(bob)); got != 3_000 {
		t.Fatalf("bob = %d, want 3000", got)
	}
	n.refused(r3, tx.KindGrantApprove, approve(0), http.StatusConflict, "milestone_released")
	n.send(r3, tx.KindGrantApprove, approve(1)) // one of three: held
	g = n.grant(1)
	if m := g.Milestones[0]; g.Released != 3_000 || !m.Released || m.ReleasedHeight == 0 || len(m.Approvals) != 2 || m.Approvals[1].Reviewer.Address != reviewers[1] {
		t.Fatalf("grant after the release = %+v", g)
	}
	if m := g.Milestones[1]; m.Released || len(m.Approvals) != 1 {
		t.Fatalf("milestone 1 = %+v", m)
	}
	if got := n.balance(addr(bob)); got != 3_000 {
		t.Fatalf("bob after the refusals = %d, want 3000", got)
	}

	// 4. At the expiry the rest returns to the treasury.
	for i := 0; n.height() < expiry; i++ {
		if i == 6*votingBlocks {
			t.Fatalf("the chain is at %d, short of the expiry %d", n.height(), expiry)
		}
		n.send(alice, tx.KindTransfer, map[string]any{"to": crypto.PubkeyToAddress(alice.PublicKey).Hex(), "amount": "1"})
	}
	g = n.grant(1)
	if g.Status != "expired" || g.Released != 3_000 || g.Refunded != 4_000 {
		t.Fatalf("grant after the expiry = %+v", g)
	}
	if got := n.balance(app.TreasuryAddress); got != treasury-3_000 {
		t.Fatalf("treasury after the expiry = %d, want %d", got, treasury-3_000)
	}
	if got := n.balance(app.GrantEscrowAddress); got != 0 {
		t.Fatalf("grant escrow after the expiry = %d", got)
	}
	n.refused(r1, tx.KindGrantApprove, approve(1), http.StatusConflict, "grant_expired")
	res = n.JSON("GET", "/api/v1/grants?status=expired", nil, nil, http.StatusOK, &list)
	if res.Header.Get("X-Total-Count") != "1" || len(list) != 1 || list[0].ID != 1 {
		t.Fatalf("expired grants = %+v", list)
	}
	n.JSON("GET", "/api/v1/grants?status=active", nil, nil, http.StatusOK, &list)
	if len(list) != 0 {
		t.Fatalf("active grants = %+v", list)
	}

	// 5. Bad reads.
	for path, want := range map[string]string{
		"/api/v1/grants?status=open": "invalid_status",
		"/api/v1/grants/0":           "invalid_id",
		"/api/v1/grants/x":           "invalid_id",
		"/api/v1/grants/2":           "not_found",
		"/api/v1/grants?page=x":      "invalid_page",
	} {
		var e apiError
		res := n.Call("GET", path, nil, nil)
		if err := json.Unmarshal(res.Body, &e); err != nil || e.Code != want || res.Status < 400 || res.Status >= 500 {
			t.Errorf("GET %s = %d %s, want %s", path, res.Status, res.Body, want)
		}
	}
}
