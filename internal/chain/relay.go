package chain

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/mempool"
	"github.com/cometbft/cometbft/rpc/core"
	"github.com/cometbft/cometbft/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Pending is a transaction admitted to the mempool and not yet known to be
// in a block. A relayer that signs many transactions from one key (the
// node's operator) admits them in nonce order with Broadcast, one at a
// time, and waits for their blocks concurrently.
type Pending struct {
	Hash string
	wait func(ctx context.Context) (Committed, error)
	// included scans the blocks since the broadcast for the transaction.
	included func(ctx context.Context) (bool, error)
}

// Committed is a transaction in a block: its result and the events it gave.
type Committed struct {
	Result
	Events []abci.Event
}

// Broadcast checks env into the mempool (CheckTx) and returns once it is
// admitted; Wait then waits for its block. A rejection comes back as a
// *tx.Error with its stable code, as from Submit. CheckTx judges env as
// this node's own (App.Own): a forge action that would fail in its block
// is refused at once, where one gossiped from another node is admitted so
// that gossip carries it to a block.
func (c *Chain) Broadcast(ctx context.Context, env tx.Envelope) (*Pending, error) {
	raw, err := tx.Encode(env)
	if err != nil {
		return nil, err
	}
	client := c.node.Client()
	// 1. Listen for the transaction's block before it can possibly commit.
	hash := hex.EncodeToString(types.Tx(raw).Hash())
	out, unsubscribe := c.txs.wait(hash)
	// 2. CheckTx. No block before from can hold the transaction.
	from := c.app.Height()
	verdict := c.app.Own(raw)
	res, err := client.BroadcastTxSync(ctx, raw)
	if refusal := verdict(); refusal != nil {
		// The app's own error, with the field at fault.
		unsubscribe()
		c.m.refused("precheck", refusal)
		return nil, refusal
	}
	if err == nil && res.Code != abci.CodeTypeOK {
		err = &tx.Error{Code: res.Code, Name: tx.CodeName(res.Code), Message: res.Log}
	}
	if err != nil {
		unsubscribe()
		err = broadcastError(err)
		c.m.refused("checktx", err)
		return nil, err
	}
	return &Pending{Hash: hash, included: func(ctx context.Context) (bool, error) {
		return c.inBlocks(ctx, res.Hash, from)
	}, wait: func(ctx context.Context) (Committed, error) {
		defer unsubscribe()
		select {
		case <-ctx.Done():
			return Committed{}, fmt.Errorf("wait for tx %s to commit: %w", hash, ctx.Err())
		case data, ok := <-out:
			if !ok {
				return Committed{}, fmt.Errorf("wait for tx %s: the node stopped", hash)
			}
			r := data.Result
			c.m.committed(r.Code)
			return Committed{
				Result: Result{Hash: hash, Height: data.Height, Code: r.Code, Log: r.Log},
				Events: r.Events,
			}, nil
		}
	}}, nil
}

// Wait blocks until the transaction is in a block, or ctx ends. It may be
// called once.
func (p *Pending) Wait(ctx context.Context) (Committed, error) { return p.wait(ctx) }

// Included reports whether a block committed since the broadcast holds
// the transaction. Its event may reach Wait later than the block is
// applied (a busy node delivers events behind its state), so a relayer
// that sees its nonce passed asks this before calling the action dropped.
func (p *Pending) Included(ctx context.Context) (bool, error) { return p.included(ctx) }

// inBlocks looks for the transaction with hash in the blocks after
// height from, up to the block store's last. The block store holds a block
// before the app executes it, so every block whose effects a read of the
// state may show (Account reads the working state, ahead of the commit)
// is there.
func (c *Chain) inBlocks(ctx context.Context, hash []byte, from int64) (bool, error) {
	client := c.node.Client()
	last := c.node.Comet().BlockStore().Height()
	for h := from + 1; h <= last; h++ {
		b, err := client.Block(ctx, &h)
		if err != nil {
			return false, fmt.Errorf("read block %d: %w", h, err)
		}
		if b.Block.Txs.IndexByHash(hash) >= 0 {
			return true, nil
		}
	}
	return false, nil
}

// ErrCatchingUp says the node is still syncing blocks from its peers and
// takes no transactions yet; try again shortly.
var ErrCatchingUp = errors.New("the node is catching up with the chain and takes no transactions yet")

// broadcastError turns CometBFT's mempool errors into rejections.
func broadcastError(err error) error {
	var te *tx.Error
	if errors.As(err, &te) {
		return te
	}
	if errors.Is(err, core.ErrEndpointClosedCatchingUp) || strings.Contains(err.Error(), core.ErrEndpointClosedCatchingUp.Error()) {
		return ErrCatchingUp
	}
	// The very same signed bytes again: a replay, refused before CheckTx.
	if strings.Contains(err.Error(), mempool.ErrTxInCache.Error()) {
		return tx.NewError(tx.CodeBadNonce, "this transaction was already submitted; sign a new one with the next nonce")
	}
	var invalid mempool.ErrInvalidTx
	if errors.As(err, &invalid) {
		return &tx.Error{Code: invalid.Code, Name: tx.CodeName(invalid.Code), Message: invalid.Log}
	}
	return fmt.Errorf("broadcast tx: %w", err)
}

// PendingNonce is the nonce addr's next transaction needs to enter the
// mempool (committed plus admitted transactions).
func (c *Chain) PendingNonce(addr common.Address) (uint64, error) {
	defer c.lockMempool()()
	return c.app.PendingNonce(addr)
}

// lockMempool holds the mempool still and returns its unlock. Between a
// block's commit and the recheck of the transactions still waiting, which
// CometBFT does under this lock, the app's mempool state lacks them: its
// nonces run behind.
func (c *Chain) lockMempool() func() {
	mp := c.node.Comet().Mempool()
	mp.Lock()
	return mp.Unlock
}

// ForgeRefs lists a public repository's refs on chain.
func (c *Chain) ForgeRefs(repo uint64) ([]forge.Ref, error) { return c.app.ForgeRefs(repo) }

// IsOperator reports whether addr may relay forge actions on this chain.
func (c *Chain) IsOperator(addr common.Address) (bool, error) { return c.app.IsOperator(addr) }

// HasRole reports whether addr holds a community role (roles.*) on chain.
func (c *Chain) HasRole(addr common.Address, role string) (bool, error) {
	return c.app.HasRole(addr, role)
}
