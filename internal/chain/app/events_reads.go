package app

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/roles"
)

// EventOrganizer reports whether addr holds the event organizer role as of
// the last finalized block: the API answers who may manage events, and
// refuses others before relaying (the forge module checks it again).
func (a *App) EventOrganizer(addr common.Address) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return roles.Has(a.state, addr, roles.EventOrganizer)
}
