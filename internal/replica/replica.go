// Package replica keeps this node's copy of the public repositories it
// seeds at the refs the chain gives them. The chain records every ref
// update; the latest update of a ref is its value. For each seeded
// repository whose refs here differ, the replicator fetches the missing
// objects from other dForge nodes with git's own protocol (the node that
// relayed the update first), or, when none answers, walks the commit DAG
// by CID over bitswap; it verifies that every new ref value is here with
// all it reaches, then moves each ref with compare-and-swap. A repository
// seen for the first time is filled in a staged directory and published
// whole, so a clone never finds it half-made; until then Status says it is
// replicating. Private repositories never replicate.
//
// Refs this node's own operator relayed are left alone: the node's push
// path moved them here before the chain recorded them, and may still be
// moving them.
package replica

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// Chain is the replicator's view of the chain: the SQL projection
// (*index.Index).
type Chain interface {
	Height() int64
	WaitFor(ctx context.Context, height int64) error
	PublicRepos(ctx context.Context, after int64) ([]index.PublicRepo, error)
	ChainRefs(ctx context.Context, repo uint64) ([]index.ChainRef, error)
	// Manifests are the CIDs of the manifests of repo's big objects,
	// newest first (read by the bitswap fallback).
	Manifests(ctx context.Context, repo uint64) ([]string, error)
}

// Dirs says where a repository's git data is (gitrepos.Repos.Dir, which
// also moves it under a new owner after a transfer).
type Dirs interface {
	Dir(r index.Repo) (string, error)
}

// BlockFetcher fetches blocks by CID from IPFS peers, checking each one's
// hash (*p2p.Node).
type BlockFetcher interface {
	Fetch(ctx context.Context, c cid.Cid) (blockformat.Block, error)
	// FetchMany asks for cs at once and sends each block as it comes, in
	// no order; one that does not come is not sent, and the channel closes
	// once all have come or ctx ends.
	FetchMany(ctx context.Context, cs []cid.Cid) <-chan blockformat.Block
	// Session returns ctx carrying one session for the fetches made under
	// it: the peers that answered are asked first.
	Session(ctx context.Context) context.Context
}

// Config is what a Replicator is built with.
type Config struct {
	Chain  Chain
	Git    *gitstore.Store
	Dirs   Dirs          // nil: the git store's <owner>/<id>.git
	Blocks *blocks.Store // nil: fetched objects are not queued as blocks
	// Bitswap is the fallback when no dForge peer sends the objects; nil:
	// none.
	Bitswap BlockFetcher
	Peers   Peers
	// Self is this node's operator: its own relays are not replicated, and
	// it is never its own peer.
	Self   common.Address
	Policy Policy
	// Workers is how many repositories replicate at once; 0 means 2.
	Workers int
	// Protocols are the transports git may fetch over (GIT_ALLOW_PROTOCOL);
	// empty means "http:https". Tests add "file" for peers on disk.
	Protocols string
	Log       *slog.Logger
	// Metrics receives replication's metrics (dforge_replica_*); nil: none.
	Metrics prometheus.Registerer
	// Synced, when set, is told of each repository brought to the chain's
	// refs (code search indexes it then).
	Synced func(id uint64)
}

// Status is where the replication of a repository stands.
type Status struct {
	// State is "replicating" (queued or under way), "ready" (its git data
	// is at the chain's refs) or "failed" (the last attempt failed; it is
	// retried).
	State string `json:"state"`
	// Done of Total refs were brought to the chain's values.
	Done  int    `json:"done"`
	Total int    `json:"total"`
	Error string `json:"error,omitempty"`
}

const (
	Replicating = "replicating"
	Ready       = "ready"
	Failed      = "failed"
)

// Retries back off from minRetry, doubling up to maxRetry.
const (
	minRetry = 2 * time.Second
	maxRetry = 5 * time.Minute
)

// Replicator brings the seeded repositories to the chain's refs.
type Replicator struct {
	cfg Config
	log *slog.Logger

	mu       sync.Mutex
	status   map[uint64]Status
	repos    map[uint64]index.PublicRepo // the latest record of each seeded repository
	queue    []uint64
	queued   map[uint64]bool
	running  map[uint64]bool
	again    map[uint64]bool // changed while running: run once more
	failures map[uint64]int
	blobs    map[string]bool // files known complete here (blobs.go)
	ready    chan struct{}   // something was queued
	m        *metrics
}

// New returns a replicator; Run starts it.
func New(cfg Config) *Replicator {
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	if cfg.Protocols == "" {
		cfg.Protocols = "http:https"
	}
	if cfg.Peers == nil {
		cfg.Peers = StaticPeers(nil)
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	r := &Replicator{
		cfg: cfg, log: log.With("component", "replica"),
		status: map[uint64]Status{}, repos: map[uint64]index.PublicRepo{}, queued: map[uint64]bool{},
		running: map[uint64]bool{}, again: map[uint64]bool{}, failures: map[uint64]int{}, ready: make(chan struct{}, 1),
	}
	r.m = newMetrics(cfg.Metrics, r)
	return r
}

// Status is the replication of repository id; false when this node does
// not replicate it (private, not seeded, or unknown).
func (r *Replicator) Status(id uint64) (Status, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.status[id]
	return s, ok
}

// Run replicates until ctx ends: every seeded repository at start, then
// those a new block changed, Workers at a time; a failure is retried with
// backoff. It returns once the workers have stopped.
func (r *Replicator) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for range r.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx)
		}()
	}
	defer wg.Wait()
	heights := r.follow(ctx)
	last := int64(-1) // the first scan lists every repository
	for {
		h := r.cfg.Chain.Height()
		repos, err := r.cfg.Chain.PublicRepos(ctx, last)
		if err != nil && ctx.Err() == nil {
			r.log.Warn("list public repositories to replicate", "err", err)
		}
		if err == nil {
			for _, pr := range repos {
				r.schedule(pr)
			}
			last = h
		}
		retry := time.After(minRetry) // only used after a failed scan
		if err == nil {
			retry = nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-heights:
		case <-retry:
		}
	}
}

// follow signals each time the index's height moves.
func (r *Replicator) follow(ctx context.Context) <-chan struct{} {
	out := make(chan struct{}, 1)
	go func() {
		for ctx.Err() == nil {
			err := r.cfg.Chain.WaitFor(ctx, r.cfg.Chain.Height()+1)
			if err != nil {
				// A stalled index answers at once; do not spin on it.
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
				continue
			}
			select {
			case out <- struct{}{}:
			default:
			}
		}
	}()
	return out
}

// schedule queues pr if the node seeds it.
func (r *Replicator) schedule(pr index.PublicRepo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cfg.Policy.Seeds(pr.Repo) {
		delete(r.repos, pr.ID)
		delete(r.status, pr.ID)
		return
	}
	r.repos[pr.ID] = pr
	if _, ok := r.status[pr.ID]; !ok {
		r.status[pr.ID] = Status{State: Replicating}
	}
	r.enqueueLocked(pr.ID)
}

func (r *Replicator) enqueue(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.repos[id]; ok {
		r.enqueueLocked(id)
	}
}

func (r *Replicator) enqueueLocked(id uint64) {
	switch {
	case r.running[id]:
		r.again[id] = true
	case !r.queued[id]:
		r.queued[id] = true
		r.queue = append(r.queue, id)
		r.signal()
	}
}

func (r *Replicator) signal() {
	select {
	case r.ready <- struct{}{}:
	default:
	}
}

// next takes the oldest queued repository.
func (r *Replicator) next() (index.PublicRepo, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.queue) > 0 {
		id := r.queue[0]
		r.queue = r.queue[1:]
		delete(r.queued, id)
		pr, ok := r.repos[id]
		if !ok {
			continue
		}
		r.running[id] = true
		if len(r.queue) > 0 {
			r.signal() // another worker may take the rest
		}
		return pr, true
	}
	return index.PublicRepo{}, false
}

// work runs queued repositories until ctx ends.
func (r *Replicator) work(ctx context.Context) {
	for ctx.Err() == nil {
		pr, ok := r.next()
		if !ok {
			select {
			case <-ctx.Done():
			case <-r.ready:
			}
			continue
		}
		start := time.Now()
		err := r.sync(ctx, pr)
		if err == nil {
			err = r.syncBlobs(ctx, pr.ID)
		}
		if ctx.Err() == nil { // a run cut short by the stop is no result
			r.m.run(err, time.Since(start))
		}
		r.finish(ctx, pr, err)
	}
}

// finish records how a run ended and schedules what follows: another run
// if the repository changed meanwhile, a retry after a failure.
func (r *Replicator) finish(ctx context.Context, pr index.PublicRepo, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.running, pr.ID)
	if err != nil && ctx.Err() == nil {
		r.failures[pr.ID]++
		n := r.failures[pr.ID]
		delay := min(minRetry<<min(n-1, 16), maxRetry)
		s := r.status[pr.ID]
		s.State, s.Error = Failed, err.Error()
		r.status[pr.ID] = s
		level := slog.LevelWarn
		if n > 1 {
			level = slog.LevelDebug // said once; the status keeps the latest
		}
		r.log.Log(ctx, level, "replicate repository", "repo", pr.ID, "owner", pr.Owner.Username, "name", pr.Name, "attempt", n, "retry_in", delay, "err", err)
		time.AfterFunc(delay, func() { r.enqueue(pr.ID) })
	}
	if err == nil {
		delete(r.failures, pr.ID)
		if r.cfg.Synced != nil {
			r.cfg.Synced(pr.ID)
		}
	}
	if r.again[pr.ID] {
		delete(r.again, pr.ID)
		r.enqueueLocked(pr.ID)
	}
}

// setStatus records progress.
func (r *Replicator) setStatus(id uint64, s Status) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, seeded := r.repos[id]; seeded {
		r.status[id] = s
	}
}

// forget drops the status of a repository this node's own flows make.
func (r *Replicator) forget(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.status, id)
}

// errNoSource is a fetch nobody could serve.
var errNoSource = errors.New("no dForge peer or IPFS peer sent the objects")

// Summary counts the seeded repositories by where their replication
// stands, for the node's health in the admin console.
type Summary struct {
	Repos       int `json:"repos"`
	Ready       int `json:"ready"`
	Replicating int `json:"replicating"`
	Failed      int `json:"failed"`
	Queued      int `json:"queued"`
	Running     int `json:"running"`
}

// Summary is where the replication of every seeded repository stands.
func (r *Replicator) Summary() Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Summary{Repos: len(r.status), Queued: len(r.queue), Running: len(r.running)}
	for _, st := range r.status {
		switch st.State {
		case Ready:
			s.Ready++
		case Replicating:
			s.Replicating++
		case Failed:
			s.Failed++
		}
	}
	return s
}
