package app

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/delegation"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// Params are the chain parameters (package params).
type Params = params.Params

// DefaultUnbondingBlocks is about seven days of 6-second blocks.
const DefaultUnbondingBlocks = params.DefaultUnbondingBlocks

// Genesis is the app_state of genesis.json.
type Genesis struct {
	Params      Params              `json:"params"`
	Allocations []ledger.Allocation `json:"allocations"`
	// Operators are the nodes' operator keys: the only signers whose Forge
	// transactions (actions relayed for their users) the chain accepts. A
	// genesis without the key has none.
	Operators []common.Address `json:"operators,omitempty"`
	// Reputation seeds contributors' scores, for a chain that continues a
	// community's history (and for tests of the multiplier).
	Reputation []ReputationGrant `json:"reputation,omitempty"`
	// Nodes register operators' nodes (URL, libp2p peer id and
	// addresses), as a RegisterNode transaction does later; each names
	// one of Operators.
	Nodes []nodes.Node `json:"nodes,omitempty"`
	// Roles seed the community's first role holders (forum moderators,
	// event organizers, ambassadors); governance grants and revokes
	// them afterwards.
	Roles []roles.Grant `json:"roles,omitempty"`
	// Upgrades are the rule changes (package upgrade) the chain applies
	// from its first block. A new chain takes every one its binary knows;
	// a genesis without them keeps the first rules until governance
	// schedules each.
	Upgrades []string `json:"upgrades,omitempty"`
	// Delegations seed delegations (own-keys rules), as Delegate
	// transactions would: for a chain that continues a community's
	// history, and for tests.
	Delegations []delegation.Delegation `json:"delegations,omitempty"`
}

// ReputationGrant is a genesis reputation score.
type ReputationGrant struct {
	Address common.Address `json:"address"`
	Score   uint64         `json:"score"`
}

// DefaultParams are the parameters a new single-node chain starts with.
func DefaultParams() Params { return params.Defaults() }

func parseGenesis(raw []byte) (Genesis, error) {
	var g Genesis
	if err := json.Unmarshal(raw, &g); err != nil {
		return g, fmt.Errorf("parse genesis app state: %w", err)
	}
	g.Params = g.Params.WithDefaults()
	if err := g.Params.Validate(); err != nil {
		return g, fmt.Errorf("genesis app state: params: %w", err)
	}
	for i, op := range g.Operators {
		if op == (common.Address{}) || slices.Contains(g.Operators[:i], op) {
			return g, fmt.Errorf("genesis app state: operator %s is the zero address or listed twice", op.Hex())
		}
	}
	for i, n := range g.Nodes {
		if !slices.Contains(g.Operators, n.Operator) {
			return g, fmt.Errorf("genesis app state: node %s: its operator is not among the genesis operators", n.Operator.Hex())
		}
		if slices.ContainsFunc(g.Nodes[:i], func(m nodes.Node) bool { return m.Operator == n.Operator }) {
			return g, fmt.Errorf("genesis app state: node %s is listed twice", n.Operator.Hex())
		}
		if _, err := nodes.Canonical(n); err != nil {
			return g, fmt.Errorf("genesis app state: node %s: %w", n.Operator.Hex(), err)
		}
	}
	for i, name := range g.Upgrades {
		if !upgrade.Known(name) || slices.Contains(g.Upgrades[:i], name) {
			return g, fmt.Errorf("genesis app state: upgrade %q is unknown to this binary or listed twice", name)
		}
	}
	if len(g.Delegations) > 0 && !slices.Contains(g.Upgrades, upgrade.OwnKeys) {
		return g, fmt.Errorf("genesis app state: delegations need the %s upgrade", upgrade.OwnKeys)
	}
	for _, r := range g.Roles {
		if !roles.Valid(r.Role) || r.Address == (common.Address{}) {
			return g, fmt.Errorf("genesis app state: role %q of %s: the role must be one of %v and the address not zero", r.Role, r.Address.Hex(), roles.All)
		}
	}
	return g, nil
}

// TreasuryAddress is the treasury's account. No key controls it: only the
// state machine moves its funds: rewards' treasury share comes in, and
// executed spend proposals go out.
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
		Upgrades:    upgrade.All(),
	}
}

func pow10(n uint8) uint64 {
	v := uint64(1)
	for range n {
		v *= 10
	}
	return v
}
