package bounty

import (
	"encoding/json"
	"fmt"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
)

// EventType is the bounty event: a bounty's record in its new state after
// a funding, a refund or a payout, which the index writes as it is.
const EventType = "Bounty"

// Causes of a Bounty event.
const (
	CauseFund   = "fund"
	CauseRefund = "refund"
	CausePaid   = "paid"
)

// Event describes b after cause, done by account (the funder, or the
// payee of a payout) for amount.
func Event(b Bounty, cause string, account common.Address, amount uint64) abci.Event {
	data, _ := json.Marshal(b) // a Bounty always marshals
	return abci.Event{Type: EventType, Attributes: []abci.EventAttribute{
		{Key: "repo", Value: strconv.FormatUint(b.Repo, 10), Index: true},
		{Key: "number", Value: strconv.FormatUint(b.Number, 10), Index: true},
		{Key: "cause", Value: cause},
		{Key: "account", Value: account.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(amount, 10)},
		{Key: "data", Value: string(data)},
	}}
}

// Change is a parsed Bounty event.
type Change struct {
	Cause   string
	Account common.Address
	Amount  uint64
	Bounty  Bounty
}

// ParseEvent reads a Bounty event back.
func ParseEvent(ev abci.Event) (Change, error) {
	var c Change
	for _, a := range ev.Attributes {
		switch a.Key {
		case "cause":
			c.Cause = a.Value
		case "account":
			if !common.IsHexAddress(a.Value) {
				return Change{}, fmt.Errorf("bounty event: bad account %q", a.Value)
			}
			c.Account = common.HexToAddress(a.Value)
		case "amount":
			n, err := strconv.ParseUint(a.Value, 10, 64)
			if err != nil {
				return Change{}, fmt.Errorf("bounty event: bad amount: %w", err)
			}
			c.Amount = n
		case "data":
			if err := json.Unmarshal([]byte(a.Value), &c.Bounty); err != nil {
				return Change{}, fmt.Errorf("bounty event: bad data: %w", err)
			}
		}
	}
	return c, nil
}
