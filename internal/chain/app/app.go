// Package app is dForge's ABCI application: it decodes and verifies
// transactions, routes each to the module that owns it, and keeps the IAVL
// state whose root is the app hash. It is deterministic: no clock, no I/O
// beyond its state store, no floats and no map iteration into state.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	abci "github.com/cometbft/cometbft/abci/types"
	cmtproto "github.com/cometbft/cometbft/api/cometbft/types/v1"

	"github.com/dforge/dforge/internal/chain/delegation"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/reputation"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// App is the ABCI application.
type App struct {
	abci.BaseApplication

	mu     sync.Mutex
	state  *state.Store
	checks checkView // the mempool's view (check.go)
	own    ownChecks // the node's own transactions in CheckTx (own.go)
	params Params
	// verified remembers transactions whose signature already checked out, by
	// their bytes: CheckTx, every recheck and FinalizeBlock would otherwise
	// recover the same signature three times. Verification is a pure function
	// of the bytes and the chain id, so the cache cannot change any result.
	verified   map[string]tx.Tx
	verifiedMu sync.Mutex // guards verified and lets verify read params.ChainID
	// validatorUpdates are the validator set changes of the block being
	// finalized (executed proposals), returned with it.
	validatorUpdates []abci.ValidatorUpdate
	// halted receives, once, why the chain cannot go on on this binary
	// (an upgrade it does not know); the node stops with that message.
	halted   chan error
	haltOnce sync.Once
	// forgeAll accepts any signer's forge action: set only by tests
	// (export_test.go), to force a forged action into a block.
	forgeAll bool
}

// maxVerified bounds the cache; it is emptied when full.
const maxVerified = 20_000

var paramsKey = []byte("app/params")

// New returns the application over st, loading the parameters of an
// already-initialised chain.
func New(st *state.Store) (*App, error) {
	a := &App{state: st, verified: map[string]tx.Tx{}, halted: make(chan error, 1)}
	a.checks.overlay = state.NewOverlay(st)
	raw, err := st.Get(paramsKey)
	if err != nil {
		return nil, fmt.Errorf("load params: %w", err)
	}
	if raw != nil {
		if a.params, err = params.Decode(raw); err != nil {
			return nil, err
		}
	}
	if st.Committed() > 0 {
		if err := a.resetCheck(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Halted receives why the chain cannot go on on this binary: an upgrade
// scheduled at the block being finalized that it does not implement.
// CometBFT stops consensus at that block; the node should stop and say so.
func (a *App) Halted() <-chan error { return a.halted }

// ConcurrentCheckTx declares that CheckTx, Query and Info may be called
// concurrently with each other and with consensus: every one of them takes
// the locks it needs.
func (a *App) ConcurrentCheckTx() {}

// Params returns the chain parameters.
func (a *App) Params() Params {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.params
}

func (a *App) Info(context.Context, *abci.InfoRequest) (*abci.InfoResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	// A state that cannot be read says 1, as every chain did before
	// app-version; FinalizeBlock would fail on it first.
	version, _ := upgrade.Version(a.state)
	return &abci.InfoResponse{
		Data:             "dforge",
		AppVersion:       version,
		LastBlockHeight:  a.state.Version(),
		LastBlockAppHash: a.state.Hash(),
	}, nil
}

func (a *App) InitChain(_ context.Context, req *abci.InitChainRequest) (*abci.InitChainResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	g, err := parseGenesis(req.AppStateBytes)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(g.Params)
	if err != nil {
		return nil, fmt.Errorf("encode params: %w", err)
	}
	if err := a.state.Set(paramsKey, raw); err != nil {
		return nil, err
	}
	if err := ledger.InitGenesis(a.state, g.Allocations); err != nil {
		return nil, err
	}
	if err := initOperators(a.state, g.Operators); err != nil {
		return nil, err
	}
	if err := initNodes(a.state, g.Nodes); err != nil {
		return nil, err
	}
	if err := initValidators(a.state, req.Validators); err != nil {
		return nil, err
	}
	if err := roles.InitGenesis(a.state, g.Roles); err != nil {
		return nil, err
	}
	for _, name := range g.Upgrades {
		if err := upgrade.Apply(a.state, name, 0); err != nil {
			return nil, err
		}
	}
	for _, d := range g.Delegations {
		scopes, err := delegation.ParseScopes(strings.Join(d.Scopes, ","))
		if err != nil {
			return nil, fmt.Errorf("genesis delegation of %s: %w", d.Account.Hex(), err)
		}
		d.Scopes = scopes
		if _, err := delegation.Give(a.state, d, 0); err != nil {
			return nil, fmt.Errorf("genesis delegation of %s: %w", d.Account.Hex(), err)
		}
	}
	for _, r := range g.Reputation {
		if _, err := reputation.Add(a.state, g.Params.Reputation, r.Address, 0, r.Score); err != nil {
			return nil, fmt.Errorf("genesis reputation of %s: %w", r.Address.Hex(), err)
		}
	}
	a.verifiedMu.Lock() // verify reads the chain id under this lock only
	a.params = g.Params
	a.verifiedMu.Unlock()
	res := &abci.InitChainResponse{AppHash: a.state.WorkingHash()}
	// A genesis with app-version starts the headers at its version;
	// without it CometBFT keeps the 1 Info said.
	if v, err := upgrade.Version(a.state); err != nil {
		return nil, err
	} else if v > 1 {
		res.ConsensusParams = appVersionParams(v)
	}
	return res, nil
}

// appVersionParams is the consensus-parameter change that makes CometBFT
// put app version v into the headers of the blocks that follow.
func appVersionParams(v uint64) *cmtproto.ConsensusParams {
	return &cmtproto.ConsensusParams{Version: &cmtproto.VersionParams{App: v}}
}

// CheckTx admits a transaction to the mempool if it would apply on top of
// committed state plus the transactions already admitted, or if it is a
// forge action the module refuses there (see below).
// It runs on the mempool's view (check.go), beside a block being executed.
// The signature is checked before taking the view's lock: CometBFT calls
// CheckTx from every RPC request's goroutine (the node uses a client that
// serializes only consensus calls), so recoveries run on all cores.
func (a *App) CheckTx(_ context.Context, req *abci.CheckTxRequest) (*abci.CheckTxResponse, error) {
	t, err := a.verify(req.Tx)
	var own *ownCheck
	if req.Type != abci.CHECK_TX_TYPE_RECHECK {
		own = a.ownCheck(req.Tx)
	}
	defer a.lockCheck()()
	check := a.checks.overlay
	if err == nil {
		// The transaction would go into the next block at the earliest. A
		// rejected one must leave no trace (not even its nonce) for the
		// transactions admitted after it.
		tentative := state.NewOverlay(check)
		_, err = a.checkHandlers().applyOn(tentative, t, a.checkHeight())
		lenient := own == nil && ((req.Type == abci.CHECK_TX_TYPE_RECHECK && isActionFailure(err)) || isStateFailure(err))
		if lenient {
			// A relayed forge action that fails on this node's view (a
			// newer block or an action already admitted took the name or
			// moved the ref first) stays in line and fails in its block,
			// using its nonce: that block is how its relayer learns the
			// outcome. Refused here, an action gossiped from another node
			// would live in its relayer's mempool only (a full node's
			// never reaches a block), and the operator's later
			// transactions would be stranded behind its nonce. The node's
			// own transactions (Own) are judged strictly: their relayer
			// learns the refusal at once and keeps the nonce.
			tentative = state.NewOverlay(check)
			err = ledger.UseNonce(tentative, t.From, t.Nonce)
		}
		if err == nil {
			err = tentative.Flush(check)
		}
	}
	if err != nil {
		if own != nil {
			a.refuse(own, err)
		}
		code, log := rejection(err)
		return &abci.CheckTxResponse{Code: code, Log: log, Codespace: "dforge"}, nil
	}
	return &abci.CheckTxResponse{Code: abci.CodeTypeOK}, nil
}

func (a *App) FinalizeBlock(_ context.Context, req *abci.FinalizeBlockRequest) (*abci.FinalizeBlockResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if req.Height <= 0 {
		return nil, fmt.Errorf("finalize block: height %d is not positive", req.Height)
	}
	// 1. The block-start rules (blockstart.go), which may change the
	// validator set.
	a.validatorUpdates = nil
	before, err := upgrade.Version(a.state)
	if err != nil {
		return nil, err
	}
	events, err := a.startBlock(uint64(req.Height))
	if errors.Is(err, upgrade.ErrUnknown) {
		a.haltOnce.Do(func() { a.halted <- err })
	}
	if err != nil {
		return nil, err
	}
	// 2. The block's transactions, in order.
	results := make([]*abci.ExecTxResult, len(req.Txs))
	for i, raw := range req.Txs {
		results[i] = a.deliver(raw, req.Height)
	}
	res := &abci.FinalizeBlockResponse{Events: events, TxResults: results, ValidatorUpdates: a.validatorUpdates, AppHash: a.state.WorkingHash()}
	// An upgrade at this block moved the app version: the next blocks'
	// headers carry it.
	if after, err := upgrade.Version(a.state); err != nil {
		return nil, err
	} else if after != before {
		res.ConsensusParamUpdates = appVersionParams(after)
	}
	return res, nil
}

// deliver applies one transaction of a block; a failed one changes nothing.
func (a *App) deliver(raw []byte, height int64) *abci.ExecTxResult {
	t, err := a.verify(raw)
	var events []abci.Event
	if err == nil {
		tentative := state.NewOverlay(a.state)
		events, err = a.applyOn(tentative, t, height)
		if err == nil {
			err = tentative.Flush(a.state)
		}
	}
	if err != nil {
		code, log := rejection(err)
		res := &abci.ExecTxResult{Code: code, Log: log, Codespace: "dforge"}
		if isActionFailure(err) {
			// A refused forge action still uses the operator's nonce (as a
			// reverted Ethereum transaction does), so the operator's
			// pipelined transactions after it stay valid.
			if err := a.useNonce(t); err != nil {
				return &abci.ExecTxResult{Code: 1, Log: "internal error: " + err.Error(), Codespace: "dforge"}
			}
			res.Events = []abci.Event{nonceUsedEvent(t)}
		}
		return res
	}
	return &abci.ExecTxResult{Code: abci.CodeTypeOK, Events: events}
}

func (a *App) useNonce(t tx.Tx) error {
	o := state.NewOverlay(a.state)
	if err := ledger.UseNonce(o, t.From, t.Nonce); err != nil {
		return err
	}
	return o.Flush(a.state)
}

func (a *App) Commit(context.Context, *abci.CommitRequest) (*abci.CommitResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, _, err := a.state.Commit(); err != nil {
		return nil, err
	}
	if err := a.resetCheck(); err != nil {
		return nil, err
	}
	return &abci.CommitResponse{}, nil
}

// verify decodes raw and checks its signature, once per distinct bytes. It
// takes only the cache's lock, never the state's.
func (a *App) verify(raw []byte) (tx.Tx, error) {
	a.verifiedMu.Lock()
	t, ok := a.verified[string(raw)]
	chainID := a.params.ChainID
	a.verifiedMu.Unlock()
	if ok {
		return t, nil
	}
	env, err := tx.Decode(raw)
	if err != nil {
		return tx.Tx{}, err
	}
	if t, err = tx.Verify(env, chainID); err != nil {
		return tx.Tx{}, err
	}
	a.verifiedMu.Lock()
	defer a.verifiedMu.Unlock()
	if len(a.verified) >= maxVerified {
		clear(a.verified)
	}
	a.verified[string(raw)] = t
	return t, nil
}

// rejection maps an error to its stable code and a readable log line.
func rejection(err error) (uint32, string) {
	var te *tx.Error
	if errors.As(err, &te) {
		return te.Code, te.Message
	}
	return 1, "internal error: " + err.Error()
}
