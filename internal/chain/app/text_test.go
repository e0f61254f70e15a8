package app_test

import (
	"context"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// TestForgeTextRefusedByTheChain is a client that signs its forge actions
// itself, bypassing a node's API: the chain refuses NUL and other control
// characters in a payload's text, in CheckTx and in a block (a proposer
// may include what no mempool admitted), and keeps a body's newlines and
// tabs.
func TestForgeTextRefusedByTheChain(t *testing.T) {
	op, alice := newWallet(t), newWallet(t)
	a, _ := newForgeChain(t, op)
	ctx := context.Background()
	block(t, a, 1, forgeTx(t, op, alice.addr, 0, "repo.create", `{"name":"x"}`))
	bad := []string{
		`{"repo":1,"title":"a\u0000b"}`,
		`{"repo":1,"title":"t","body":"\u0000"}`,
		`{"repo":1,"title":"two\nlines"}`,
	}
	for i, payload := range bad {
		raw := forgeTx(t, op, alice.addr, uint64(1+i), "issue.create", payload)
		if res, _ := a.CheckTx(ctx, &abci.CheckTxRequest{Tx: raw}); res.Code != tx.CodeInvalidText || res.Log == "" {
			t.Fatalf("CheckTx of %s: %d %q, want invalid_text", payload, res.Code, res.Log)
		}
		res := block(t, a, int64(2+i), raw)
		if res[0].Code != tx.CodeInvalidText || hasForgeEvent(res[0].Events) {
			t.Fatalf("%s in a block: %d %q, want invalid_text and no forge event", payload, res[0].Code, res[0].Log)
		}
	}
	good := forgeTx(t, op, alice.addr, uint64(1+len(bad)), "issue.create", `{"repo":1,"title":"t","body":"a\n\tb\r\n"}`)
	if res, _ := a.CheckTx(ctx, &abci.CheckTxRequest{Tx: good}); res.Code != 0 {
		t.Fatalf("CheckTx of a body with newlines and tabs: %d %s", res.Code, res.Log)
	}
	res := block(t, a, int64(2+len(bad)), good)
	if res[0].Code != 0 {
		t.Fatalf("a body with newlines and tabs in a block: %d %s", res[0].Code, res[0].Log)
	}
	if !hasForgeEvent(res[0].Events) {
		t.Fatal("no forge event")
	}
	c, err := forge.ParseEvent(forgeEvent(res[0].Events))
	if err != nil || c.Issue.Body != "a\n\tb\r\n" || c.Issue.Number != 1 {
		t.Fatalf("event %+v %v", c.Issue, err)
	}
}

func hasForgeEvent(evs []abci.Event) bool { return forgeEvent(evs).Type == forge.EventType }

func forgeEvent(evs []abci.Event) abci.Event {
	for _, ev := range evs {
		if ev.Type == forge.EventType {
			return ev
		}
	}
	return abci.Event{}
}

// textSeeds are signed transactions, from alice as an operator, whose
// text the projection must never see: NUL, other C0 controls, newlines in
// one-line fields, in forge payloads and in the other kinds' text fields.
func textSeeds(f *testing.F, alice wallet) [][]byte {
	id := app.DefaultParams().ChainID
	forgeMsg := func(action, payload string) map[string]any {
		return map[string]any{"from": alice.addr.Hex(), "actor": alice.addr.Hex(), "action": action, "payload": payload, "nonce": "0"}
	}
	msgs := []struct {
		kind tx.Kind
		msg  map[string]any
	}{
		{tx.KindForge, forgeMsg("repo.create", `{"name":"x","description":"a\u0000"}`)},
		{tx.KindForge, forgeMsg("repo.create", `{"name":"x","description":"a\nb"}`)},
		{tx.KindForge, forgeMsg("repo.create", `{"name":"x\u0001"}`)},
		{tx.KindForge, forgeMsg("repo.create", `{"name":"x","description":"\u0085"}`)},
		{tx.KindForge, forgeMsg("repo.create", `{"name":"x","description":"ok"}`)},
		{tx.KindPropose, map[string]any{"from": alice.addr.Hex(), "proposalType": "text", "title": "a\x00", "description": "d", "payload": "{}", "deposit": "1", "nonce": "0"}},
		{tx.KindClaimUsername, map[string]any{"from": alice.addr.Hex(), "username": "al\x1bice", "nonce": "0"}},
		{tx.KindRegisterNode, map[string]any{"from": alice.addr.Hex(), "url": "https://n.example\x00", "peerId": "p", "addrs": "/ip4/1.2.3.4/tcp/1", "nonce": "0"}},
		{tx.KindRegisterNode, map[string]any{"from": alice.addr.Hex(), "url": "https://n.example", "peerId": "p\x00", "addrs": "/ip4/1.2.3.4/tcp/1\n/ip4/1.2.3.4/tcp/2", "nonce": "0"}},
		{tx.KindVote, map[string]any{"from": alice.addr.Hex(), "proposal": "1", "option": "yes\x00", "nonce": "0"}},
		{tx.KindTip, map[string]any{"from": alice.addr.Hex(), "to": alice.addr.Hex(), "amount": "1", "target": "user:a\x00", "nonce": "0"}},
	}
	var seeds [][]byte
	for _, m := range msgs {
		seeds = append(seeds, signUnchecked(f, alice, m.kind, id, m.msg))
	}
	return seeds
}

// signUnchecked signs message as a wallet does, without the checks
// tx.Sign makes first: a client that sends what the chain must refuse.
func signUnchecked(f *testing.F, w wallet, kind tx.Kind, id uint64, message map[string]any) []byte {
	doc := apitypes.TypedData{Types: tx.Types(), PrimaryType: string(kind), Domain: tx.Domain(id), Message: message}
	hash, _, err := apitypes.TypedDataAndHash(doc)
	if err != nil {
		f.Fatalf("hash typed data: %v", err)
	}
	sig, err := crypto.Sign(hash, w.key)
	if err != nil {
		f.Fatal(err)
	}
	sig[64] += 27
	raw, err := tx.Encode(tx.Envelope{Type: string(kind), Message: message, Signature: hexutil.Encode(sig)})
	if err != nil {
		f.Fatal(err)
	}
	return raw
}

// checkAdmittedText: a transaction CheckTx admitted carries no text the
// SQL projection could refuse.
func checkAdmittedText(t *testing.T, raw []byte) {
	t.Helper()
	env, err := tx.Decode(raw)
	if err != nil {
		t.Fatalf("admitted, but does not decode: %v", err)
	}
	got, err := tx.Verify(env, app.DefaultParams().ChainID)
	if err != nil {
		t.Fatalf("admitted, but does not verify: %v", err)
	}
	for _, line := range []string{got.Title, got.ProposalType, got.Option, got.Username, got.Target, got.Action, got.URL, got.PeerID, got.Addrs} {
		if err := tx.CheckLine("", line); err != nil {
			t.Fatalf("admitted with the one-line text %q: %v", line, err)
		}
	}
	for _, body := range []string{got.Description, got.Payload} {
		if err := tx.CheckBody("", body); err != nil {
			t.Fatalf("admitted with the text %q: %v", body, err)
		}
	}
	if got.Kind == tx.KindForge {
		if err := forge.CheckText(got.Action, got.Payload); err != nil {
			t.Fatalf("admitted the forge action %s %s: %v", got.Action, got.Payload, err)
		}
	}
}
