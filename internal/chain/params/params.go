// Package params holds the chain parameters: fixed at genesis, and from
// then on changed only by a passed parameter-change proposal. Every value
// is an integer (amounts in micro-units, ratios in basis points, periods in
// blocks), so the state machine never needs a float.
package params

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Params are the chain parameters.
type Params struct {
	// ChainID is the numeric id in the EIP-712 domain every signature commits to.
	ChainID  uint64 `json:"chainId"`
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
	// UnbondingBlocks is how many blocks unstaked tokens wait before they
	// return to the balance: an Unstake in block H is paid back at the start
	// of block H+UnbondingBlocks.
	UnbondingBlocks uint64 `json:"unbondingBlocks"`

	Gov        Gov        `json:"gov,omitzero"`
	Rewards    Rewards    `json:"rewards,omitzero"`
	Reputation Reputation `json:"reputation,omitzero"`
}

// Gov are the governance parameters.
type Gov struct {
	VotingPeriodBlocks uint64 `json:"votingPeriodBlocks"`
	ProposalDeposit    uint64 `json:"proposalDeposit"`
	MinProposerStake   uint64 `json:"minProposerStake"`
	QuorumBps          uint64 `json:"quorumBps"`
	ThresholdBps       uint64 `json:"thresholdBps"`
	TimelockBlocks     uint64 `json:"timelockBlocks"`
}

// Rewards are the contribution reward parameters. Amounts are before the
// reputation multiplier; caps are per epoch.
type Rewards struct {
	EpochBlocks         uint64 `json:"epochBlocks"`
	PR                  uint64 `json:"pr"`
	Review              uint64 `json:"review"`
	IssueReporter       uint64 `json:"issueReporter"`
	IssueCloser         uint64 `json:"issueCloser"`
	Commit              uint64 `json:"commit"`
	TreasuryShareBps    uint64 `json:"treasuryShareBps"`
	CapPerAccount       uint64 `json:"capPerAccount"`
	CapPerRepo          uint64 `json:"capPerRepo"`
	CapPerEpoch         uint64 `json:"capPerEpoch"`
	MinRepoStars        uint64 `json:"minRepoStars"`
	MinRepoContributors uint64 `json:"minRepoContributors"`
}

// Reputation are the reputation parameters: points per rewarded
// contribution, the decay per epoch, and the multiplier curve
// (1.0x plus PerPointBps for each point, capped at MaxMultiplierBps).
type Reputation struct {
	PR               uint64 `json:"pr"`
	Review           uint64 `json:"review"`
	Issue            uint64 `json:"issue"`
	Commit           uint64 `json:"commit"`
	DecayBps         uint64 `json:"decayBps"`
	PerPointBps      uint64 `json:"perPointBps"`
	MaxMultiplierBps uint64 `json:"maxMultiplierBps"`
}

// Basis points: 10,000 is 100 % or a 1.0x multiplier.
const (
	OneBps           = 10_000
	MaxMultiplierCap = 20_000 // the multiplier never exceeds 2.0x
)

// Token is one whole token in micro-units at 6 decimals.
const token = 1_000_000

// DefaultUnbondingBlocks is about seven days of 6-second blocks.
const DefaultUnbondingBlocks = 100_800

// Defaults are the parameters a new chain starts with; Docs gives the
// reasoning for each.
func Defaults() Params {
	return Params{
		ChainID: 7_771, Symbol: "DFG", Decimals: 6, UnbondingBlocks: DefaultUnbondingBlocks,
		Gov:        DefaultGov(),
		Rewards:    DefaultRewards(),
		Reputation: DefaultReputation(),
	}
}

func DefaultGov() Gov {
	return Gov{VotingPeriodBlocks: 43_200, ProposalDeposit: 1_000 * token, MinProposerStake: 10_000 * token,
		QuorumBps: 3_340, ThresholdBps: 5_000, TimelockBlocks: 14_400}
}

func DefaultRewards() Rewards {
	return Rewards{EpochBlocks: 14_400, PR: 100 * token, Review: 20 * token, IssueReporter: 10 * token, IssueCloser: 10 * token,
		Commit: 5 * token, TreasuryShareBps: 1_000, CapPerAccount: 1_000 * token, CapPerRepo: 5_000 * token, CapPerEpoch: 50_000 * token,
		MinRepoStars: 1, MinRepoContributors: 2}
}

func DefaultReputation() Reputation {
	return Reputation{PR: 10, Review: 4, Issue: 2, Commit: 1, DecayBps: 200, PerPointBps: 10, MaxMultiplierBps: MaxMultiplierCap}
}

// WithDefaults fills what a stored or genesis parameter set lacks: a
// group absent from its JSON (a chain made before the group existed)
// decodes as all zeros, which Validate never allows for a group.
func (p Params) WithDefaults() Params {
	if p.UnbondingBlocks == 0 {
		p.UnbondingBlocks = DefaultUnbondingBlocks
	}
	if p.Gov == (Gov{}) {
		p.Gov = DefaultGov()
	}
	if p.Rewards == (Rewards{}) {
		p.Rewards = DefaultRewards()
	}
	if p.Reputation == (Reputation{}) {
		p.Reputation = DefaultReputation()
	}
	return p
}

// Decode reads stored or genesis parameters, with defaults for absent groups.
func Decode(raw []byte) (Params, error) {
	var p Params
	if err := json.Unmarshal(raw, &p); err != nil {
		return p, fmt.Errorf("decode params: %w", err)
	}
	return p.WithDefaults(), nil
}

// Validate checks every rule a parameter set must keep.
func (p Params) Validate() error {
	if p.ChainID == 0 || p.Symbol == "" {
		return errors.New("chainId and symbol are required")
	}
	for _, d := range Docs() {
		v := *d.field(&p)
		if v < d.Min || v > d.Max {
			return fmt.Errorf("%s must be from %d to %d, not %d", d.Name, d.Min, d.Max, v)
		}
	}
	return nil
}

// ErrUnknown is a parameter change naming no changeable parameter.
var ErrUnknown = errors.New("unknown parameter")

// Set returns p with the named parameter set to value (a decimal string),
// or an error saying why the change is refused. The chain id, symbol and
// decimals are fixed at genesis: signatures and amounts depend on them.
func (p Params) Set(name, value string) (Params, error) {
	d, ok := Lookup(name)
	if !ok {
		return p, fmt.Errorf("%w %q: the changeable parameters are those GET /api/v1/chain/param-docs lists", ErrUnknown, name)
	}
	v, err := strconv.ParseUint(value, 10, 64)
	if err != nil || value != strconv.FormatUint(v, 10) {
		return p, fmt.Errorf("%s: the value %q is not a whole number written in decimal", name, value)
	}
	if v < d.Min || v > d.Max {
		return p, fmt.Errorf("%s must be from %d to %d, not %d", name, d.Min, d.Max, v)
	}
	*d.field(&p) = v
	return p, nil
}

// Get returns the named parameter's value.
func (p Params) Get(name string) (uint64, bool) {
	d, ok := Lookup(name)
	if !ok {
		return 0, false
	}
	return *d.field(&p), true
}

// Lookup finds a changeable parameter by name.
func Lookup(name string) (Doc, bool) {
	for _, d := range Docs() {
		if d.Name == name {
			return d, true
		}
	}
	return Doc{}, false
}

// maxAmount keeps amounts where their sums cannot overflow (2^53, which
// JavaScript clients also read exactly).
const maxAmount = 1 << 53

// noMax bounds counts and periods only against overflow in sums.
const noMax = math.MaxInt64 / 4
