package rewards

import (
	"encoding/json"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/ledger"
)

// EventReward is a contribution's reward outcome, as JSON in "data".
const EventReward = "Reward"

// Events are a reward's outcome and the mints it made: to the contributor,
// and the share to treasury.
func Events(o Outcome, treasury common.Address) []abci.Event {
	events := []abci.Event{RewardEvent(o)}
	if o.Minted > 0 {
		events = append(events, ledger.MintEvent(o.Account, o.Minted, "reward"))
	}
	if o.Treasury > 0 {
		events = append(events, ledger.MintEvent(treasury, o.Treasury, "reward share"))
	}
	return events
}

// RewardEvent describes a reward's outcome.
func RewardEvent(o Outcome) abci.Event {
	data, _ := json.Marshal(o) // plain integers and strings
	return abci.Event{Type: EventReward, Attributes: []abci.EventAttribute{
		{Key: "account", Value: o.Account.Hex(), Index: true},
		{Key: "kind", Value: o.Kind, Index: true},
		{Key: "data", Value: string(data)},
	}}
}
