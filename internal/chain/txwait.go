package chain

import (
	"context"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"

	"github.com/cometbft/cometbft/types"
)

// txWaiters hands each committed transaction's event to the relay waiting
// for it. One unbuffered subscription to every transaction's event,
// dispatched by hash, stands in for a subscription per relayed
// transaction: the event bus matched each of those queries against every
// transaction of every block, and subscribing went through the bus's loop
// while the relayer held its lock.
type txWaiters struct {
	mu sync.Mutex
	// waiting holds, by hash (hex), the channels of those who wait for it
	// (the same signed bytes may be sent twice at once), each with room
	// for the one event.
	waiting map[string][]chan types.EventDataTx
	// stopped is set when the subscription ended (the node stops): no
	// event will come any more.
	stopped bool
}

// watchTxs subscribes to every transaction's event and dispatches them
// until the node stops. Being unbuffered, the subscription cannot drop an
// event: the bus waits for the dispatch, which never blocks.
func (c *Chain) watchTxs(ctx context.Context) error {
	sub, err := c.node.Comet().EventBus().SubscribeUnbuffered(ctx, "dforge-relay", types.EventQueryTx)
	if err != nil {
		return fmt.Errorf("subscribe to transactions: %w", err)
	}
	go func() {
		for {
			select {
			case msg := <-sub.Out():
				if data, ok := msg.Data().(types.EventDataTx); ok {
					c.txs.deliver(hex.EncodeToString(types.Tx(data.Tx).Hash()), data)
				}
			case <-sub.Canceled():
				c.txs.stop()
				return
			}
		}
	}()
	return nil
}

// wait registers interest in the transaction with hash and returns the
// channel its event comes on (closed if the node stops first) and the
// function that gives up waiting.
func (w *txWaiters) wait(hash string) (<-chan types.EventDataTx, func()) {
	ch := make(chan types.EventDataTx, 1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		close(ch)
		return ch, func() {}
	}
	if w.waiting == nil {
		w.waiting = map[string][]chan types.EventDataTx{}
	}
	w.waiting[hash] = append(w.waiting[hash], ch)
	return ch, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		rest := slices.DeleteFunc(w.waiting[hash], func(c chan types.EventDataTx) bool { return c == ch })
		if len(rest) == 0 {
			delete(w.waiting, hash)
		} else {
			w.waiting[hash] = rest
		}
	}
}

func (w *txWaiters) deliver(hash string, data types.EventDataTx) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ch := range w.waiting[hash] {
		ch <- data // room for one, and it is the only send
	}
	delete(w.waiting, hash)
}

func (w *txWaiters) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	for hash, chans := range w.waiting {
		for _, ch := range chans {
			close(ch)
		}
		delete(w.waiting, hash)
	}
}
