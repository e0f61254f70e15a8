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
	"github.com/dforge/dforge/internal/chain/delegation"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// delegatedTo is a genesis delegation of every scope from each account to
// delegate, for a long time.
func delegatedTo(delegate common.Address, accounts ...common.Address) []delegation.Delegation {
	out := make([]delegation.Delegation, len(accounts))
	for i, a := range accounts {
		out[i] = delegation.Delegation{Account: a, Delegate: delegate, Scopes: delegation.Scopes, Expiry: 1_000_000}
	}
	return out
}

// ownKeysChain is a new chain (own-keys rules from genesis) with two
// relayers, node0 and node1, and users alice and bob, funded so they can
// sign their own transactions.
type ownKeysChain struct {
	t            *testing.T
	a            *app.App
	st           *state.Store
	node0, node1 wallet
	alice, bob   wallet
	nonces       map[common.Address]uint64
	signers      map[string]common.Address // who signed each transaction
	height       int64
	genesis      []byte
}

func newOwnKeysChain(t *testing.T) *ownKeysChain {
	t.Helper()
	c := &ownKeysChain{t: t, st: state.OpenMemory(), node0: newWallet(t), node1: newWallet(t), alice: newWallet(t), bob: newWallet(t), nonces: map[common.Address]uint64{}, signers: map[string]common.Address{}}
	a, err := app.New(c.st)
	if err != nil {
		t.Fatal(err)
	}
	c.a = a
	g := app.TreasuryGenesis(c.node0.addr, c.node1.addr) // both are genesis operators: that no longer lets them act for anyone
	g.Allocations = append(g.Allocations, ledger.Allocation{Address: c.alice.addr, Amount: 1_000_000}, ledger.Allocation{Address: c.bob.addr, Amount: 1_000_000})
	raw, _ := json.Marshal(g)
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: raw}); err != nil {
		t.Fatal(err)
	}
	c.genesis = raw
	return c
}

// sign signs kind from w with w's next nonce.
func (c *ownKeysChain) sign(w wallet, kind tx.Kind, m map[string]any) []byte {
	m["from"], m["nonce"] = w.addr.Hex(), strconv.FormatUint(c.nonces[w.addr], 10)
	c.nonces[w.addr]++
	raw := encodeSigned(c.t, w, kind, app.DefaultParams().ChainID, m)
	c.signers[string(raw)] = w.addr
	return raw
}

// refused runs raw alone in a block and checks it was refused with code.
// A refusal that did not use the signer's nonce gives it back.
func (c *ownKeysChain) refused(what string, raw []byte, code uint32) {
	c.t.Helper()
	r := c.block(raw)[0]
	wantCode(c.t, what, r, code)
	if len(r.Events) == 0 {
		c.nonces[c.signers[string(raw)]]--
	}
}

func (c *ownKeysChain) forge(signer wallet, actor common.Address, action, payload string) []byte {
	return c.sign(signer, tx.KindForge, map[string]any{"actor": actor.Hex(), "action": action, "payload": payload})
}

func (c *ownKeysChain) delegate(from wallet, to common.Address, scopes string, expiry uint64) []byte {
	return c.sign(from, tx.KindDelegate, map[string]any{"delegate": to.Hex(), "scopes": scopes, "expiry": strconv.FormatUint(expiry, 10)})
}

// block finalizes the next block and returns its results.
func (c *ownKeysChain) block(txs ...[]byte) []*abci.ExecTxResult {
	c.t.Helper()
	c.height++
	return block(c.t, c.a, c.height, txs...)
}

// must runs txs in one block and fails on any refusal.
func (c *ownKeysChain) must(txs ...[]byte) []*abci.ExecTxResult {
	c.t.Helper()
	res := c.block(txs...)
	for i, r := range res {
		if r.Code != 0 {
			c.t.Fatalf("tx %d: code %d %s", i, r.Code, r.Log)
		}
	}
	return res
}

func wantCode(t *testing.T, what string, r *abci.ExecTxResult, code uint32) {
	t.Helper()
	if r.Code != code || r.Log == "" {
		t.Fatalf("%s: code %d %q, want %s (%d)", what, r.Code, r.Log, tx.CodeName(code), code)
	}
}

// forgeRecords is every forge state entry (keys and values), to show
// that refused actions wrote none.
func forgeRecords(t *testing.T, c *ownKeysChain) string {
	t.Helper()
	var b strings.Builder
	if err := c.st.Scan([]byte("forge/"), func(k, v []byte) error {
		b.Write(k)
		b.Write(v)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The attack of issue 22: node1's operator signs actions in alice's name
// though alice delegated only to node0. CheckTx refuses each; forced into
// a block, each is refused there, nothing changes (not even node1's
// nonce) and no reward is minted; alice's own actions through node0 land.
func TestAnOperatorCannotActInAUsersName(t *testing.T) {
	c := newOwnKeysChain(t)
	ctx := context.Background()
	c.must(c.delegate(c.alice, c.node0.addr, "issue,repository", 1000))
	c.must(c.forge(c.node0, c.alice.addr, "repo.create", `{"name":"victim"}`))
	c.must(c.forge(c.node0, c.alice.addr, "issue.create", `{"repo":1,"title":"works"}`))
	c.must(c.forge(c.node0, c.alice.addr, "pr.create", fmt.Sprintf(`{"repo":1,"title":"Fix","headBranch":"fix","headSha":"%040d","baseSha":"%040d"}`, 1, 2)))

	supply := balance(t, c.st, app.TreasuryAddress)
	before := forgeRecords(t, c)
	attacks := []struct{ action, payload string }{
		{"issue.comment", `{"repo":1,"number":1,"body":"not alice"}`},
		{"pr.review", `{"repo":1,"number":2,"event":"approve","body":""}`},
		{"pr.merge", fmt.Sprintf(`{"repo":1,"number":2,"style":"merge","mergeSha":"%040d"}`, 12)},
		{"repo.push", fmt.Sprintf(`{"repo":1,"updates":[{"ref":"refs/heads/main","old":"","new":"%040d"}]}`, 3)},
		{"repo.transfer", `{"repo":1,"newOwner":"` + c.node1.addr.Hex() + `"}`},
	}
	for _, at := range attacks {
		raw := c.forge(c.node1, c.alice.addr, at.action, at.payload)
		if res, _ := c.a.CheckTx(ctx, &abci.CheckTxRequest{Tx: raw}); res.Code != tx.CodeNotDelegated && res.Code != tx.CodeSignatureRequired {
			t.Fatalf("CheckTx of %s by node1: code %d %s", at.action, res.Code, res.Log)
		}
		res := c.block(raw)[0]
		if res.Code != tx.CodeNotDelegated && res.Code != tx.CodeSignatureRequired {
			t.Fatalf("%s forced into a block: code %d %s", at.action, res.Code, res.Log)
		}
		if len(res.Events) != 1 || res.Events[0].Type != app.EventNonceUsed {
			t.Fatalf("%s forced into a block gave events %+v", at.action, res.Events)
		}
	}
	// Each refusal used node1's own nonce, as a refused action does, and
	// nothing else.
	if acct := account(t, c.a, c.node1.addr); acct.Nonce != uint64(len(attacks)) {
		t.Fatalf("node1's nonce is %d, want %d", acct.Nonce, len(attacks))
	}
	if got := balance(t, c.st, app.TreasuryAddress); got != supply {
		t.Fatalf("the treasury moved from %d to %d: a reward was minted", supply, got)
	}
	if ch := forgeRecords(t, c); ch != before {
		t.Fatal("the refused actions changed alice's records")
	}
	res := c.must(c.forge(c.node0, c.alice.addr, "issue.comment", `{"repo":1,"number":1,"body":"by alice"}`))
	ch, err := forge.ParseEvent(res[0].Events[0])
	if err != nil || ch.Signer != c.node0.addr.Hex() || ch.Delegation != c.node0.addr.Hex() || ch.Actor != c.alice.addr {
		t.Fatalf("alice's comment through node0: %+v %v", ch, err)
	}
}

// A user signs their own forge actions, sensitive ones included; a
// delegate may never sign a sensitive one.
func TestSelfSignedAndSensitiveActions(t *testing.T) {
	c := newOwnKeysChain(t)
	c.must(c.delegate(c.alice, c.node0.addr, strings.Join(delegation.Scopes, ","), 1000))
	res := c.must(c.forge(c.alice, c.alice.addr, "repo.create", `{"name":"mine"}`))
	ch, _ := forge.ParseEvent(res[0].Events[0])
	if ch.Signer != c.alice.addr.Hex() || ch.Delegation != "" {
		t.Fatalf("self-signed record: signer %q delegation %q", ch.Signer, ch.Delegation)
	}
	for _, at := range []struct{ action, payload string }{
		{"repo.transfer", `{"repo":1,"newOwner":"` + c.bob.addr.Hex() + `"}`},
		{"repo.delete", `{"repo":1}`},
		{"key.add", `{"title":"k","key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"}`},
	} {
		wantCode(t, at.action+" under a delegation", c.block(c.forge(c.node0, c.alice.addr, at.action, at.payload))[0], tx.CodeSignatureRequired)
	}
	// The Owners team's members are sensitive too; other teams are not.
	c.must(c.forge(c.alice, c.alice.addr, "org.create", `{"name":"acme"}`))
	org := firstOrg
	wantCode(t, "adding an owner under a delegation",
		c.block(c.forge(c.node0, c.alice.addr, "team.member.add", `{"team":`+org.owners+`,"user":"`+c.bob.addr.Hex()+`"}`))[0], tx.CodeSignatureRequired)
	c.must(c.forge(c.alice, c.alice.addr, "team.member.add", `{"team":`+org.owners+`,"user":"`+c.bob.addr.Hex()+`"}`))
	// Removing an owner from the organization is an owners change too.
	remove := `{"org":` + org.id + `,"user":"` + c.bob.addr.Hex() + `"}`
	wantCode(t, "removing an owner under a delegation", c.block(c.forge(c.node0, c.alice.addr, "org.member.remove", remove))[0], tx.CodeSignatureRequired)
	c.must(c.forge(c.alice, c.alice.addr, "org.member.remove", remove))
	c.must(c.forge(c.alice, c.alice.addr, "repo.transfer", `{"repo":1,"newOwner":"`+c.bob.addr.Hex()+`"}`))
}

// firstOrg holds the ids a fresh chain gives its first organization and
// that organization's Owners team.
var firstOrg = struct{ id, owners string }{id: "1", owners: "1"}

// Scopes, expiry and revocation decide, block by block.
func TestDelegationScopesExpiryAndRevocation(t *testing.T) {
	c := newOwnKeysChain(t)
	c.must(c.delegate(c.alice, c.node0.addr, "issue", 6))
	c.must(c.forge(c.alice, c.alice.addr, "repo.create", `{"name":"lib"}`))
	wantCode(t, "a push under an issue-only delegation",
		c.block(c.forge(c.node0, c.alice.addr, "repo.topics", `{"repo":1,"topics":["go"]}`))[0], tx.CodeNotDelegated)
	c.must(c.forge(c.node0, c.alice.addr, "issue.create", `{"repo":1,"title":"in scope"}`)) // height 4
	c.block()                                                                               // 5
	wantCode(t, "at the expiry height", c.block(c.forge(c.node0, c.alice.addr, "issue.create", `{"repo":1,"title":"late"}`))[0], tx.CodeNotDelegated)

	c.must(c.delegate(c.alice, c.node0.addr, "issue", 1000))
	c.must(c.forge(c.node0, c.alice.addr, "issue.create", `{"repo":1,"title":"renewed"}`))
	c.refused("an Undelegate from a stranger", c.sign(c.bob, tx.KindUndelegate, map[string]any{"account": c.alice.addr.Hex(), "delegate": c.node0.addr.Hex()}), tx.CodeNotDelegator)
	c.must(c.sign(c.alice, tx.KindUndelegate, map[string]any{"account": c.alice.addr.Hex(), "delegate": c.node0.addr.Hex()}))
	wantCode(t, "after revocation", c.block(c.forge(c.node0, c.alice.addr, "issue.create", `{"repo":1,"title":"revoked"}`))[0], tx.CodeNotDelegated)
	// The delegate may drop a delegation made to it.
	c.must(c.delegate(c.bob, c.node1.addr, "issue", 1000))
	c.must(c.sign(c.node1, tx.KindUndelegate, map[string]any{"account": c.bob.addr.Hex(), "delegate": c.node1.addr.Hex()}))
	if list, err := c.a.Delegations(c.bob.addr); err != nil || len(list) != 0 {
		t.Fatalf("bob's delegations after node1 dropped it: %+v %v", list, err)
	}
}

// Bad delegations are refused with stable codes and change nothing.
func TestBadDelegationsAreRefused(t *testing.T) {
	c := newOwnKeysChain(t)
	c.must(c.delegate(c.alice, c.node0.addr, "issue", 100))
	before := string(c.st.Hash())
	cases := []struct {
		name string
		raw  func() []byte
		code uint32
	}{
		{"unknown scope", func() []byte { return c.delegate(c.alice, c.node1.addr, "issue,wallet", 100) }, tx.CodeInvalidScope},
		{"no scope", func() []byte { return c.delegate(c.alice, c.node1.addr, "", 100) }, tx.CodeInvalidScope},
		{"expiry in the past", func() []byte { return c.delegate(c.alice, c.node1.addr, "issue", 1) }, tx.CodeDelegationExpired},
		{"zero delegate", func() []byte { return c.delegate(c.alice, common.Address{}, "issue", 100) }, tx.CodeInvalidField},
		{"undelegate by a stranger", func() []byte {
			return c.sign(c.bob, tx.KindUndelegate, map[string]any{"account": c.alice.addr.Hex(), "delegate": c.node0.addr.Hex()})
		}, tx.CodeNotDelegator},
	}
	for _, tc := range cases {
		raw := tc.raw()
		if res, _ := c.a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: raw}); res.Code != tc.code {
			t.Fatalf("%s: CheckTx code %d %s, want %d", tc.name, res.Code, res.Log, tc.code)
		}
		c.refused(tc.name, raw, tc.code) // forced into a block, too
	}
	// Another chain's signature recovers another address: wrong_signer.
	other := encodeSigned(t, c.alice, tx.KindDelegate, app.DefaultParams().ChainID+1, map[string]any{
		"from": c.alice.addr.Hex(), "delegate": c.node1.addr.Hex(), "scopes": "issue", "expiry": "100", "nonce": strconv.FormatUint(c.nonces[c.alice.addr], 10)})
	if res, _ := c.a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: other}); res.Code != tx.CodeWrongSigner {
		t.Fatalf("another chain id: code %d %s", res.Code, res.Log)
	}
	// A replayed delegation: its nonce is spent.
	c.nonces[c.alice.addr] = 0
	if res, _ := c.a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: c.delegate(c.alice, c.node0.addr, "issue", 100)}); res.Code != tx.CodeBadNonce {
		t.Fatalf("replayed nonce: code %d %s", res.Code, res.Log)
	}
	if string(c.st.Hash()) != before {
		t.Fatal("a refused delegation changed the state")
	}
}

// One relayer's flood is bounded per block; another's action still lands
// in the same block.
func TestFloodsAreBoundedPerBlock(t *testing.T) {
	c := newOwnKeysChain(t)
	c.must(c.delegate(c.alice, c.node0.addr, "issue,repository", 1000))
	c.must(c.forge(c.alice, c.alice.addr, "repo.create", `{"name":"lib"}`))
	var txs [][]byte
	for i := range app.MaxActionsPerAccount + 3 {
		txs = append(txs, c.forge(c.node0, c.alice.addr, "issue.create", `{"repo":1,"title":"flood `+strconv.Itoa(i)+`"}`))
	}
	txs = append(txs, c.forge(c.bob, c.bob.addr, "repo.create", `{"name":"honest"}`))
	res := c.block(txs...)
	for i, r := range res[:app.MaxActionsPerAccount] {
		if r.Code != 0 {
			t.Fatalf("action %d within the bound: %d %s", i, r.Code, r.Log)
		}
	}
	for _, r := range res[app.MaxActionsPerAccount : len(res)-1] {
		wantCode(t, "past the bound", r, tx.CodeRateLimited)
	}
	if r := res[len(res)-1]; r.Code != 0 {
		t.Fatalf("bob's action in the flooded block: %d %s", r.Code, r.Log)
	}
}

// Under own-keys any key registers a node, so a block takes at most
// MaxRegistrationsPerBlock registrations, whoever signs them; the next
// block takes more.
func TestNodeRegistrationsAreBoundedPerBlock(t *testing.T) {
	c := newOwnKeysChain(t)
	register := func(w wallet, i int) []byte {
		return c.sign(w, tx.KindRegisterNode, map[string]any{"url": fmt.Sprintf("https://node%d.example", i), "peerId": testPeerID, "addrs": ""})
	}
	var txs [][]byte
	for i := range app.MaxRegistrationsPerBlock + 2 {
		txs = append(txs, register(newWallet(t), i))
	}
	res := c.block(txs...)
	for i, r := range res[:app.MaxRegistrationsPerBlock] {
		if r.Code != 0 {
			t.Fatalf("registration %d within the bound: %d %s", i, r.Code, r.Log)
		}
	}
	for _, r := range res[app.MaxRegistrationsPerBlock:] {
		wantCode(t, "a registration past the bound", r, tx.CodeRateLimited)
	}
	c.must(register(newWallet(t), 99))
}
