package app

import (
	"fmt"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/reputation"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// The block-start rules: what the state machine does at the start of every
// block, before the block's transactions, in this order. Each step works on
// an overlay it flushes before the next, and an error in any of them is a
// broken store, not a bad transaction, so it halts the block.

// sweepPerBlock is how many stakers' voting power each block refreshes: at
// one block in six seconds, 64 reach a million stakers within an epoch.
const sweepPerBlock = 64

// startBlock runs the block-start rules at height and returns their
// events, in order.
func (a *App) startBlock(height uint64) ([]abci.Event, error) {
	// 0. Upgrades due now apply first, so the whole block runs under the
	// new rules; one this binary does not know halts the node here.
	events, err := a.applyUpgrades(height)
	if err != nil {
		return nil, err
	}
	// 1. Unbondings that mature at this height return to their balances
	// before any transaction of the block, which may then spend them.
	matured, err := a.matureUnbondings(height)
	if err != nil {
		return nil, err
	}
	events = append(events, matured...)
	// 2. A new reward epoch may begin, and a few stakers' voting power is
	// refreshed.
	epoch, err := a.advanceEpoch(height)
	if err != nil {
		return nil, err
	}
	events = append(events, epoch...)
	// 3. Votes that end now are tallied and passed proposals due now are
	// executed.
	ended, err := a.beginGovernance(height)
	if err != nil {
		return nil, err
	}
	events = append(events, ended...)
	// 4. Grants that expire now return what they did not release to the
	// treasury (after the executions, so a grant opened in this block
	// with this expiry could not exist: its execution refuses it).
	expired, err := a.expireGrants(height)
	return append(events, expired...), err
}

// matureUnbondings pays the unbonding entries maturing at height and gives
// one UnbondingMatured event for each.
func (a *App) matureUnbondings(height uint64) ([]abci.Event, error) {
	o := state.NewOverlay(a.state)
	paid, err := ledger.MatureUnbondings(o, height)
	if err != nil {
		return nil, fmt.Errorf("mature unbondings at height %d: %w", height, err)
	}
	if err := o.Flush(a.state); err != nil {
		return nil, fmt.Errorf("mature unbondings at height %d: %w", height, err)
	}
	events := make([]abci.Event, len(paid))
	for i, m := range paid {
		events[i] = ledger.UnbondingMaturedEvent(m, height)
	}
	return events, nil
}

// advanceEpoch starts a new reward epoch when one is due, with an Epoch
// event, then sweeps voting power.
func (a *App) advanceEpoch(height uint64) ([]abci.Event, error) {
	o := state.NewOverlay(a.state)
	started, err := reputation.AdvanceEpoch(o, height, a.params.Rewards.EpochBlocks)
	if err != nil {
		return nil, fmt.Errorf("advance the epoch at height %d: %w", height, err)
	}
	if err := gov.Sweep(o, a.params.Reputation, height, sweepPerBlock); err != nil {
		return nil, fmt.Errorf("refresh voting power at height %d: %w", height, err)
	}
	if err := o.Flush(a.state); err != nil {
		return nil, err
	}
	if !started {
		return nil, nil
	}
	epoch, err := reputation.Epoch(a.state)
	if err != nil {
		return nil, err
	}
	return []abci.Event{reputation.EpochEvent(epoch)}, nil
}

// beginGovernance ends the votes and runs the executions due at height
// (gov.BeginBlock); the deposits and spends it moves come first in its
// events, then each changed proposal.
func (a *App) beginGovernance(height uint64) ([]abci.Event, error) {
	o := state.NewOverlay(a.state)
	fx := &govEffects{a: a, height: height}
	changed, err := gov.BeginBlock(o, height, a.params.Gov.TimelockBlocks, fx)
	if err != nil {
		return nil, fmt.Errorf("governance at height %d: %w", height, err)
	}
	if err := o.Flush(a.state); err != nil {
		return nil, err
	}
	events := fx.events
	for _, pr := range changed {
		cause := "end"
		if pr.Status == gov.StatusExecuted || pr.Status == gov.StatusFailed {
			cause = "execute"
		}
		events = append(events, gov.ProposalEvent(pr, cause))
	}
	return events, nil
}

// EventUpgrade marks the block an upgrade applied from.
const EventUpgrade = "Upgrade"

// applyUpgrades applies the upgrades scheduled at height.
func (a *App) applyUpgrades(height uint64) ([]abci.Event, error) {
	o := state.NewOverlay(a.state)
	done, err := upgrade.BeginBlock(o, height)
	if err != nil {
		return nil, fmt.Errorf("upgrade at height %d: %w", height, err)
	}
	if err := o.Flush(a.state); err != nil {
		return nil, err
	}
	events := make([]abci.Event, len(done))
	for i, p := range done {
		events[i] = abci.Event{Type: EventUpgrade, Attributes: []abci.EventAttribute{
			{Key: "name", Value: p.Name, Index: true}, {Key: "height", Value: strconv.FormatUint(p.Height, 10)},
		}}
	}
	return events, nil
}
