package app

import (
	"encoding/json"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/ledger"
)

// Params are chain parameters, fixed at genesis until governance can change them.
type Params struct {
	// ChainID is the numeric id in the EIP-712 domain every signature commits to.
	ChainID  uint64 `json:"chainId"`
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
}

// Genesis is the app_state of genesis.json.
type Genesis struct {
	Params      Params              `json:"params"`
	Treasury    common.Address      `json:"treasury"`
	Allocations []ledger.Allocation `json:"allocations"`
}

// DefaultParams are the parameters a new single-node chain starts with.
func DefaultParams() Params {
	return Params{ChainID: 7_771, Symbol: "DFG", Decimals: 6}
}

func parseGenesis(raw []byte) (Genesis, error) {
	var g Genesis
	if err := json.Unmarshal(raw, &g); err != nil {
		return g, fmt.Errorf("parse genesis app state: %w", err)
	}
	if g.Params.ChainID == 0 || g.Params.Symbol == "" {
		return g, fmt.Errorf("genesis app state: params.chainId and params.symbol are required")
	}
	return g, nil
}
