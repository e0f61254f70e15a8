package app

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/reputation"
)

// Standing is an account's stake, reputation and the voting power they
// make: stake times the reputation multiplier, in micro-units.
type Standing struct {
	Address       common.Address `json:"address"`
	Stake         uint64         `json:"stake"`
	Reputation    uint64         `json:"reputation"`
	MultiplierBps uint64         `json:"multiplierBps"`
	Power         uint64         `json:"power"`
}

// Standings reads each account's standing as of the last finalized block.
func (a *App) Standings(addrs ...common.Address) ([]Standing, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Standing, len(addrs))
	for i, addr := range addrs {
		staked, err := ledger.Staked(a.state, addr)
		if err != nil {
			return nil, fmt.Errorf("read the stake of %s: %w", addr.Hex(), err)
		}
		score, err := reputation.Score(a.state, a.params.Reputation, addr)
		if err != nil {
			return nil, fmt.Errorf("read the reputation of %s: %w", addr.Hex(), err)
		}
		m := reputation.Multiplier(a.params.Reputation, score)
		out[i] = Standing{Address: addr, Stake: staked, Reputation: score, MultiplierBps: m, Power: reputation.Apply(staked, m)}
	}
	return out, nil
}

// StandingOn reads addr's standing as proposal id counts it: its stake and
// reputation at the start of the block the proposal was made in. A missing
// proposal is gov.ErrNotFound.
func (a *App) StandingOn(addr common.Address, id uint64) (Standing, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	pr, err := gov.GetProposal(a.state, id)
	if err != nil {
		return Standing{}, err
	}
	stake, m, power, err := gov.PowerBefore(a.state, a.params.Reputation, addr, pr.CreatedHeight)
	if err != nil {
		return Standing{}, fmt.Errorf("read the voting power of %s on #%d: %w", addr.Hex(), id, err)
	}
	score, err := reputation.ScoreBefore(a.state, a.params.Reputation, addr, pr.CreatedHeight)
	if err != nil {
		return Standing{}, fmt.Errorf("read the reputation of %s on #%d: %w", addr.Hex(), id, err)
	}
	return Standing{Address: addr, Stake: stake, Reputation: score, MultiplierBps: m, Power: power}, nil
}
