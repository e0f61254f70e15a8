package app_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"strconv"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

type wallet struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func newWallet(t testing.TB) wallet {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return wallet{k, crypto.PubkeyToAddress(k.PublicKey)}
}

// newChain starts an app whose genesis gives alice 1000 micro-units and
// lists operators.
func newChain(t *testing.T, alice wallet, operators ...common.Address) (*app.App, *state.Store) {
	t.Helper()
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(app.Genesis{Params: app.DefaultParams(), Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 1000}}, Operators: operators})
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: g}); err != nil {
		t.Fatal(err)
	}
	return a, st
}

func transfer(t testing.TB, from wallet, to common.Address, amount, nonce uint64, chainID uint64) []byte {
	t.Helper()
	return encodeSigned(t, from, tx.KindTransfer, chainID, map[string]any{
		"from": from.addr.Hex(), "to": to.Hex(), "amount": strconv.FormatUint(amount, 10), "nonce": strconv.FormatUint(nonce, 10),
	})
}

// encodeSigned signs message as kind with from's key and encodes it for a block.
func encodeSigned(t testing.TB, from wallet, kind tx.Kind, chainID uint64, message map[string]any) []byte {
	t.Helper()
	env, err := tx.Sign(from.key, kind, message, chainID)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tx.Encode(env)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func block(t *testing.T, a *app.App, height int64, txs ...[]byte) []*abci.ExecTxResult {
	t.Helper()
	return finalize(t, a, height, txs...).TxResults
}

func balance(t *testing.T, st *state.Store, a common.Address) uint64 {
	t.Helper()
	b, err := ledger.Balance(st, a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTransferCommits(t *testing.T) {
	alice, bob := newWallet(t), newWallet(t)
	a, st := newChain(t, alice)
	chainID := app.DefaultParams().ChainID
	raw := transfer(t, alice, bob.addr, 250, 0, chainID)
	if res, _ := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: raw}); res.Code != abci.CodeTypeOK {
		t.Fatalf("CheckTx = %d %s", res.Code, res.Log)
	}
	res := block(t, a, 1, raw)
	if res[0].Code != abci.CodeTypeOK {
		t.Fatalf("deliver = %d %s", res[0].Code, res[0].Log)
	}
	if balance(t, st, alice.addr) != 750 || balance(t, st, bob.addr) != 250 {
		t.Fatalf("balances %d/%d, want 750/250", balance(t, st, alice.addr), balance(t, st, bob.addr))
	}
	if res[0].Events[0].Type != "Transfer" {
		t.Fatalf("events = %+v", res[0].Events)
	}
}

func TestCheckTxRejections(t *testing.T) {
	alice, bob, mallory := newWallet(t), newWallet(t), newWallet(t)
	a, _ := newChain(t, alice)
	chainID := app.DefaultParams().ChainID
	block(t, a, 1, transfer(t, alice, bob.addr, 1, 0, chainID))

	tampered := transfer(t, alice, bob.addr, 5, 1, chainID)
	tampered = bytes.Replace(tampered, []byte(`"5"`), []byte(`"6"`), 1)
	cases := map[string]struct {
		raw  []byte
		code uint32
	}{
		"replayed nonce":    {transfer(t, alice, bob.addr, 1, 0, chainID), tx.CodeBadNonce},
		"future nonce":      {transfer(t, alice, bob.addr, 1, 5, chainID), tx.CodeBadNonce},
		"overdraft":         {transfer(t, alice, bob.addr, 10_000, 1, chainID), tx.CodeInsufficientFunds},
		"wrong chain id":    {transfer(t, alice, bob.addr, 1, 1, chainID+1), tx.CodeWrongSigner},
		"tampered amount":   {tampered, tx.CodeWrongSigner},
		"empty account":     {transfer(t, mallory, bob.addr, 1, 0, chainID), tx.CodeInsufficientFunds},
		"not a transaction": {[]byte("hello"), tx.CodeInvalidEncoding},
	}
	for name, c := range cases {
		res, err := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: c.raw})
		if err != nil || res.Code != c.code || res.Log == "" {
			t.Errorf("%s: code %d log %q err %v; want code %d (%s)", name, res.Code, res.Log, err, c.code, tx.CodeName(c.code))
		}
	}
}

func TestMempoolSeesPendingNonces(t *testing.T) {
	alice, bob := newWallet(t), newWallet(t)
	a, _ := newChain(t, alice)
	chainID := app.DefaultParams().ChainID
	for nonce := uint64(0); nonce < 3; nonce++ {
		res, _ := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: transfer(t, alice, bob.addr, 100, nonce, chainID)})
		if res.Code != abci.CodeTypeOK {
			t.Fatalf("pending nonce %d rejected: %s", nonce, res.Log)
		}
	}
	// Three pending transfers of 100 leave 700: a fourth of 800 cannot be admitted.
	res, _ := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: transfer(t, alice, bob.addr, 800, 3, chainID)})
	if res.Code != tx.CodeInsufficientFunds {
		t.Fatalf("overspend across pending txs = %d %s", res.Code, res.Log)
	}
}

func TestFailedTxInBlockChangesNothingAndHashesAgree(t *testing.T) {
	alice, bob := newWallet(t), newWallet(t)
	chainID := app.DefaultParams().ChainID
	good := transfer(t, alice, bob.addr, 10, 0, chainID)
	bad := transfer(t, alice, bob.addr, 5000, 1, chainID)
	a1, st1 := newChain(t, alice)
	res := block(t, a1, 1, good, bad)
	if res[0].Code != 0 || res[1].Code != tx.CodeInsufficientFunds {
		t.Fatalf("results %d/%d", res[0].Code, res[1].Code)
	}
	if n, _ := ledger.Nonce(st1, alice.addr); n != 1 {
		t.Fatalf("the failed tx consumed a nonce: %d", n)
	}
	a2, st2 := newChain(t, alice)
	block(t, a2, 1, good)
	if !bytes.Equal(st1.Hash(), st2.Hash()) {
		t.Fatal("a block with a failed tx must leave the same state as one without it")
	}
	info, _ := a1.Info(context.Background(), &abci.InfoRequest{})
	if info.LastBlockHeight != 1 || !bytes.Equal(info.LastBlockAppHash, st1.Hash()) {
		t.Fatalf("info = %+v", info)
	}
}

// FuzzCheckTx feeds arbitrary bytes to CheckTx, as any peer or RPC client
// can. Whatever comes in, the answer is OK or one of our stable codes with
// a message, never a panic or an internal error, and CheckTx never changes
// committed state.
func FuzzCheckTx(f *testing.F) {
	alice := newWallet(f)
	for nonce := range uint64(3) {
		valid := transfer(f, alice, common.Address{7}, 10, nonce, testChainID)
		f.Add(valid)
		f.Add(bytes.Replace(valid, []byte(`"10"`), []byte(`"0"`), 1))
		f.Add(valid[:len(valid)/2])
	}
	f.Add(claim(f, alice, "alice", 0))
	f.Add([]byte(`{"type":"Stake","message":{},"signature":"0x"}`))
	for _, seed := range textSeeds(f, alice) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, st := newChain(t, alice, alice.addr)
		before := st.Hash()
		res, err := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: raw, Type: abci.CHECK_TX_TYPE_CHECK})
		if err != nil {
			t.Fatalf("CheckTx returned an error: %v", err)
		}
		if res.Code != 0 && (tx.CodeName(res.Code) == "" || res.Log == "") {
			t.Fatalf("code %d %q is not a stable rejection with a message", res.Code, res.Log)
		}
		if res.Code == 0 {
			checkAdmittedText(t, raw)
		}
		if !bytes.Equal(st.Hash(), before) {
			t.Fatal("CheckTx changed committed state")
		}
	})
}
