package grants

import (
	"encoding/json"
	"errors"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
)

// EventGrant describes a grant after a change; it carries the grant in
// full as JSON in "data", which the index projects as it is.
const EventGrant = "Grant"

// Causes of a Grant event.
const (
	CauseOpen    = "open"
	CauseApprove = "approve"
	CauseRelease = "release" // an approval that released its milestone
	CauseExpire  = "expire"
)

// Event describes g after cause; an approval names its reviewer and milestone.
func Event(g *Grant, cause string, extra ...abci.EventAttribute) abci.Event {
	data, _ := json.Marshal(g) // a Grant always marshals
	return abci.Event{Type: EventGrant, Attributes: append([]abci.EventAttribute{
		{Key: "id", Value: strconv.FormatUint(g.ID, 10), Index: true},
		{Key: "cause", Value: cause},
		{Key: "status", Value: g.Status, Index: true},
		{Key: "data", Value: string(data)},
	}, extra...)}
}

// ParseEvent reads the grant of a Grant event.
func ParseEvent(ev abci.Event) (Grant, error) {
	var g Grant
	for _, a := range ev.Attributes {
		if a.Key == "data" {
			err := json.Unmarshal([]byte(a.Value), &g)
			return g, err
		}
	}
	return g, errors.New("a Grant event without data")
}
