package app

import (
	"fmt"

	"github.com/dforge/dforge/internal/chain/state"
)

// checkView is the mempool's view of the state: the transactions admitted
// since the last commit, over that commit. CheckTx, Precheck and the
// relayer's reads of pending nonces and delegations use it.
type checkView struct {
	// kv holds the admitted transactions' effects over the last committed
	// version (a read-only snapshot), or over the working tree before the
	// first commit (live).
	kv *state.Overlay
	// rules is the app as handlers see it: the parameters as of the last
	// commit, since a block being finalized may change the live ones.
	rules *App
	// next is the height an admitted transaction goes into at the earliest.
	next int64
	// live: nothing is committed yet, so kv overlays the working tree,
	// which only consensus's lock (mu) keeps still.
	live bool
}

// resetCheck starts a fresh view over committed version v, whose
// parameters are rules; v 0 (a chain before its first block) gives a live
// view over the working tree.
func (a *App) resetCheck(v int64, rules Params) error {
	view := checkView{next: v + 1}
	if v == 0 {
		view.kv, view.live = state.NewOverlay(a.state), true
	} else {
		snap, err := a.state.At(v)
		if err != nil {
			return fmt.Errorf("open the mempool's view at %d: %w", v, err)
		}
		view.kv = state.NewOverlay(snap)
		view.rules = &App{params: rules}
	}
	a.checkMu.Lock()
	a.check = view
	a.checkMu.Unlock()
	return nil
}

// lockCheck takes the mempool's view and returns it with the function that
// gives it back. A live view also takes consensus's lock, for it reads
// the working tree.
func (a *App) lockCheck() (checkView, func()) {
	a.checkMu.Lock()
	view := a.check
	if !view.live {
		// forgeAll is set by tests before the app runs; copying it here
		// keeps that switch in one field.
		view.rules.forgeAll = a.forgeAll
		return view, a.checkMu.Unlock
	}
	a.mu.Lock()
	view.rules, view.next = a, a.state.Version()+1
	return view, func() {
		a.mu.Unlock()
		a.checkMu.Unlock()
	}
}
