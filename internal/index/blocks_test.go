package index_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"
	"github.com/cometbft/cometbft/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
)

// scriptedChain is a chain whose blocks and results a test writes: what
// an honest single validator never produces (failed transactions in a
// block, undecodable bytes, two accounts trading names in one block) can
// only be reached this way.
type scriptedChain struct {
	genesis *types.GenesisDoc
	blocks  []*ctypes.ResultBlock
	results []*ctypes.ResultBlockResults
}

func newScriptedChain(t *testing.T, g app.Genesis) *scriptedChain {
	state, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return &scriptedChain{genesis: &types.GenesisDoc{
		ChainID: tx.ChainIDString(g.Params.ChainID), GenesisTime: time.Unix(1_700_000_000, 0).UTC(), InitialHeight: 1, AppState: state,
	}}
}

// item is one transaction of a scripted block and how it ended.
type item struct {
	raw    []byte
	code   uint32
	log    string
	events []abci.Event
}

func (c *scriptedChain) add(blockEvents []abci.Event, items ...item) {
	h := int64(len(c.blocks) + 1)
	blk := &types.Block{Header: types.Header{
		Height: h, Time: time.Unix(1_700_000_000+h, 500).UTC(), ProposerAddress: make([]byte, 20),
	}}
	res := &ctypes.ResultBlockResults{Height: h, FinalizeBlockEvents: blockEvents, AppHash: []byte(fmt.Sprintf("app-%d", h))}
	for _, it := range items {
		blk.Txs = append(blk.Txs, it.raw)
		res.TxResults = append(res.TxResults, &abci.ExecTxResult{Code: it.code, Log: it.log, Events: it.events})
	}
	hash := sha256.Sum256([]byte(fmt.Sprint("block", h)))
	c.blocks = append(c.blocks, &ctypes.ResultBlock{BlockID: types.BlockID{Hash: hash[:]}, Block: blk})
	c.results = append(c.results, res)
}

func (c *scriptedChain) Status(context.Context) (*ctypes.ResultStatus, error) {
	return &ctypes.ResultStatus{SyncInfo: ctypes.SyncInfo{LatestBlockHeight: int64(len(c.blocks))}}, nil
}

func (c *scriptedChain) Genesis(context.Context) (*ctypes.ResultGenesis, error) {
	return &ctypes.ResultGenesis{Genesis: c.genesis}, nil
}

func (c *scriptedChain) Block(_ context.Context, h *int64) (*ctypes.ResultBlock, error) {
	return c.blocks[*h-1], nil
}

func (c *scriptedChain) BlockResults(_ context.Context, h *int64) (*ctypes.ResultBlockResults, error) {
	return c.results[*h-1], nil
}

func (c *scriptedChain) Validators(context.Context, *int64, *int, *int) (*ctypes.ResultValidators, error) {
	return &ctypes.ResultValidators{}, nil
}

func event(kind string, attrs ...string) abci.Event {
	ev := abci.Event{Type: kind}
	for i := 0; i < len(attrs); i += 2 {
		ev.Attributes = append(ev.Attributes, abci.EventAttribute{Key: attrs[i], Value: attrs[i+1]})
	}
	return ev
}

func encoded(t *testing.T, env tx.Envelope) []byte {
	raw, err := tx.Encode(env)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestFailedTransactionsAndNameTrades projects scripted blocks: failed and
// undecodable transactions are recorded but change nothing, matured
// unbondings pay out, and names traded within one block end with their
// new owners.
func TestFailedTransactionsAndNameTrades(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet(), newWallet()
		// Names claimed in a block are let go before any is taken, so
		// bob can take the name alice leaves in the same block whatever
		// order the accounts are written in.
		if bytes.Compare(bob.addr[:], alice.addr[:]) > 0 {
			alice, bob = bob, alice
		}
		a, b := alice.addr.Hex(), bob.addr.Hex()
		c := newScriptedChain(t, app.Genesis{Params: testParams, Allocations: []ledger.Allocation{
			{Address: alice.addr, Amount: 1_000}, {Address: bob.addr, Amount: 1_000},
		}})
		ok := func(env tx.Envelope, events ...abci.Event) item { return item{raw: encoded(t, env), events: events} }

		// Block 1: a transfer, the same sender overdrawing (failed), junk
		// bytes, a claim and a stake.
		transfer := alice.sign(t, tx.KindTransfer, map[string]any{"to": b, "amount": "100"})
		alice.nonce++
		overdraft := encoded(t, alice.sign(t, tx.KindTransfer, map[string]any{"to": b, "amount": "5000"}))
		claimX := alice.sign(t, tx.KindClaimUsername, map[string]any{"username": "x"})
		alice.nonce++
		stake := bob.sign(t, tx.KindStake, map[string]any{"amount": "300"})
		bob.nonce++
		c.add(nil,
			ok(transfer, event("Transfer", "from", a, "to", b, "amount", "100")),
			item{raw: overdraft, code: uint32(tx.CodeInsufficientFunds), log: "the sender's balance is too low for this amount"},
			item{raw: []byte("junk"), code: uint32(tx.CodeInvalidEncoding), log: "not a transaction"},
			ok(claimX, event("ClaimUsername", "from", a, "username", "x", "previous", "")),
			ok(stake, event("Stake", "from", b, "amount", "300")),
		)
		// Block 2: alice moves to "y" and bob takes "X" in the same block;
		// bob unstakes.
		claimY := alice.sign(t, tx.KindClaimUsername, map[string]any{"username": "y"})
		alice.nonce++
		claimBig := bob.sign(t, tx.KindClaimUsername, map[string]any{"username": "X"})
		bob.nonce++
		unstake := bob.sign(t, tx.KindUnstake, map[string]any{"amount": "100"})
		bob.nonce++
		c.add(nil,
			ok(claimY, event("ClaimUsername", "from", a, "username", "y", "previous", "x")),
			ok(claimBig, event("ClaimUsername", "from", b, "username", "X", "previous", "")),
			ok(unstake, event("Unstake", "from", b, "amount", "100", "maturesAt", "3")),
		)
		// Block 3: the unbonding matures; alice goes back to her default
		// name, spelled in capitals (the legacy one: this chain has not
		// crossed own-keys).
		back := alice.sign(t, tx.KindClaimUsername, map[string]any{"username": strings.ToUpper(names.LegacyDefault(alice.addr))})
		alice.nonce++
		c.add([]abci.Event{event(app.EventUnbondingMatured, "address", b, "amount", "100", "height", "3")},
			ok(back, event("ClaimUsername", "from", a, "username", names.LegacyDefault(alice.addr), "previous", "y")),
		)

		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, c)
		if err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if ix.Height() != 3 {
			t.Fatalf("height = %d, want 3", ix.Height())
		}

		// The failed and the undecodable transactions are on record.
		failedHash := hex.EncodeToString(types.Tx(overdraft).Hash())
		failed, err := ix.Tx(ctx, failedHash)
		want := index.Tx{Hash: failedHash, Height: 1, Index: 1, Type: "Transfer", From: a, To: b, Amount: 5000, Nonce: 1,
			Code: uint32(tx.CodeInsufficientFunds), Log: "the sender's balance is too low for this amount", Time: "2023-11-14T22:13:21.0000005Z"}
		if err != nil || failed != want {
			t.Fatalf("failed tx = %+v %v\nwant %+v", failed, err, want)
		}
		blk, err := ix.Block(ctx, 1)
		if err != nil || len(blk.Transactions) != 5 || blk.Transactions[2].Type != "" || blk.Transactions[2].Code != uint32(tx.CodeInvalidEncoding) {
			t.Fatalf("block 1 = %+v %v", blk, err)
		}
		if blk.Hash == "" || blk.AppHash != hex.EncodeToString([]byte("app-1")) || blk.Time != "2023-11-14T22:13:21.0000005Z" {
			t.Fatalf("block 1 header = %+v", blk.Block)
		}

		// Only what applied moved: alice 1000-100, bob 1000+100-300+100.
		wantAccounts := map[common.Address]index.Account{
			alice.addr: {Address: a, Username: names.LegacyDefault(alice.addr), Balance: 900, Nonce: 4},
			bob.addr:   {Address: b, Username: "X", Balance: 900, Staked: 200, Nonce: 3},
		}
		for addr, want := range wantAccounts {
			if got, err := ix.Account(ctx, addr); err != nil || got != want {
				t.Errorf("account = %+v %v, want %+v", got, err, want)
			}
		}
		for name, want := range map[string]common.Address{"x": bob.addr, names.LegacyDefault(alice.addr): alice.addr} {
			if got, ok, err := ix.AddressOf(ctx, name); err != nil || !ok || got != want {
				t.Errorf("AddressOf(%q) = %s %v %v, want %s", name, got.Hex(), ok, err, want.Hex())
			}
		}
		for _, name := range []string{"y", names.LegacyDefault(bob.addr), names.Default(alice.addr)} {
			if got, ok, _ := ix.AddressOf(ctx, name); ok {
				t.Errorf("AddressOf(%q) = %s, want nobody", name, got.Hex())
			}
		}
		avail := map[string]index.Availability{
			"x":     {Name: "x", Owner: b, Reason: "this username is taken"},
			"y":     {Name: "y", Available: true},
			"admin": {Name: "admin", Reason: `"admin" is used by the forge itself`},
			"-bad":  {Name: "-bad", Reason: "a username starts with a letter or digit and has no two of '-', '_', '.' in a row"},
		}
		for name, want := range avail {
			if got, err := ix.UsernameAvailability(ctx, name); err != nil || got != want {
				t.Errorf("availability of %q = %+v %v, want %+v", name, got, err, want)
			}
		}
	})
}

// TestAnotherChainIsRebuilt points an index at a database that holds the
// projection of a different chain: it starts over instead of mixing them.
func TestAnotherChainIsRebuilt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	alice, bob := newWallet(), newWallet()
	st := openStore(t, databases(t)["sqlite"])
	defer st.Close()
	for _, owner := range []*wallet{alice, bob} {
		c := newScriptedChain(t, app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: owner.addr, Amount: 7}}})
		if err := index.New(quiet, st, c).Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	s, err := index.New(quiet, st, newScriptedChain(t, app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: bob.addr, Amount: 7}}})).Status(ctx)
	if err != nil || s.Accounts != 1 || s.Supply != 7 {
		t.Fatalf("status = %+v %v, want only bob's chain", s, err)
	}
	if acct, _ := index.New(quiet, st, nil).Account(ctx, alice.addr); acct.Balance != 0 {
		t.Fatalf("alice kept her balance from the other chain: %+v", acct)
	}
}

// TestWaitFor returns once the height is projected, and fails instead of
// hanging once the index has stopped or the caller gives up.
func TestWaitFor(t *testing.T) {
	t.Parallel()
	alice := newWallet()
	c := newScriptedChain(t, app.Genesis{Params: testParams, Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 7}}})
	c.add(nil)
	c.add(nil)
	st := openStore(t, databases(t)["sqlite"])
	defer st.Close()
	ix := index.New(quiet, st, c)
	stop := follow(t, ix)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ix.WaitFor(ctx, 2); err != nil || ix.Height() != 2 {
		t.Fatalf("WaitFor(2) = %v at height %d", err, ix.Height())
	}
	short, cancelShort := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancelShort()
	if err := ix.WaitFor(short, 3); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitFor(3) on a chain at 2 = %v, want the deadline", err)
	}
	stop()
	if err := ix.WaitFor(ctx, 3); !errors.Is(err, index.ErrStopped) {
		t.Fatalf("WaitFor after Run returned = %v, want ErrStopped", err)
	}
}
