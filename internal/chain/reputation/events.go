package reputation

import (
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
)

// EventEpoch marks the block a reward epoch begins in.
const EventEpoch = "Epoch"

// EpochEvent describes the start of epoch.
func EpochEvent(epoch uint64) abci.Event {
	return abci.Event{Type: EventEpoch, Attributes: []abci.EventAttribute{
		{Key: "epoch", Value: strconv.FormatUint(epoch, 10), Index: true},
	}}
}
