package app

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Every transaction type the format knows is routed to a module, and the
// table routes no type the format does not know.
func TestEveryKindHasAHandler(t *testing.T) {
	for _, k := range tx.Kinds() {
		if handlers[k] == nil {
			t.Errorf("%s transactions have no handler", k)
		}
	}
	for k := range handlers {
		if !k.Known() {
			t.Errorf("the handler table routes %q, which is not a transaction type", k)
		}
	}
}
