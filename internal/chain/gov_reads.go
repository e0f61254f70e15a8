package chain

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
)

// Standing reads an account's stake, reputation, multiplier and voting
// power now.
func (c *Chain) Standing(addr common.Address) (app.Standing, error) {
	s, err := c.app.Standings(addr)
	if err != nil {
		return app.Standing{}, err
	}
	return s[0], nil
}

// Standings reads several accounts' standing at once (a leaderboard).
func (c *Chain) Standings(addrs ...common.Address) ([]app.Standing, error) {
	return c.app.Standings(addrs...)
}

// StandingOn reads an account's standing as a proposal's snapshot counts
// it; an unknown proposal is gov.ErrNotFound.
func (c *Chain) StandingOn(addr common.Address, proposal uint64) (app.Standing, error) {
	return c.app.StandingOn(addr, proposal)
}
