package blocks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// A push is acknowledged once git holds its objects and the chain holds its
// ref updates. Copying the objects into blocks costs seconds for a large
// push (every object is inflated, hashed and written to its own file), as
// long again as git's own work, so it runs after the push, in the order the
// pushes came, from a journal on disk: a job is a file in <dir>/.queue,
// removed once its objects are stored, and a restart finishes what a stop
// interrupted. The gateway waits for the queue to empty before it answers
// "not found", so a client that fetches a block right after a push still
// gets it.

// Job is the objects of one push to store: those reachable from Include
// and not from Exclude (git ids) in the repository at Dir.
type Job struct {
	Dir     string   `json:"dir"`
	Include []string `json:"include"`
	Exclude []string `json:"exclude"`
	// Repo and Pusher, for a push to a public repository, ask for the
	// manifest of the job's big objects to be recorded on chain once they
	// are stored (record.go); a job without them records none.
	Repo   uint64 `json:"repo,omitempty"`
	Pusher string `json:"pusher,omitempty"`
}

const queueDir = ".queue"

// queue is the Store's journal of jobs and the worker that runs them.
type queue struct {
	dir     string
	log     *slog.Logger
	mu      sync.Mutex
	pending int             // jobs in the journal
	held    map[string]bool // jobs journaled but not to run yet (EnqueueHeld)
	idle    chan struct{}   // closed while pending is 0
	wake    chan struct{}
	stop    context.CancelFunc
	done    chan struct{}
	// The manifests' journal (record.go).
	recorder    ManifestRecorder
	recordWake  chan struct{}
	recordsDone chan struct{}
}

// startQueue opens the journal in dir and starts its worker, which first
// runs the jobs a previous run left.
func (s *Store) startQueue(log *slog.Logger) error {
	dir := filepath.Join(s.dir, queueDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create block queue: %w", err)
	}
	// What a crash leaves: a job not yet renamed into the journal (the
	// node's start queues its objects again: gitrepos.Reconcile) and
	// half-written blocks.
	for _, pattern := range []string{filepath.Join(dir, ".new-*"), filepath.Join(s.dir, "??", ".put-*")} {
		debris, _ := filepath.Glob(pattern)
		for _, p := range debris {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("remove %s: %w", p, err)
			}
			log.Info("removed what a stop left in the blockstore", "path", p)
		}
	}
	left, err := jobFiles(dir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	q := &queue{dir: dir, log: log, held: map[string]bool{}, idle: make(chan struct{}), wake: make(chan struct{}, 1), stop: cancel, done: make(chan struct{}),
		recordWake: make(chan struct{}, 1), recordsDone: make(chan struct{})}
	q.pending = len(left)
	if q.pending == 0 {
		close(q.idle)
	}
	s.queue = q
	go s.work(ctx)
	go s.sendRecords(ctx)
	return nil
}

// Enqueue writes job to the journal; the worker stores its objects soon
// after. It returns once the job would survive a crash of the node.
func (s *Store) Enqueue(job Job) error {
	release, err := s.EnqueueHeld(job)
	if err == nil {
		release()
	}
	return err
}

// EnqueueHeld writes job to the journal as Enqueue does, but the worker
// leaves it until release is called: a push journals its objects before
// the chain commits it, and they are stored once git is done with the
// push, not while it competes for the disk. A restart runs it whatever.
func (s *Store) EnqueueHeld(job Job) (release func(), err error) {
	if len(job.Include) == 0 {
		return func() {}, nil
	}
	b, err := json.Marshal(job)
	if err != nil {
		return nil, fmt.Errorf("encode block job: %w", err)
	}
	q := s.queue
	suffix := make([]byte, 4)
	rand.Read(suffix)
	// The name sorts in arrival order: the worker runs jobs oldest first.
	name := fmt.Sprintf("%016x-%s.json", time.Now().UnixNano(), hex.EncodeToString(suffix))
	q.mu.Lock()
	q.held[name] = true
	q.mu.Unlock()
	if err := writeFileSynced(q.dir, name, b); err != nil {
		q.mu.Lock()
		delete(q.held, name)
		q.mu.Unlock()
		return nil, fmt.Errorf("queue block job: %w", err)
	}
	q.mu.Lock()
	if q.pending == 0 {
		q.idle = make(chan struct{})
	}
	q.pending++
	q.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			q.mu.Lock()
			delete(q.held, name)
			q.mu.Unlock()
			select {
			case q.wake <- struct{}{}:
			default:
			}
		})
	}, nil
}

// Settle waits until every queued job has run, or ctx ends.
func (s *Store) Settle(ctx context.Context) error {
	q := s.queue
	q.mu.Lock()
	idle := q.idle
	q.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for queued blocks: %w", ctx.Err())
	}
}

// Queued is the number of jobs not yet run.
func (s *Store) Queued() int {
	s.queue.mu.Lock()
	defer s.queue.mu.Unlock()
	return s.queue.pending
}

// Close stops the worker; a job it was running stays in the journal and
// runs again on the next Open (stored objects are skipped).
func (s *Store) Close() error {
	s.queue.stop()
	<-s.queue.done
	<-s.queue.recordsDone
	var err error
	s.closed.Do(func() { err = s.index.close() })
	return err
}

// work runs the journal's jobs oldest first until ctx ends.
func (s *Store) work(ctx context.Context) {
	q := s.queue
	defer close(q.done)
	for {
		names, err := jobFiles(q.dir)
		if err != nil {
			q.log.ErrorContext(ctx, "list queued block jobs", "err", err)
		}
		for _, name := range names {
			q.mu.Lock()
			held := q.held[name]
			q.mu.Unlock()
			if held {
				continue // its release wakes the worker
			}
			if !s.runJob(ctx, name) {
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-q.wake:
		}
	}
}

// runJob stores one job's objects and removes it from the journal; false
// when the store is closing and the job must stay for the next run.
func (s *Store) runJob(ctx context.Context, name string) bool {
	q := s.queue
	path := filepath.Join(q.dir, name)
	job, err := readJob(path)
	if err == nil {
		var n int
		start := time.Now()
		var m *manifestBuilder
		if job.Repo != 0 {
			m = &manifestBuilder{}
		}
		n, err = s.importObjects(ctx, job.Dir, job.Include, job.Exclude, m)
		if ctx.Err() != nil {
			return false
		}
		if err == nil && m != nil && len(m.m) > 0 {
			if err := s.journalManifest(name, job, m.m); err != nil {
				// The objects are stored; only the bitswap path to the
				// big ones is missing, and git peers serve them.
				q.log.ErrorContext(ctx, "journal the manifest of a push's big objects", "repo", job.Repo, "err", err)
			}
		}
		q.log.DebugContext(ctx, "stored pushed objects as blocks", "repo", job.Dir, "objects", n, "took", time.Since(start))
	}
	if err != nil {
		// A repository deleted since its push, or a broken job: retrying
		// cannot help, and the objects stay in git either way.
		q.log.ErrorContext(ctx, "store pushed objects as blocks", "job", name, "err", err)
	}
	if err := os.Remove(path); err != nil {
		q.log.ErrorContext(ctx, "remove a finished block job", "job", name, "err", err)
	}
	q.mu.Lock()
	q.pending--
	if q.pending == 0 {
		close(q.idle)
	}
	q.mu.Unlock()
	return true
}

func readJob(path string) (Job, error) {
	var job Job
	b, err := os.ReadFile(path)
	if err != nil {
		return job, fmt.Errorf("read block job: %w", err)
	}
	if err := json.Unmarshal(b, &job); err != nil {
		return job, fmt.Errorf("decode block job: %w", err)
	}
	return job, nil
}

// jobFiles lists the journal, oldest first.
func jobFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read block queue: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// writeFileSynced writes name in dir through a synced temporary file, so
// the journal never holds a partial job.
func writeFileSynced(dir, name string, b []byte) error {
	tmp, err := os.CreateTemp(dir, ".new-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, name))
}
