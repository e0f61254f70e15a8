package forge

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/tx"
)

// relayQueue hands the operator's transactions to the mempool in nonce
// order without a lock held across each admission. A caller queues its
// action and waits for it alone; one goroutine, started when the queue
// fills from empty and gone once it is empty again, takes everything
// queued as one batch, admits it in order, and takes the next. So a flood
// of actions is admitted in batches by one goroutine rather than by every
// caller in turn through a lock, each waiting caller is woken once, and
// the mempool puts each batch into the next block.
type relayQueue struct {
	mu       sync.Mutex
	waiting  []*relayCall
	draining bool
}

// relayCall is one queued transaction and, once done is closed, its
// admission.
type relayCall struct {
	ctx     context.Context
	kind    tx.Kind
	message map[string]any
	done    chan struct{}
	pending *chain.Pending
	nonce   uint64
	err     error
}

// relay signs a transaction of kind (message without from and nonce,
// which it adds) with the operator's next nonce and admits it to the
// mempool. A caller stays in line even when its ctx ends (as it waited
// for the lock before): a call whose ctx has ended by its turn is refused
// then, before it is signed.
func (s *Service) relay(ctx context.Context, kind tx.Kind, message map[string]any) (*chain.Pending, uint64, error) {
	c := &relayCall{ctx: ctx, kind: kind, message: message, done: make(chan struct{})}
	q := &s.relays
	q.mu.Lock()
	q.waiting = append(q.waiting, c)
	if !q.draining {
		q.draining = true
		go s.drain()
	}
	q.mu.Unlock()
	<-c.done
	return c.pending, c.nonce, c.err
}

// drain admits the queued calls, a batch at a time, until none is left.
func (s *Service) drain() {
	q := &s.relays
	for {
		q.mu.Lock()
		batch := q.waiting
		q.waiting = nil
		if len(batch) == 0 {
			q.draining = false
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		for _, c := range batch {
			s.admitCall(c)
		}
	}
}

// admitCall admits c and tells its caller. A panic fails c alone, so the
// queue goes on: its other callers would otherwise wait for ever.
func (s *Service) admitCall(c *relayCall) {
	defer close(c.done)
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("relaying a transaction panicked", "kind", c.kind, "panic", v, "stack", string(debug.Stack()))
			c.pending, c.err = nil, fmt.Errorf("relay %s: %v", c.kind, v)
			s.nonceSync = false // the nonce may have moved or not
		}
	}()
	if err := c.ctx.Err(); err != nil {
		c.err = fmt.Errorf("relay %s: %w", c.kind, err)
		return
	}
	c.pending, c.nonce, c.err = s.admit(c.ctx, c.kind, c.message)
}

// admit signs one transaction with the operator's next nonce and checks
// it into the mempool; only the queue's draining goroutine calls it. A
// bad nonce (another process used the key, or a dropped transaction left
// a gap) resyncs the nonce once and retries.
func (s *Service) admit(ctx context.Context, kind tx.Kind, message map[string]any) (*chain.Pending, uint64, error) {
	if s.resync.Swap(false) {
		s.nonceSync = false
	}
	for attempt := 0; ; attempt++ {
		if !s.nonceSync {
			n, err := s.chain.PendingNonce(s.operator)
			if err != nil {
				return nil, 0, fmt.Errorf("read operator nonce: %w", err)
			}
			s.nonce, s.nonceSync = n, true
		}
		message["from"], message["nonce"] = s.operator.Hex(), s.nonce
		env, err := tx.Sign(s.key, kind, message, s.chain.Params().ChainID)
		if err != nil {
			return nil, 0, fmt.Errorf("sign %s: %w", kind, err)
		}
		pending, err := s.chain.Broadcast(ctx, env)
		if errors.Is(err, &tx.Error{Code: tx.CodeBadNonce}) && attempt == 0 {
			s.nonceSync = false
			continue
		}
		if errors.Is(err, chain.ErrCatchingUp) {
			// A node that just started syncs blocks before it takes
			// transactions; wait for it rather than fail the user.
			select {
			case <-ctx.Done():
				return nil, 0, fmt.Errorf("relay %s: %w (%w)", kind, err, ctx.Err())
			case <-time.After(catchUpRetry):
			}
			attempt--
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("broadcast %s: %w", kind, err)
		}
		s.nonce++
		return pending, s.nonce - 1, nil
	}
}
