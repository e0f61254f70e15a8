package index

import (
	"fmt"
	"time"
)

// Stall is a committed block the follower cannot project (the database
// refuses a row, the chain is unreadable): the projection stays at the
// block before it while Run retries. It is also the error WaitFor returns
// for a height at or past it, so a write does not wait on it in vain.
// A Stall is never changed once recorded: readers may keep it.
type Stall struct {
	Height int64     // the first block not projected
	Err    error     // why the last attempt failed
	Since  time.Time // the first failure at this height
	// Attempts counts the failures at this height in a row. WaitFor gives
	// up on a stall only once a retry failed too: one failure may be a
	// passing hiccup (a busy database, the chain's RPC restarting).
	Attempts int
}

// confirmed says a retry failed as well: the block is really stuck.
func (s *Stall) confirmed() bool { return s != nil && s.Attempts > 1 }

func (s *Stall) Error() string {
	return fmt.Sprintf("the chain index is stuck at block %d: %v", s.Height, s.Err)
}

func (s *Stall) Unwrap() error { return s.Err }

// Stall returns the block the follower is stuck at, or nil while it keeps
// up: what /healthz reports.
func (ix *Index) Stall() *Stall {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.stall
}

// stalled records that projecting the next block failed with err. The first
// failure at a height is logged at ERROR; retries at that height only at
// DEBUG, so a block that cannot be projected does not flood the log.
func (ix *Index) stalled(err error) {
	ix.mu.Lock()
	h, prev := ix.height+1, ix.stall
	again := prev != nil && prev.Height == h
	s := &Stall{Height: h, Err: err, Since: time.Now(), Attempts: 1}
	if again {
		s.Since, s.Attempts = prev.Since, prev.Attempts+1
	}
	ix.stall = s
	ix.notify() // waiters for this height or later learn they would wait in vain
	ix.mu.Unlock()
	if again {
		ix.log.Debug("still cannot project a committed block", "height", h, "err", err, "since", s.Since)
		return
	}
	ix.log.Error("cannot project a committed block; the index stays behind and retries in the background",
		"height", h, "err", err)
}

// recovered clears a stall once a pass over the chain succeeds (the failure
// may have been the chain's status, with no block left to project).
func (ix *Index) recovered() {
	ix.mu.Lock()
	s := ix.stall
	ix.stall = nil
	ix.mu.Unlock()
	ix.logRecovery(s)
}

func (ix *Index) logRecovery(s *Stall) {
	if s != nil {
		ix.log.Info("the index is projecting again", "height", s.Height, "stalled_for", time.Since(s.Since).Round(time.Millisecond))
	}
}

// retryDelay is the pause after the given number of failures in a row.
func (ix *Index) retryDelay(failures int) time.Duration {
	d := ix.retryMin
	for i := 1; i < failures && d < ix.retryMax; i++ {
		d *= 2
	}
	return min(d, ix.retryMax)
}
