// Package actions is Gitea Actions on a node: workflows found in the
// pushes this node relays, split into jobs with Gitea's own parser (act's
// jobparser), handed out exactly once to runners that speak Gitea's
// runner protocol, and reported as commit statuses.
//
// Everything here is node-local: runners, runs, jobs and logs live in
// this node's SQL and never on chain. Only the statuses the jobs post go
// on chain, as any CI's do, in the name of the user whose push started
// the run (the node holds their delegation: it relayed the push), or of
// the writer who approved a first-time contributor's run (approval.go).
package actions

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
)

// Job and run states, Gitea's names.
const (
	StatusBlocked   = "blocked" // waits for the jobs it needs
	StatusWaiting   = "waiting" // ready for a runner
	StatusRunning   = "running"
	StatusSuccess   = "success"
	StatusFailure   = "failure"
	StatusCancelled = "cancelled"
	StatusSkipped   = "skipped"
)

// done says whether a job or run in state s has ended.
func done(s string) bool {
	switch s {
	case StatusSuccess, StatusFailure, StatusCancelled, StatusSkipped:
		return true
	}
	return false
}

// Config is what the service reads and writes through.
type Config struct {
	DB    *sql.DB
	Index *index.Index
	// RepoDir is where a repository's git data is on this node.
	RepoDir func(ctx context.Context, repo uint64) (string, error)
	// PostStatus sets a commit status on chain (or in the private store)
	// in actor's name.
	PostStatus func(ctx context.Context, actor common.Address, s chainforge.StatusCreate) error
	// Operator is this node's key: a push it signed is one it relayed,
	// and so one whose workflows it runs.
	Operator common.Address
	// BaseURL is the node's public address, for runs' links.
	BaseURL string
	Log     *slog.Logger
	// TaskTimeout is how long a running task may go without word from its
	// runner before it fails (default 10 minutes).
	TaskTimeout time.Duration
	// SecretKey is the node's AES-256 key that seals Actions' secrets at
	// rest (internal/node keeps it in the data dir); without it secrets
	// cannot be set.
	SecretKey []byte
	// ArtifactDir is where artifacts' files are kept on this node
	// (internal/node: <data>/artifacts).
	ArtifactDir string
	// ArtifactRetention is the longest an artifact is kept, and the
	// retention of one uploaded without retention-days (default 90 days).
	ArtifactRetention time.Duration
	// ArtifactMaxSize caps one artifact's zip (default 1 GiB).
	ArtifactMaxSize int64
	// PutFile stores a public repository's artifact in the blockstore, as
	// release assets are, and returns its CID; nil keeps artifacts off
	// blocks.
	PutFile func(ctx context.Context, r io.Reader, limit int64) (string, error)
}

// Service is a node's Actions.
type Service struct {
	cfg  Config
	db   *sql.DB
	log  *slog.Logger
	now  func() time.Time
	wake chan struct{} // a trigger or a status to handle
	// tokenKey signs runtime tokens and artifacts' URLs.
	tokenKey []byte

	// claimMu makes runners' claims of jobs take turns (claim).
	claimMu sync.Mutex
	// v3Mu makes v3 artifacts' finalizes take turns (v3Finalize).
	v3Mu sync.Mutex

	mu sync.Mutex
	// tasksVersion moves whenever a job becomes ready, so an idle
	// runner's poll costs no query (FetchTask's tasks_version).
	tasksVersion int64
	// changed is closed, and replaced, whenever a run, a job or a log
	// changes: what live pages wait on.
	changed chan struct{}
}

// New returns the Actions of a node over cfg.
func New(cfg Config) *Service {
	if cfg.TaskTimeout == 0 {
		cfg.TaskTimeout = 10 * time.Minute
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.ArtifactRetention == 0 {
		cfg.ArtifactRetention = defaultArtifactRetention
	}
	if cfg.ArtifactMaxSize == 0 {
		cfg.ArtifactMaxSize = defaultArtifactMaxSize
	}
	return &Service{cfg: cfg, db: cfg.DB, log: cfg.Log, now: time.Now, wake: make(chan struct{}, 1), tokenKey: tokenKey(cfg.SecretKey),
		tasksVersion: 1, changed: make(chan struct{})}
}

// notify wakes the worker and the live pages.
func (s *Service) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
	s.bump()
}

// Changes is closed at the next change of a run, a job or a log: take it
// before reading, so no change is missed.
func (s *Service) Changes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

func (s *Service) bump() {
	s.mu.Lock()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// readyChanged records that jobs became ready for runners.
func (s *Service) readyChanged() {
	s.mu.Lock()
	s.tasksVersion++
	s.mu.Unlock()
}

func (s *Service) version() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tasksVersion
}

func addr(a common.Address) string { return strings.ToLower(a.Hex()) }

func (s *Service) ms() int64 { return s.now().UnixMilli() }

// Run handles triggers, unblocks jobs, fails tasks whose runner went
// silent and posts statuses until ctx ends. What a previous run left is
// handled first.
func (s *Service) Run(ctx context.Context) {
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		s.work(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-tick.C:
		}
	}
}

// work is one round of the worker; each step logs its own failure and
// the next round retries it.
func (s *Service) work(ctx context.Context) {
	defer func() { // the act library's panics must not take the node down
		if v := recover(); v != nil {
			s.log.Error("actions: the worker panicked", "panic", v)
		}
	}()
	if err := s.detectAll(ctx); err != nil && ctx.Err() == nil {
		s.log.Error("actions: detect workflows", "err", err)
	}
	if err := s.fireSchedules(ctx); err != nil && ctx.Err() == nil {
		s.log.Error("actions: fire schedules", "err", err)
	}
	if err := s.expireTasks(ctx); err != nil && ctx.Err() == nil {
		s.log.Error("actions: expire tasks", "err", err)
	}
	if err := s.postStatuses(ctx); err != nil && ctx.Err() == nil {
		s.log.Error("actions: post statuses", "err", err)
	}
	if err := s.sweepArtifacts(ctx); err != nil && ctx.Err() == nil {
		s.log.Error("actions: sweep artifacts", "err", err)
	}
}
