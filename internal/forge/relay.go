package forge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/tx"
)

// relayQueue hands the operator's transactions to the mempool in nonce
// order without a lock held across each admission. A caller queues its
// action; whoever finds no leader becomes it and admits everything queued,
// in order, as one batch; then it passes the lead to the first caller
// queued meanwhile. So a flood of actions is admitted by one goroutine in
// batches rather than by every caller in turn through a lock, each
// waiting caller is woken once, and the mempool puts the batch into the
// next block.
type relayQueue struct {
	mu      sync.Mutex
	waiting []*relayCall
	leading bool
}

// relayCall is one queued transaction and, once done is closed, its
// admission.
type relayCall struct {
	ctx     context.Context
	kind    tx.Kind
	message map[string]any
	lead    chan struct{} // the call leads the next batch
	done    chan struct{}
	pending *chain.Pending
	nonce   uint64
	err     error
}

// relay signs a transaction of kind (message without from and nonce,
// which it adds) with the operator's next nonce and admits it to the
// mempool. A call is admitted even when its ctx ends while it waits its
// turn (as before, a caller never leaves the line): the batch's leader
// refuses it then, before it is signed.
func (s *Service) relay(ctx context.Context, kind tx.Kind, message map[string]any) (*chain.Pending, uint64, error) {
	c := &relayCall{ctx: ctx, kind: kind, message: message, lead: make(chan struct{}, 1), done: make(chan struct{})}
	q := &s.relays
	q.mu.Lock()
	q.waiting = append(q.waiting, c)
	leads := !q.leading
	q.leading = true
	q.mu.Unlock()
	if !leads {
		select {
		case <-c.done:
			return c.pending, c.nonce, c.err
		case <-c.lead:
		}
	}
	s.admitQueued()
	<-c.done // the leader's batch holds its own call
	return c.pending, c.nonce, c.err
}

// admitQueued admits the queued calls as one batch, then passes the lead.
func (s *Service) admitQueued() {
	q := &s.relays
	q.mu.Lock()
	batch := q.waiting
	q.waiting = nil
	q.mu.Unlock()
	for _, c := range batch {
		if err := c.ctx.Err(); err != nil {
			c.err = fmt.Errorf("relay %s: %w", c.kind, err)
		} else {
			c.pending, c.nonce, c.err = s.admit(c.ctx, c.kind, c.message)
		}
		close(c.done)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.waiting) == 0 {
		q.leading = false
		return
	}
	q.waiting[0].lead <- struct{}{}
}

// admit signs one transaction with the operator's next nonce and checks
// it into the mempool; only the queue's leader calls it. A bad nonce
// (another process used the key, or a dropped transaction left a gap)
// resyncs the nonce once and retries.
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
