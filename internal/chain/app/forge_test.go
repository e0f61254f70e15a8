package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// newForgeChain starts an app whose genesis lists op as its operator, as
// chains were made before the own-keys upgrade: op relays for anyone.
// (authority_test.go tests the rules after it.)
func newForgeChain(t *testing.T, op wallet) (*app.App, *state.Store) {
	t.Helper()
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	gen := app.TreasuryGenesis(op.addr)
	gen.Upgrades = nil
	g, _ := json.Marshal(gen)
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: g}); err != nil {
		t.Fatal(err)
	}
	return a, st
}

func forgeTx(t *testing.T, op wallet, actor common.Address, nonce uint64, action, payload string) []byte {
	t.Helper()
	return encodeSigned(t, op, tx.KindForge, app.DefaultParams().ChainID, map[string]any{
		"from": op.addr.Hex(), "actor": actor.Hex(), "action": action, "payload": payload, "nonce": strconv.FormatUint(nonce, 10),
	})
}

// checkOwn puts raw through CheckTx as the node's own transaction (Own)
// and returns the verdict; a refusal must come with its ABCI code.
func checkOwn(t *testing.T, a *app.App, raw []byte) error {
	t.Helper()
	verdict := a.Own(raw)
	res, err := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: raw})
	if err != nil {
		t.Fatal(err)
	}
	refusal := verdict()
	if (refusal == nil) != (res.Code == 0) || (refusal != nil && !errors.Is(refusal, &tx.Error{Code: res.Code})) {
		t.Fatalf("verdict %v against CheckTx's code %d (%s)", refusal, res.Code, res.Log)
	}
	return refusal
}

func TestForgeTxsOnlyFromOperators(t *testing.T) {
	op, mallory, alice := newWallet(t), newWallet(t), newWallet(t)
	a, _ := newForgeChain(t, op)
	ok, err := a.IsOperator(op.addr)
	if err != nil || !ok {
		t.Fatalf("operator not registered: %v %v", ok, err)
	}
	res, _ := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: forgeTx(t, mallory, alice.addr, 0, "repo.create", `{"name":"x"}`)})
	if res.Code != tx.CodeNotOperator || res.Log == "" {
		t.Fatalf("a non-operator's forge tx: %d %s", res.Code, res.Log)
	}
	results := block(t, a, 1,
		forgeTx(t, mallory, alice.addr, 0, "repo.create", `{"name":"x"}`),
		forgeTx(t, op, alice.addr, 0, "repo.create", `{"name":"x"}`))
	if results[0].Code != tx.CodeNotOperator || results[1].Code != 0 {
		t.Fatalf("results %d %q / %d %q", results[0].Code, results[0].Log, results[1].Code, results[1].Log)
	}
	c, err := forge.ParseEvent(results[1].Events[0])
	if err != nil || c.Repos[0].Owner != alice.addr || c.Repos[0].ID != 1 || c.Height != 1 {
		t.Fatalf("event = %+v %v", c, err)
	}
}

// A forge action refused in a block still uses the operator's nonce, so
// the operator's next transactions, signed ahead, stay valid.
func TestRefusedForgeActionUsesTheNonce(t *testing.T) {
	op, alice := newWallet(t), newWallet(t)
	a, st := newForgeChain(t, op)
	create := forgeTx(t, op, alice.addr, 0, "repo.create", `{"name":"x"}`)
	again := forgeTx(t, op, alice.addr, 1, "repo.create", `{"name":"X"}`)
	next := forgeTx(t, op, alice.addr, 2, "issue.create", `{"repo":1,"title":"works"}`)
	// Its relayer's own CheckTx refuses the duplicate (the mempool holds
	// the first) and keeps the nonce; CheckTx admits it, as a node must
	// that gets it by gossip, to fail in its block.
	ctx := context.Background()
	if res, _ := a.CheckTx(ctx, &abci.CheckTxRequest{Tx: create}); res.Code != 0 {
		t.Fatal(res.Log)
	}
	if err := checkOwn(t, a, again); !errors.Is(err, &tx.Error{Code: tx.CodeNameTaken}) {
		t.Fatalf("the relayer's own duplicate: %v", err)
	}
	if n, _ := a.PendingNonce(op.addr); n != 1 {
		t.Fatalf("pending nonce %d after a refusal, want 1", n)
	}
	if res, _ := a.CheckTx(ctx, &abci.CheckTxRequest{Tx: again}); res.Code != 0 {
		t.Fatalf("duplicate in CheckTx: %d %s", res.Code, res.Log)
	}
	// A proposer includes it.
	results := block(t, a, 1, create, again, next)
	if results[0].Code != 0 || results[1].Code != tx.CodeNameTaken || results[2].Code != 0 {
		t.Fatalf("results %d / %d %q / %d %q", results[0].Code, results[1].Code, results[1].Log, results[2].Code, results[2].Log)
	}
	if len(results[1].Events) != 1 || results[1].Events[0].Type != app.EventNonceUsed {
		t.Fatalf("refused action's events: %+v", results[1].Events)
	}
	if n, _ := ledger.Nonce(st, op.addr); n != 3 {
		t.Fatalf("operator nonce %d, want 3", n)
	}
}

// Two nodes relay at once: node 1's mempool holds an action that node 2's
// block makes fail (the name is taken). On recheck the action stays, using
// its nonce, and node 1's next transaction stays valid instead of being
// stranded behind a nonce gap; the block then refuses the action.
func TestRecheckKeepsARefusedActionInLine(t *testing.T) {
	op1, op2, alice := newWallet(t), newWallet(t), newWallet(t)
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	gen := app.TreasuryGenesis(op1.addr, op2.addr)
	gen.Upgrades = nil // operators relaying for anyone: the rules before own-keys
	g, _ := json.Marshal(gen)
	ctx := context.Background()
	if _, err := a.InitChain(ctx, &abci.InitChainRequest{AppStateBytes: g}); err != nil {
		t.Fatal(err)
	}
	mine := forgeTx(t, op1, alice.addr, 0, "repo.create", `{"name":"y"}`)
	next := forgeTx(t, op1, alice.addr, 1, "repo.create", `{"name":"z"}`)
	for _, raw := range [][]byte{mine, next} {
		if res, _ := a.CheckTx(ctx, &abci.CheckTxRequest{Tx: raw}); res.Code != 0 {
			t.Fatal(res.Log)
		}
	}
	block(t, a, 1, forgeTx(t, op2, alice.addr, 0, "repo.create", `{"name":"Y"}`))
	for _, raw := range [][]byte{mine, next} {
		if res, _ := a.CheckTx(ctx, &abci.CheckTxRequest{Tx: raw, Type: abci.CHECK_TX_TYPE_RECHECK}); res.Code != 0 {
			t.Fatalf("recheck: %d %s", res.Code, res.Log)
		}
	}
	// Its relayer refuses a failing action before sending it.
	if err := checkOwn(t, a, forgeTx(t, op1, alice.addr, 2, "repo.create", `{"name":"y"}`)); !errors.Is(err, &tx.Error{Code: tx.CodeNameTaken}) {
		t.Fatalf("the relayer's own failing action: %v", err)
	}
	if n, _ := a.PendingNonce(op1.addr); n != 2 {
		t.Fatalf("pending nonce %d, want 2", n)
	}
	results := block(t, a, 2, mine, next)
	if results[0].Code != tx.CodeNameTaken || results[1].Code != 0 {
		t.Fatalf("results %d / %d %s", results[0].Code, results[1].Code, results[1].Log)
	}
}

func TestGenesisOperators(t *testing.T) {
	op := newWallet(t)
	for name, raw := range map[string]string{
		"zero":  `{"params":{"chainId":1,"symbol":"D"},"operators":["0x0000000000000000000000000000000000000000"]}`,
		"twice": `{"params":{"chainId":1,"symbol":"D"},"operators":["` + op.addr.Hex() + `","` + op.addr.Hex() + `"]}`,
	} {
		a, _ := app.New(state.OpenMemory())
		if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: []byte(raw)}); err == nil {
			t.Errorf("%s: genesis accepted", name)
		}
	}
	// A genesis written before operators existed has none.
	a, _ := app.New(state.OpenMemory())
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: []byte(`{"params":{"chainId":1,"symbol":"D"},"allocations":[]}`)}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := a.IsOperator(op.addr); ok {
		t.Fatal("an operator out of nowhere")
	}
}
