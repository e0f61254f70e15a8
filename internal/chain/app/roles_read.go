package app

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/roles"
)

// HasRole reports whether addr holds role as of the last finalized block:
// what pages ask to show a role's controls (the state machine checks it
// again on every action).
func (a *App) HasRole(addr common.Address, role string) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return roles.Has(a.state, addr, role)
}
