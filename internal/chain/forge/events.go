package forge

import (
	"encoding/json"
	"errors"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
)

// EventType is the type of the event every applied action gives.
const EventType = "Forge"

// Event attribute keys. "data" holds the Change as JSON; the others repeat
// a few of its values for people and for CometBFT's event queries.
const (
	AttrAction = "action"
	AttrActor  = "actor"
	AttrRepo   = "repo"
	AttrNumber = "number"
	AttrData   = "data"
)

// Event is the change as the event the indexer reads.
func (c Change) Event() abci.Event {
	data, _ := json.Marshal(c) // plain structs of strings and integers: cannot fail
	attrs := []abci.EventAttribute{
		{Key: AttrAction, Value: c.Action, Index: true},
		{Key: AttrActor, Value: c.Actor.Hex(), Index: true},
	}
	if id := c.RepoID(); id != 0 {
		attrs = append(attrs, abci.EventAttribute{Key: AttrRepo, Value: strconv.FormatUint(id, 10), Index: true})
	}
	if c.Issue != nil {
		attrs = append(attrs, abci.EventAttribute{Key: AttrNumber, Value: strconv.FormatUint(c.Issue.Number, 10)})
	}
	attrs = append(attrs, abci.EventAttribute{Key: AttrData, Value: string(data)})
	return abci.Event{Type: EventType, Attributes: attrs}
}

// ParseEvent reads the Change back from an event of EventType.
func ParseEvent(ev abci.Event) (Change, error) {
	if ev.Type != EventType {
		return Change{}, errors.New("not a forge event")
	}
	for _, a := range ev.Attributes {
		if a.Key == AttrData {
			var c Change
			if err := json.Unmarshal([]byte(a.Value), &c); err != nil {
				return Change{}, errors.New("forge event: undecodable data: " + err.Error())
			}
			return c, nil
		}
	}
	return Change{}, errors.New("forge event without data")
}
