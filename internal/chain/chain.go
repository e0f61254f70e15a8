package chain

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/mempool"
	"github.com/cometbft/cometbft/rpc/client/local"
	"github.com/cometbft/cometbft/rpc/core"
	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Config says where the chain lives and how a new one starts.
type Config struct {
	// Dir holds the CometBFT home and the application state (<data>/chain).
	Dir string
	// RPCAddr and P2PAddr override the listen addresses ("" keeps config.toml's).
	RPCAddr, P2PAddr string
	// Genesis is the app state of a new chain; ignored once the chain exists.
	Genesis app.Genesis
	Logger  *slog.Logger
	// EmptyBlockInterval, when not zero, overrides config.toml's interval
	// between an idle chain's blocks.
	EmptyBlockInterval time.Duration
	// Metrics receives the relay's metrics (dforge_relay_*); nil: none.
	Metrics prometheus.Registerer
}

// Chain is the node's running chain: the ABCI app and CometBFT around it.
type Chain struct {
	app   *app.App
	node  *node.Node
	state *state.Store
	m     *metrics
	// seen is when this node last saw the chain's height move.
	seen progress
	// txs hands committed transactions to the relays waiting for them.
	txs txWaiters
}

// ErrNotCommitted says a transaction waits in the mempool and no block took
// it in time (the network is not committing): it may still apply later.
var ErrNotCommitted = errors.New("the network committed no block with this transaction in time; it waits in the mempool and may still apply: check before sending it again")

// Result is a committed transaction.
type Result struct {
	Hash   string `json:"hash"`
	Height int64  `json:"height"`
	Code   uint32 `json:"code"`
	Log    string `json:"log"`
	// ProposalID is the proposal a Propose created, so a client can open
	// it without searching.
	ProposalID uint64 `json:"proposalId,omitempty"`
}

// Init creates the chain in cfg.Dir from cfg.Genesis (keys, config and
// genesis) without starting it; an existing chain is left as it is.
func Init(cfg Config) error {
	return node.Init(nodeConfig(cfg))
}

func nodeConfig(cfg Config) node.Config {
	appState, _ := json.Marshal(cfg.Genesis) // plain structs and integers: cannot fail
	return node.Config{
		Home: filepath.Join(cfg.Dir, "comet"), ChainID: tx.ChainIDString(cfg.Genesis.Params.ChainID), AppState: appState,
		RPCAddr: cfg.RPCAddr, P2PAddr: cfg.P2PAddr, Logger: cfg.Logger, EmptyBlockInterval: cfg.EmptyBlockInterval,
	}
}

// Open starts the chain in cfg.Dir, creating it from cfg.Genesis when new.
func Open(ctx context.Context, cfg Config) (*Chain, error) {
	// 1. The application state, kept beside CometBFT's own data.
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create chain dir: %w", err)
	}
	st, err := state.Open(filepath.Join(cfg.Dir, "app"))
	if err != nil {
		return nil, err
	}
	a, err := app.New(st)
	if err != nil {
		st.Close()
		return nil, err
	}
	// 2. CometBFT, in process, with the app as its ABCI application.
	n, err := node.Start(ctx, nodeConfig(cfg), a)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("start chain node: %w", err)
	}
	c := &Chain{app: a, node: n, state: st, m: newMetrics(cfg.Metrics)}
	c.seen.age(n.Comet().BlockStore().Height(), time.Now())
	if err := c.watchTxs(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Client is CometBFT's in-process RPC client: blocks, block results,
// validators, genesis and event subscriptions.
func (c *Chain) Client() *local.Local { return c.node.Client() }

// Params are the chain parameters.
func (c *Chain) Params() app.Params { return c.app.Params() }

// Account reads an account's balance and nonce.
func (c *Chain) Account(addr common.Address) (app.Account, error) { return c.app.Account(addr) }

// Totals reads the chain-wide token figures.
func (c *Chain) Totals() (app.Totals, error) { return c.app.Totals() }

// Submit relays a signed transaction and waits until it is in a block. A
// rejection by CheckTx comes back as a *tx.Error with its stable code.
func (c *Chain) Submit(ctx context.Context, env tx.Envelope) (Result, error) {
	res, err := c.submit(ctx, env)
	switch {
	case err == nil:
		c.m.committed(res.Code)
	case errors.Is(err, ErrNotCommitted):
		c.m.txs.WithLabelValues("error", "").Inc()
	default:
		c.m.refused("checktx", err)
	}
	return res, err
}

func (c *Chain) submit(ctx context.Context, env tx.Envelope) (Result, error) {
	raw, err := tx.Encode(env)
	if err != nil {
		return Result{}, err
	}
	res, err := c.node.Client().BroadcastTxCommit(ctx, raw)
	// The very same signed bytes again: a replay, refused before CheckTx.
	// CometBFT formats this error with %v, so only its text can be matched.
	if err != nil && strings.Contains(err.Error(), mempool.ErrTxInCache.Error()) {
		return Result{}, tx.NewError(tx.CodeBadNonce, "this transaction was already submitted; sign a new one with the next nonce")
	}
	var invalid mempool.ErrInvalidTx
	if errors.As(err, &invalid) {
		return Result{}, &tx.Error{Code: invalid.Code, Name: tx.CodeName(invalid.Code), Message: invalid.Log}
	}
	if err != nil && strings.Contains(err.Error(), "timed out waiting for tx to be included in a block") {
		return Result{}, ErrNotCommitted
	}
	if err != nil && strings.Contains(err.Error(), core.ErrEndpointClosedCatchingUp.Error()) {
		return Result{}, ErrCatchingUp
	}
	if err != nil {
		return Result{}, fmt.Errorf("broadcast tx: %w", err)
	}
	if res.CheckTx.Code != 0 {
		return Result{}, &tx.Error{Code: res.CheckTx.Code, Name: tx.CodeName(res.CheckTx.Code), Message: res.CheckTx.Log}
	}
	return Result{Hash: hex.EncodeToString(res.Hash), Height: res.Height, Code: res.TxResult.Code, Log: res.TxResult.Log,
		ProposalID: createdProposal(res.TxResult.Events)}, nil
}

// createdProposal is the id in a transaction's Proposal event caused by a
// Propose; 0 when there is none.
func createdProposal(events []abci.Event) uint64 {
	for _, e := range events {
		if e.Type != app.EventProposal {
			continue
		}
		var id uint64
		created := false
		for _, a := range e.Attributes {
			switch a.Key {
			case "id":
				id, _ = strconv.ParseUint(a.Value, 10, 64)
			case "cause":
				created = a.Value == "propose"
			}
		}
		if created {
			return id
		}
	}
	return 0
}

// Close stops CometBFT and then closes the application state.
func (c *Chain) Close() error {
	return errors.Join(c.node.Stop(), c.state.Close())
}
