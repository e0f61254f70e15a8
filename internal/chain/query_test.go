package chain_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	cmtcrypto "github.com/cometbft/cometbft/api/cometbft/crypto/v1"
	"github.com/cometbft/cometbft/rpc/client"
	ics23 "github.com/cosmos/ics23/go"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// TestABCIQueryProvesAgainstTheHeader reads accounts, balances, repos and
// proposals through /abci_query, as a light client would, and checks each
// ICS-23 proof against the app hash in the header of the next block, while
// other queries run beside block execution.
func TestABCIQueryProvesAgainstTheHeader(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	key, _ := crypto.GenerateKey()
	alice := crypto.PubkeyToAddress(key.PublicKey)
	bob := common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	genesis := app.Genesis{Params: app.DefaultParams(), Allocations: []ledger.Allocation{{Address: alice, Amount: 1_000_000}}}
	c := open(t, t.TempDir(), genesis)
	defer c.Close()

	stop := queryWhileCommitting(t, ctx, c, bob)
	var h int64
	for nonce := range uint64(3) {
		h = transfer(t, ctx, c, key, genesis.Params.ChainID, bob, 100_000, nonce)
	}
	stop()
	root := appHashAfter(t, ctx, c, h)

	res := abciQuery(t, ctx, c, "/balances/"+bob.Hex(), h)
	var b app.Balance
	if err := json.Unmarshal(res.Value, &b); err != nil || b.Balance != 300_000 || b.Address != bob {
		t.Fatalf("balance at %d = %s (%v), want 300000", h, res.Value, err)
	}
	verifyOps(t, res.ProofOps.Ops, root, map[string][]byte{string(res.Key): state.Uint64(300_000)})

	res = abciQuery(t, ctx, c, "/accounts/"+alice.Hex(), h)
	var acct app.Account
	if err := json.Unmarshal(res.Value, &acct); err != nil || acct.Balance != 700_000 || acct.Nonce != 3 {
		t.Fatalf("account at %d = %s (%v)", h, res.Value, err)
	}
	if len(res.ProofOps.Ops) < 4 {
		t.Fatalf("account proof has %d ops, want one per key read", len(res.ProofOps.Ops))
	}
	verifyOps(t, res.ProofOps.Ops, root, nil)

	for _, path := range []string{"/repos/999", "/proposals/7"} {
		res = abciQuery(t, ctx, c, path, h)
		if len(res.Value) != 0 || len(res.ProofOps.Ops) != 1 || res.ProofOps.Ops[0].Type != app.ProofOpIAVL {
			t.Fatalf("%s = %q with %d proofs, want empty with a non-existence proof", path, res.Value, len(res.ProofOps.Ops))
		}
		verifyOps(t, res.ProofOps.Ops, root, map[string][]byte{string(res.Key): nil})
	}
	assertQueryRefusals(t, ctx, c, h)
	assertTxSearchByEvent(t, ctx, c, alice, 3)
}

// assertTxSearchByEvent finds the sender's transfers by their event's
// indexed attribute, as a block explorer would.
func assertTxSearchByEvent(t *testing.T, ctx context.Context, c *chain.Chain, from common.Address, want int) {
	t.Helper()
	q := "Transfer.from='" + from.Hex() + "'"
	for {
		res, err := c.Client().TxSearch(ctx, q, false, nil, nil, "")
		if err == nil && res.TotalCount == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("tx_search %s: %+v %v, want %d", q, res, err, want)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func transfer(t *testing.T, ctx context.Context, c *chain.Chain, key *ecdsa.PrivateKey, chainID uint64, to common.Address, amount, nonce uint64) int64 {
	t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	env, err := tx.Sign(key, tx.KindTransfer, map[string]any{
		"from": from.Hex(), "to": to.Hex(), "amount": strconv.FormatUint(amount, 10), "nonce": strconv.FormatUint(nonce, 10),
	}, chainID)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Submit(ctx, env)
	if err != nil || res.Code != 0 {
		t.Fatalf("transfer nonce %d: %+v %v", nonce, res, err)
	}
	return res.Height
}

// queryWhileCommitting queries the latest state in a loop until stopped:
// with -race this checks Query reads no state the block being executed
// writes.
func queryWhileCommitting(t *testing.T, ctx context.Context, c *chain.Chain, addr common.Address) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			res, err := c.Client().ABCIQueryWithOptions(ctx, "/accounts/"+addr.Hex(), nil, client.ABCIQueryOptions{Prove: true})
			// Before the first block there is no committed state to read.
			if err != nil || res.Response.Code != 0 && res.Response.Code != app.QueryCodeNoHeight {
				t.Errorf("query while committing: %+v %v", res, err)
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// appHashAfter is the app hash committing the state after block h: the
// one in the header of block h+1.
func appHashAfter(t *testing.T, ctx context.Context, c *chain.Chain, h int64) []byte {
	t.Helper()
	next := h + 1
	for {
		hd, err := c.Client().Header(ctx, &next)
		if err == nil {
			return hd.Header.AppHash
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no block %d: %v", next, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func abciQuery(t *testing.T, ctx context.Context, c *chain.Chain, path string, h int64) abci.QueryResponse {
	t.Helper()
	res, err := c.Client().ABCIQueryWithOptions(ctx, path, nil, client.ABCIQueryOptions{Height: h, Prove: true})
	if err != nil {
		t.Fatalf("query %s: %v", path, err)
	}
	r := res.Response
	if r.Code != 0 || r.Height != h || r.ProofOps == nil {
		t.Fatalf("query %s at %d: code %d %q at height %d, proofs %v", path, h, r.Code, r.Log, r.Height, r.ProofOps)
	}
	return r
}

// verifyOps checks every op against root: a membership proof of the
// value want gives for its key (the leaf's own value when want has none),
// or a non-existence proof when want maps the key to nil.
func verifyOps(t *testing.T, ops []cmtcrypto.ProofOp, root []byte, want map[string][]byte) {
	t.Helper()
	for _, op := range ops {
		var p ics23.CommitmentProof
		if op.Type != app.ProofOpIAVL || p.Unmarshal(op.Data) != nil {
			t.Fatalf("proof op %s for %q does not decode", op.Type, op.Key)
		}
		value, listed := want[string(op.Key)]
		if ex := p.GetExist(); ex != nil && !listed {
			value = ex.Value
		}
		if value == nil {
			if !ics23.VerifyNonMembership(ics23.IavlSpec, root, &p, op.Key) {
				t.Fatalf("non-existence of %q does not verify against %X", op.Key, root)
			}
			continue
		}
		if !ics23.VerifyMembership(ics23.IavlSpec, root, &p, op.Key, value) {
			t.Fatalf("%q = %x does not verify against %X", op.Key, value, root)
		}
	}
}

func assertQueryRefusals(t *testing.T, ctx context.Context, c *chain.Chain, h int64) {
	t.Helper()
	for _, tc := range []struct {
		path   string
		height int64
		code   uint32
		log    string
	}{
		{"/nope/1", 0, app.QueryCodeUnknownPath, "/accounts/{address}"},
		{"/balances/bob", 0, app.QueryCodeInvalidArg, "not a 0x address"},
		{"/repos/-1", 0, app.QueryCodeInvalidArg, "positive decimal id"},
		{"/repos/1", h + 1000, app.QueryCodeNoHeight, "no such committed version"},
	} {
		res, err := c.Client().ABCIQueryWithOptions(ctx, tc.path, nil, client.ABCIQueryOptions{Height: tc.height})
		if err != nil {
			t.Fatalf("query %s: %v", tc.path, err)
		}
		if r := res.Response; r.Code != tc.code || !strings.Contains(r.Log, tc.log) || r.Codespace != app.QueryCodespace {
			t.Fatalf("query %s = code %d %q (%s), want %d mentioning %q", tc.path, r.Code, r.Log, r.Codespace, tc.code, tc.log)
		}
	}
}
