package app

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dforge/dforge/internal/chain/state"
)

// checkView is the mempool's view of the state: the last committed
// version plus the transactions admitted since. CheckTx reads and
// extends it under its own lock, so it goes on while a block executes
// under App.mu; a relayer's action is admitted in time
// for the next block instead of waiting out the one being executed (a
// flood's block takes a while).
type checkView struct {
	mu sync.Mutex
	// overlay holds the admitted transactions' writes over base.
	overlay *state.Overlay
	// base is the last committed version; nil before the first commit,
	// when the view reads the working tree (InitChain's writes) and so
	// needs App.mu too (onSnapshot false).
	base *state.Snapshot
	// handlers is the App the transaction handlers see: the parameters as
	// of the last commit, not those a block being executed may change.
	handlers   *App
	onSnapshot atomic.Bool
}

// lockCheck holds the mempool's view still and returns its unlock.
// Commit takes mu before the view's lock, so this does too.
func (a *App) lockCheck() func() {
	if a.checks.onSnapshot.Load() {
		a.checks.mu.Lock()
		return a.checks.mu.Unlock
	}
	a.mu.Lock()
	a.checks.mu.Lock()
	return func() { a.checks.mu.Unlock(); a.mu.Unlock() }
}

// checkHeight is the height a transaction admitted now goes into at the
// earliest. Call it under lockCheck.
func (a *App) checkHeight() int64 {
	if a.checks.base != nil {
		return a.checks.base.Version() + 1
	}
	return a.state.Version() + 1
}

// checkHandlers is the App the handlers run on in the mempool's view.
// Call it under lockCheck.
func (a *App) checkHandlers() *App {
	if a.checks.handlers != nil {
		return a.checks.handlers
	}
	return a
}

// resetCheck starts the mempool's view over the version just committed;
// CometBFT then rechecks the transactions still waiting. Call it under mu.
func (a *App) resetCheck() error {
	snap, err := a.state.At(0)
	if err != nil {
		return fmt.Errorf("open the committed state for the mempool: %w", err)
	}
	a.checks.mu.Lock()
	defer a.checks.mu.Unlock()
	a.checks.base, a.checks.overlay = snap, state.NewOverlay(snap)
	a.checks.handlers = &App{params: a.params, forgeAll: a.forgeAll}
	a.checks.onSnapshot.Store(true)
	return nil
}
