package roles

import (
	"fmt"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
)

// EventType is the event of a role granted or revoked by a passed role
// proposal; the index projects it into the holders' table.
const EventType = "Role"

// Actions of a role change.
const (
	ActionGrant  = "grant"
	ActionRevoke = "revoke"
)

// Change is one grant or revocation, and the proposal that made it.
type Change struct {
	Account  common.Address
	Role     string
	Action   string
	Proposal uint64
}

// Event describes c.
func Event(c Change) abci.Event {
	return abci.Event{Type: EventType, Attributes: []abci.EventAttribute{
		{Key: "account", Value: c.Account.Hex(), Index: true},
		{Key: "role", Value: c.Role, Index: true},
		{Key: "action", Value: c.Action},
		{Key: "proposal", Value: strconv.FormatUint(c.Proposal, 10), Index: true},
	}}
}

// ParseEvent reads a Role event back.
func ParseEvent(ev abci.Event) (Change, error) {
	var c Change
	var err error
	for _, a := range ev.Attributes {
		switch a.Key {
		case "account":
			if !common.IsHexAddress(a.Value) {
				return c, fmt.Errorf("%s event: account %q is not an address", EventType, a.Value)
			}
			c.Account = common.HexToAddress(a.Value)
		case "role":
			c.Role = a.Value
		case "action":
			c.Action = a.Value
		case "proposal":
			if c.Proposal, err = strconv.ParseUint(a.Value, 10, 64); err != nil {
				return c, fmt.Errorf("%s event: proposal %q is not a number", EventType, a.Value)
			}
		}
	}
	if !Valid(c.Role) || (c.Action != ActionGrant && c.Action != ActionRevoke) || c.Account == (common.Address{}) {
		return c, fmt.Errorf("%s event lacks a known role, action or account", EventType)
	}
	return c, nil
}
