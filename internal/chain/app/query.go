package app

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/state"
)

// Account is an account's committed ledger state, in micro-units.
type Account struct {
	Address common.Address `json:"address"`
	// Username is the claimed name, else the default one.
	Username string `json:"username"`
	Balance  uint64 `json:"balance"`
	// Staked is the amount the account has staked.
	Staked uint64 `json:"staked"`
	// Unbonding is the sum of the account's unstaked amounts still waiting
	// for their unbonding period to end.
	Unbonding uint64 `json:"unbonding"`
	Nonce     uint64 `json:"nonce"`
}

// Account reads the account as of the last finalized block.
func (a *App) Account(addr common.Address) (Account, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return readAccount(a.state, addr)
}

func readAccount(kv state.KV, addr common.Address) (Account, error) {
	name, err := names.Of(kv, addr)
	if err != nil {
		return Account{}, err
	}
	acct := Account{Address: addr, Username: name}
	for _, r := range []struct {
		what string
		dst  *uint64
		read func(state.KV, common.Address) (uint64, error)
	}{
		{"balance", &acct.Balance, ledger.Balance},
		{"staked amount", &acct.Staked, ledger.Staked},
		{"unbonding amount", &acct.Unbonding, ledger.Unbonding},
		{"nonce", &acct.Nonce, ledger.Nonce},
	} {
		v, err := r.read(kv, addr)
		if err != nil {
			return Account{}, fmt.Errorf("read %s: %w", r.what, err)
		}
		*r.dst = v
	}
	return acct, nil
}

// Totals are chain-wide token figures, in micro-units. Supply always equals
// the sum of all balances plus Staked plus Unbonding.
type Totals struct {
	Supply    uint64 `json:"supply"`
	Staked    uint64 `json:"staked"`
	Unbonding uint64 `json:"unbonding"`
	Treasury  uint64 `json:"treasury"` // the treasury account's balance
}

// Totals reads the chain-wide figures as of the last finalized block.
func (a *App) Totals() (Totals, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var t Totals
	var err error
	if t.Supply, err = ledger.Supply(a.state); err != nil {
		return Totals{}, fmt.Errorf("read supply: %w", err)
	}
	if t.Staked, err = ledger.TotalStaked(a.state); err != nil {
		return Totals{}, fmt.Errorf("read total staked: %w", err)
	}
	if t.Unbonding, err = ledger.TotalUnbonding(a.state); err != nil {
		return Totals{}, fmt.Errorf("read total unbonding: %w", err)
	}
	if t.Treasury, err = ledger.Balance(a.state, TreasuryAddress); err != nil {
		return Totals{}, fmt.Errorf("read treasury balance: %w", err)
	}
	return t, nil
}
