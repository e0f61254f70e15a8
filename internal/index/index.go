// Package index projects the committed chain into SQL and reads it back for
// the API. Each block is written in one SQL transaction (the block, its
// transactions, the account changes its events describe, and the new
// height), so the projection is always the state after some whole block. It
// is a pure function of the chain, block times included: `dforge reindex`
// rebuilds the same rows from the chain alone.
package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	ctypes "github.com/cometbft/cometbft/rpc/core/types"

	"github.com/dforge/dforge/internal/index/calendar"
	"github.com/dforge/dforge/internal/index/forum"
	"github.com/dforge/dforge/internal/index/marketplace"
	"github.com/dforge/dforge/internal/index/readdb"
	"github.com/dforge/dforge/internal/store"
)

// Client is what the index reads the chain through: CometBFT's RPC client
// (*local.Local) for a running node, or a stopped node's history
// (*node.History) for a rebuild.
type Client interface {
	Status(ctx context.Context) (*ctypes.ResultStatus, error)
	Genesis(ctx context.Context) (*ctypes.ResultGenesis, error)
	Block(ctx context.Context, height *int64) (*ctypes.ResultBlock, error)
	BlockResults(ctx context.Context, height *int64) (*ctypes.ResultBlockResults, error)
	Validators(ctx context.Context, height *int64, page, perPage *int) (*ctypes.ResultValidators, error)
}

// subscriber is the part of a running node's client that announces blocks.
type subscriber interface {
	Subscribe(ctx context.Context, subscriber, query string, outCapacity ...int) (<-chan ctypes.ResultEvent, error)
	UnsubscribeAll(ctx context.Context, subscriber string) error
}

// How the follower paces itself. A new block normally wakes it at once
// (event subscription, or WaitFor); the poll is the fallback.
const (
	pollInterval = time.Second
	// pendingRetry: the newest block is stored before its results are, for a
	// moment; look again soon.
	pendingRetry = 20 * time.Millisecond
	// A failing projection is retried after errorRetry, doubling up to
	// maxErrorRetry: a fixed database or binary is picked up within that,
	// without a restart and without spinning meanwhile.
	errorRetry    = 2 * time.Second
	maxErrorRetry = 30 * time.Second
)

// errPending says the newest block's results are not saved yet.
var errPending = errors.New("the newest block is not applied yet")

// ErrStopped is returned by WaitFor once Run has returned.
var ErrStopped = errors.New("the chain index has stopped")

// Index is the SQL projection of the chain.
type Index struct {
	log *slog.Logger
	db  *sql.DB // writes, and the reads of the projection itself
	// rd serves the API's reads (store.ReadDB: SQLite's read pool) with
	// its prepared reads and read cache; every read of the API goes
	// through it, so the cache sees the tables each one names.
	rd       *readdb.DB
	forum    *forum.Reader
	calendar *calendar.Reader
	market   *marketplace.Reader
	dialect  store.Dialect
	client   Client

	// syncMu serialises projection: one writer, in block order.
	syncMu   sync.Mutex
	prepared bool
	// privateMu serialises the private store's projection.
	privateMu sync.Mutex

	mu       sync.Mutex
	height   int64         // last projected height; -1 before the genesis is
	advanced chan struct{} // closed when height moves or a stall is recorded, then replaced
	stall    *Stall        // the block Run cannot project; nil while it keeps up

	// The retry pause after a failure: retryMin, doubling up to retryMax.
	retryMin, retryMax time.Duration

	// observers see each projected forge action (ObserveForge).
	observers []ForgeObserver

	kick     chan struct{} // wakes the follower; buffered, never blocks
	done     chan struct{} // closed when Run returns
	doneOnce sync.Once
}

// New returns an index over st's chain tables, reading the chain through
// client. Call Run to follow the chain, or Sync to catch up once.
func New(log *slog.Logger, st *store.Store, client Client) *Index {
	rd := readdb.New(st)
	return &Index{
		log: log.With("component", "index"), db: st.DB(),
		rd: rd, forum: forum.NewReader(rd), calendar: calendar.NewReader(rd),
		market: marketplace.NewReader(rd), dialect: st.Dialect(), client: client,
		height: -1, advanced: make(chan struct{}), kick: make(chan struct{}, 1), done: make(chan struct{}),
		retryMin: errorRetry, retryMax: maxErrorRetry,
	}
}

// Forum reads the forum's projection (internal/index/forum).
func (ix *Index) Forum() *forum.Reader { return ix.forum }

// Calendar reads the community calendar's projection: events and the
// answers to them (internal/index/calendar).
func (ix *Index) Calendar() *calendar.Reader { return ix.calendar }

// Marketplace reads the marketplace's projection: listings and their
// installs (internal/index/marketplace).
func (ix *Index) Marketplace() *marketplace.Reader { return ix.market }

// Height is the last projected height: -1 before anything is projected,
// the genesis height (initial height - 1, usually 0) after the genesis.
func (ix *Index) Height() int64 {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.height
}

func (ix *Index) setHeight(h int64) {
	ix.mu.Lock()
	ix.height = h
	ix.notify()
	var passed *Stall
	if ix.stall != nil && h >= ix.stall.Height {
		passed, ix.stall = ix.stall, nil
	}
	ix.mu.Unlock()
	ix.logRecovery(passed)
}

// notify wakes the WaitFor callers; ix.mu must be held.
func (ix *Index) notify() {
	close(ix.advanced)
	ix.advanced = make(chan struct{})
}

// WaitFor blocks until the block at height is projected, so a page that
// reads SQL after a write sees it. While Run is stuck on a block at or
// below height (a retry failed too) it returns a *Stall at once: the wait
// could last until an operator steps in.
func (ix *Index) WaitFor(ctx context.Context, height int64) error {
	for {
		ix.mu.Lock()
		cur, advanced, stall := ix.height, ix.advanced, ix.stall
		ix.mu.Unlock()
		if cur >= height {
			return nil
		}
		if stall.confirmed() && stall.Height <= height {
			return fmt.Errorf("wait for height %d to be indexed (indexed: %d): %w", height, cur, stall)
		}
		ix.wake()
		select {
		case <-advanced:
		case <-ix.done:
			return ErrStopped
		case <-ctx.Done():
			return fmt.Errorf("wait for height %d to be indexed (indexed: %d): %w", height, cur, ctx.Err())
		}
	}
}

// WaitForTip blocks until the projection reaches the chain's newest block
// as of the call: what a node waits for before it serves pages.
func (ix *Index) WaitForTip(ctx context.Context) error {
	st, err := ix.client.Status(ctx)
	if err != nil {
		return fmt.Errorf("chain status: %w", err)
	}
	return ix.WaitFor(ctx, st.SyncInfo.LatestBlockHeight)
}

func (ix *Index) wake() {
	select {
	case ix.kick <- struct{}{}:
	default:
	}
}

// Run follows the chain until ctx is cancelled: it projects what is
// committed, then each new block. A failure is recorded as a Stall (see
// stall.go) and retried with backoff until it clears; Run returns nil when
// ctx ends.
func (ix *Index) Run(ctx context.Context) error {
	defer ix.doneOnce.Do(func() { close(ix.done) })
	ix.listen(ctx)
	failures := 0
	for {
		delay := pollInterval
		err := ix.sync(ctx)
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, errPending):
			delay = pendingRetry
		case err != nil:
			failures++
			ix.stalled(err)
			// Do not spin on kicks while the database or the chain is failing.
			if !sleep(ctx, ix.retryDelay(failures)) {
				return nil
			}
			continue
		}
		failures = 0
		ix.recovered()
		select {
		case <-ctx.Done():
			return nil
		case <-ix.kick:
		case <-time.After(delay):
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

var subscriberSeq atomic.Int64

// listen turns the node's new-block events into wake-ups, when the client
// offers them; otherwise the follower polls.
func (ix *Index) listen(ctx context.Context) {
	sub, ok := ix.client.(subscriber)
	if !ok {
		return
	}
	name := fmt.Sprintf("dforge-index-%d", subscriberSeq.Add(1))
	events, err := sub.Subscribe(ctx, name, "tm.event = 'NewBlockHeader'", 16)
	if err != nil {
		ix.log.Warn("subscribe to new blocks; polling instead", "err", err)
		return
	}
	go func() {
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			sub.UnsubscribeAll(ctx, name) // fails harmlessly once the node has stopped
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-events:
				if !ok {
					return
				}
				ix.wake()
			}
		}
	}()
}

// Sync projects every block committed so far and returns. The first call
// checks the projection belongs to this chain (else rebuilds it) and
// projects the genesis if needed. A newest block whose results are not
// saved yet is not committed: Sync leaves it for the next call.
func (ix *Index) Sync(ctx context.Context) error {
	if err := ix.sync(ctx); err != nil && !errors.Is(err, errPending) {
		return err
	}
	return nil
}

// sync is Sync, but says errPending when it stopped before the newest
// block because its results are not saved yet, so Run looks again soon.
func (ix *Index) sync(ctx context.Context) error {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if !ix.prepared {
		if err := ix.prepare(ctx); err != nil {
			return err
		}
		ix.prepared = true
	}
	st, err := ix.client.Status(ctx)
	if err != nil {
		return fmt.Errorf("chain status: %w", err)
	}
	tip := st.SyncInfo.LatestBlockHeight
	if ix.Height() > tip {
		// The chain is behind its projection (restored from an older copy):
		// only a rebuild can make them agree.
		ix.log.Warn("the projection is ahead of the chain; rebuilding it", "projected", ix.Height(), "chain", tip)
		ix.prepared = false
		if err := ix.reset(ctx); err != nil {
			return err
		}
		if err := ix.prepare(ctx); err != nil {
			return err
		}
		ix.prepared = true
	}
	for h := ix.Height() + 1; h <= tip; {
		n, err := ix.projectFrom(ctx, h, tip)
		if err != nil {
			return err
		}
		h += n
	}
	return nil
}

// Rebuild empties the projection in st and replays the whole chain from
// client into it; it returns the height reached.
func Rebuild(ctx context.Context, log *slog.Logger, st *store.Store, client Client) (int64, error) {
	ix := New(log, st, client)
	ix.syncMu.Lock()
	err := ix.reset(ctx)
	ix.syncMu.Unlock()
	if err != nil {
		return 0, err
	}
	if err := ix.Sync(ctx); err != nil {
		return ix.Height(), err
	}
	return ix.Height(), nil
}
