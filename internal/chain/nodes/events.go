package nodes

import (
	"encoding/json"
	"fmt"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
)

// EventType is the event of a registration, a RegisterNode transaction's.
const EventType = "RegisterNode"

// Event describes a registration as recorded: "from" is the operator,
// "addrs" a JSON array.
func Event(n Node) abci.Event {
	addrs, _ := json.Marshal(n.Addrs) // a []string always encodes
	return abci.Event{Type: EventType, Attributes: []abci.EventAttribute{
		{Key: "from", Value: n.Operator.Hex(), Index: true},
		{Key: "url", Value: n.URL},
		{Key: "peerId", Value: n.PeerID, Index: true},
		{Key: "addrs", Value: string(addrs)},
	}}
}

// ParseEvent reads an Event back.
func ParseEvent(ev abci.Event) (Node, error) {
	var n Node
	for _, a := range ev.Attributes {
		switch a.Key {
		case "from":
			if !common.IsHexAddress(a.Value) {
				return n, fmt.Errorf("%s event: from %q is not an address", EventType, a.Value)
			}
			n.Operator = common.HexToAddress(a.Value)
		case "url":
			n.URL = a.Value
		case "peerId":
			n.PeerID = a.Value
		case "addrs":
			if err := json.Unmarshal([]byte(a.Value), &n.Addrs); err != nil {
				return n, fmt.Errorf("%s event: addrs: %w", EventType, err)
			}
		}
	}
	if n.Operator == (common.Address{}) || n.URL == "" || n.PeerID == "" {
		return n, fmt.Errorf("%s event lacks its operator, url or peer id", EventType)
	}
	if n.Addrs == nil {
		n.Addrs = []string{}
	}
	return n, nil
}
