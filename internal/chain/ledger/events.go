package ledger

import (
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
)

// The ledger's events. A transaction's event takes the transaction's type
// (Transfer, Tip, TreasuryDeposit, Stake, Unstake); these are the others.
const (
	// EventUnbondingMatured is the block-level event for an unbonding
	// entry paid back to its account at the start of a block.
	EventUnbondingMatured = "UnbondingMatured"
	// EventMove is a movement of tokens the state machine made itself (a
	// deposit into or out of escrow, a treasury spend); EventMint is new
	// tokens (a reward). The index applies both to balances.
	EventMove = "Move"
	EventMint = "Mint"
)

// TransferEvent describes a movement between two accounts (Transfer, Tip,
// TreasuryDeposit, whose "to" is the treasury).
func TransferEvent(t tx.Tx) abci.Event {
	attrs := []abci.EventAttribute{
		{Key: "from", Value: t.From.Hex(), Index: true},
		{Key: "to", Value: t.To.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(t.Amount, 10)},
	}
	if t.Target != "" {
		attrs = append(attrs, abci.EventAttribute{Key: "target", Value: t.Target, Index: true})
	}
	return abci.Event{Type: string(t.Kind), Attributes: attrs}
}

// StakeEvent describes a Stake, a transaction on the sender's own account.
func StakeEvent(t tx.Tx) abci.Event {
	return abci.Event{Type: string(t.Kind), Attributes: []abci.EventAttribute{
		{Key: "from", Value: t.From.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(t.Amount, 10)},
	}}
}

// UnstakeEvent describes an Unstake and the height its entry matures at.
func UnstakeEvent(t tx.Tx, maturesAt uint64) abci.Event {
	ev := StakeEvent(t)
	ev.Attributes = append(ev.Attributes, abci.EventAttribute{Key: "maturesAt", Value: strconv.FormatUint(maturesAt, 10)})
	return ev
}

// UnbondingMaturedEvent describes an entry MatureUnbondings paid at height.
func UnbondingMaturedEvent(m Matured, height uint64) abci.Event {
	return abci.Event{Type: EventUnbondingMatured, Attributes: []abci.EventAttribute{
		{Key: "address", Value: m.Address.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(m.Amount, 10)},
		{Key: "height", Value: strconv.FormatUint(height, 10)},
	}}
}

// MoveEvent describes a movement the state machine made, and why.
func MoveEvent(from, to common.Address, amount uint64, reason string) abci.Event {
	return abci.Event{Type: EventMove, Attributes: []abci.EventAttribute{
		{Key: "from", Value: from.Hex(), Index: true},
		{Key: "to", Value: to.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(amount, 10)},
		{Key: "reason", Value: reason},
	}}
}

// MintEvent describes new tokens credited to an account, and why.
func MintEvent(to common.Address, amount uint64, reason string) abci.Event {
	return abci.Event{Type: EventMint, Attributes: []abci.EventAttribute{
		{Key: "to", Value: to.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(amount, 10)},
		{Key: "reason", Value: reason},
	}}
}
