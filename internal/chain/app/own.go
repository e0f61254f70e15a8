package app

import (
	"errors"
	"fmt"
	"sync"

	"github.com/dforge/dforge/internal/chain/tx"
)

// ownChecks are the transactions this node is submitting itself, which
// CheckTx judges strictly: a forge action that fails on the mempool's
// view is refused, not admitted to fail in its block (the leniency
// CheckTx keeps for actions gossiped from other nodes). So the relayer
// learns a refusal from the one check that admits everything else, and
// no action is verified and applied twice on its way in.
type ownChecks struct {
	mu sync.Mutex
	m  map[string]*ownCheck
}

// ownCheck is CheckTx's verdict on one of the node's own transactions.
type ownCheck struct{ refusal error }

// Own marks raw as this node's own transaction until the returned verdict
// is read: CheckTx judges it strictly, and the verdict is its refusal (a
// *tx.Error with the field at fault, which the ABCI response cannot
// carry), or nil when it was admitted or never checked.
func (a *App) Own(raw []byte) (verdict func() error) {
	key := string(raw)
	c := &ownCheck{}
	a.own.mu.Lock()
	if a.own.m == nil {
		a.own.m = map[string]*ownCheck{}
	}
	a.own.m[key] = c
	a.own.mu.Unlock()
	return func() error {
		a.own.mu.Lock()
		defer a.own.mu.Unlock()
		delete(a.own.m, key)
		return c.refusal
	}
}

// ownCheck returns the mark on raw, or nil for anyone else's transaction.
func (a *App) ownCheck(raw []byte) *ownCheck {
	a.own.mu.Lock()
	defer a.own.mu.Unlock()
	return a.own.m[string(raw)]
}

// refuse records err as the verdict on an own transaction.
func (a *App) refuse(c *ownCheck, err error) {
	var te *tx.Error
	if errors.As(err, &te) {
		err = te
	} else {
		err = fmt.Errorf("check the node's own transaction: %w", err)
	}
	a.own.mu.Lock()
	c.refusal = err
	a.own.mu.Unlock()
}
