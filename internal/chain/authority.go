package chain

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/delegation"
)

// OwnKeys reports whether the chain applies the own-keys rules: forge
// actions need their actor's signature or delegation.
func (c *Chain) OwnKeys() (bool, error) { return c.app.OwnKeys() }

// Delegation is account's delegation to delegate as the mempool sees it
// (committed plus admitted), so a delegation just submitted counts.
func (c *Chain) Delegation(account, delegate common.Address) (delegation.Delegation, bool, error) {
	defer c.lockMempool()()
	return c.app.Delegation(account, delegate)
}

// Delegations lists account's delegations as of the last block.
func (c *Chain) Delegations(account common.Address) ([]delegation.Delegation, error) {
	return c.app.Delegations(account)
}

// Halted receives why this binary cannot go on with the chain (an
// upgrade it does not know, at the block it stopped at).
func (c *Chain) Halted() <-chan error { return c.app.Halted() }

// Height is the last committed block's height.
func (c *Chain) Height() uint64 { return uint64(c.app.Height()) }

// PrecheckAction says whether action, signed by actor itself, would apply
// now (App.PrecheckAction).
func (c *Chain) PrecheckAction(actor common.Address, action, payload string) error {
	defer c.lockMempool()()
	return c.app.PrecheckAction(actor, action, payload)
}
