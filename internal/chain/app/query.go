package app

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/ledger"
)

// Account is an account's committed ledger state.
type Account struct {
	Address common.Address `json:"address"`
	Balance uint64         `json:"balance"`
	Nonce   uint64         `json:"nonce"`
}

// Account reads the account as of the last finalized block.
func (a *App) Account(addr common.Address) (Account, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	bal, err := ledger.Balance(a.state, addr)
	if err != nil {
		return Account{}, fmt.Errorf("read balance: %w", err)
	}
	nonce, err := ledger.Nonce(a.state, addr)
	if err != nil {
		return Account{}, fmt.Errorf("read nonce: %w", err)
	}
	return Account{Address: addr, Balance: bal, Nonce: nonce}, nil
}
