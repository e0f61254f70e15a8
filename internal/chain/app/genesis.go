package app

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/ledger"
)

// Params are chain parameters, fixed at genesis until governance can change them.
type Params struct {
	// ChainID is the numeric id in the EIP-712 domain every signature commits to.
	ChainID  uint64 `json:"chainId"`
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
	// UnbondingBlocks is how many blocks unstaked tokens wait before they
	// return to the balance: an Unstake in block H is paid back at the start
	// of block H+UnbondingBlocks. Zero or absent means DefaultUnbondingBlocks.
	UnbondingBlocks uint64 `json:"unbondingBlocks"`
}

// DefaultUnbondingBlocks is about seven days of 6-second blocks.
const DefaultUnbondingBlocks = 100_800

// Genesis is the app_state of genesis.json.
type Genesis struct {
	Params      Params              `json:"params"`
	Allocations []ledger.Allocation `json:"allocations"`
	// Operators are the nodes' operator keys: the only signers whose Forge
	// transactions (actions relayed for their users) the chain accepts. A
	// genesis without the key has none.
	Operators []common.Address `json:"operators,omitempty"`
}

// DefaultParams are the parameters a new single-node chain starts with.
func DefaultParams() Params {
	return Params{ChainID: 7_771, Symbol: "DFG", Decimals: 6, UnbondingBlocks: DefaultUnbondingBlocks}
}

// withDefaults fills parameters a genesis may omit, including those added
// after a chain was created (its stored params then lack them).
func (p Params) withDefaults() Params {
	if p.UnbondingBlocks == 0 {
		p.UnbondingBlocks = DefaultUnbondingBlocks
	}
	return p
}

func parseGenesis(raw []byte) (Genesis, error) {
	var g Genesis
	if err := json.Unmarshal(raw, &g); err != nil {
		return g, fmt.Errorf("parse genesis app state: %w", err)
	}
	if g.Params.ChainID == 0 || g.Params.Symbol == "" {
		return g, fmt.Errorf("genesis app state: params.chainId and params.symbol are required")
	}
	g.Params = g.Params.withDefaults()
	for i, op := range g.Operators {
		if op == (common.Address{}) || slices.Contains(g.Operators[:i], op) {
			return g, fmt.Errorf("genesis app state: operator %s is the zero address or listed twice", op.Hex())
		}
	}
	if g.Params.UnbondingBlocks > math.MaxInt64/2 {
		return g, fmt.Errorf("genesis app state: params.unbondingBlocks %d is too large", g.Params.UnbondingBlocks)
	}
	return g, nil
}

// TreasuryAddress is the treasury's account. No key controls it: only the
// state machine moves its funds (governance spends, in a later milestone).
var TreasuryAddress = common.BytesToAddress(crypto.Keccak256([]byte("dforge/treasury"))[12:])

// TreasuryGenesis is what a new chain starts with: the default parameters,
// only the treasury funded (100 million tokens), and the given operators
// (each node's operator key).
func TreasuryGenesis(operators ...common.Address) Genesis {
	p := DefaultParams()
	return Genesis{
		Params:      p,
		Allocations: []ledger.Allocation{{Address: TreasuryAddress, Amount: 100_000_000 * pow10(p.Decimals)}},
		Operators:   operators,
	}
}

func pow10(n uint8) uint64 {
	v := uint64(1)
	for range n {
		v *= 10
	}
	return v
}
