package names

import (
	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/tx"
)

// ClaimEvent describes a ClaimUsername: t.Username is the name the account
// has now, previous the claimed name it replaced ("" when the account had
// only its default).
func ClaimEvent(t tx.Tx, previous string) abci.Event {
	return abci.Event{Type: string(t.Kind), Attributes: []abci.EventAttribute{
		{Key: "from", Value: t.From.Hex(), Index: true},
		{Key: "username", Value: t.Username, Index: true},
		{Key: "previous", Value: previous},
	}}
}
