package chain

import (
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/types"
)

// Everyone waiting for a transaction gets its event, once; one who gave
// up is not sent it; a stop closes what still waits.
func TestTxWaitersHandEachEventToEveryoneWaiting(t *testing.T) {
	var w txWaiters
	at := func(h int64) types.EventDataTx { return types.EventDataTx{TxResult: abci.TxResult{Height: h}} }
	first, _ := w.wait("aa")
	twin, _ := w.wait("aa") // the same signed bytes sent twice at once
	quitter, giveUp := w.wait("aa")
	left, _ := w.wait("cc")
	giveUp()

	w.deliver("aa", at(7))
	w.deliver("bb", at(8)) // no one waits: dropped
	for name, ch := range map[string]<-chan types.EventDataTx{"first": first, "twin": twin} {
		if got := <-ch; got.Height != 7 {
			t.Fatalf("the %s waiter got height %d, want 7", name, got.Height)
		}
	}
	select {
	case got := <-quitter:
		t.Fatalf("a waiter who gave up was sent %+v", got)
	default:
	}
	if len(w.waiting) != 1 || len(w.waiting["cc"]) != 1 {
		t.Fatalf("waiting after the deliveries: %v, want cc's only", w.waiting)
	}

	w.stop()
	if _, ok := <-left; ok {
		t.Fatal("a waiter got an event after the stop, want its channel closed")
	}
	after, _ := w.wait("dd")
	if _, ok := <-after; ok {
		t.Fatal("a wait after the stop is open, want it closed at once")
	}
}
