package chain_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
)

// TestIncludedFindsTheBlockThatHoldsATransaction broadcasts two
// transfers on a real CometBFT node: once each is committed, Included
// finds it in the blocks since its broadcast, which is what a relayer
// asks when the signer's nonce has passed before the event arrived.
func TestIncludedFindsTheBlockThatHoldsATransaction(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	key, _ := crypto.GenerateKey()
	alice := crypto.PubkeyToAddress(key.PublicKey)
	genesis := app.Genesis{Params: app.DefaultParams(), Allocations: []ledger.Allocation{{Address: alice, Amount: 1_000_000}}}
	c := open(t, t.TempDir(), genesis)
	defer c.Close()
	for nonce := range uint64(2) {
		env, err := tx.Sign(key, tx.KindTransfer, map[string]any{
			"from": alice.Hex(), "to": common.HexToAddress("0xb0b").Hex(), "amount": "10", "nonce": strconv.FormatUint(nonce, 10),
		}, genesis.Params.ChainID)
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.Broadcast(ctx, env)
		if err != nil {
			t.Fatalf("broadcast %d: %v", nonce, err)
		}
		res, err := p.Wait(ctx)
		if err != nil || res.Code != 0 {
			t.Fatalf("transfer %d: %+v %v", nonce, res, err)
		}
		for i := 0; c.Height() < uint64(res.Height); i++ {
			if i == 1000 {
				t.Fatalf("the app never reached block %d", res.Height)
			}
			time.Sleep(10 * time.Millisecond) // the event may come before the app's commit
		}
		if in, err := p.Included(ctx); err != nil || !in {
			t.Fatalf("transfer %d committed at %d: Included = %v, %v", nonce, res.Height, in, err)
		}
	}
}
