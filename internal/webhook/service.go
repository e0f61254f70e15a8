package webhook

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
)

// Dirs finds a repository's bare git directory on this node, for the
// commits of a push payload.
type Dirs interface {
	Dir(ctx context.Context, repo uint64) (string, error)
}

// Config is what New builds the service with.
type Config struct {
	Store *store.Store
	Index *index.Index
	Dirs  Dirs // nil: push payloads list no commits
	// BaseURL is the node's public address, for the links in payloads.
	BaseURL string
	// AllowPrivate lets hooks reach loopback, private and link-local
	// addresses (serve --webhook-allow-private); refused by default.
	AllowPrivate bool
	Log          *slog.Logger
	// Timeout bounds one request (10 s by default); Attempts is how many
	// times a delivery is tried (5), RetryBase the first pause between
	// tries (2 s), doubling after each.
	Timeout   time.Duration
	Attempts  int
	RetryBase time.Duration
	// Workers is how many deliveries are in flight at once (8).
	Workers int
	// Metrics receives the deliveries' metrics (dforge_webhook_*); nil:
	// none.
	Metrics prometheus.Registerer
}

// Service owns hooks and their deliveries.
type Service struct {
	db        *sql.DB
	log       *slog.Logger
	render    renderer
	client    *http.Client
	attempts  int
	retryBase time.Duration
	workers   int
	now       func() time.Time

	// hooksExist is set once any hook exists (Create, or found by
	// anyHooks); hooksChecked once the table was read.
	hooksExist, hooksChecked atomic.Bool

	kick     chan struct{}
	mu       sync.Mutex
	inflight map[int64]bool
	m        *metrics
}

// New returns the service; call Run to deliver.
func New(cfg Config) *Service {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 5
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = 2 * time.Second
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	base := strings.TrimSuffix(cfg.BaseURL, "/")
	if base == "" {
		base = "http://localhost:3000"
	}
	return &Service{
		db: cfg.Store.DB(), log: cfg.Log.With("component", "webhook"),
		render: renderer{base: base, index: cfg.Index, dirs: cfg.Dirs}, client: newClient(cfg.AllowPrivate, cfg.Timeout),
		attempts: cfg.Attempts, retryBase: cfg.RetryBase, workers: cfg.Workers, now: time.Now,
		kick: make(chan struct{}, 1), inflight: map[int64]bool{}, m: newMetrics(cfg.Metrics, cfg.Store.DB()),
	}
}

// The service sees every projected forge action.
var _ index.ForgeObserver = (*Service)(nil)

func (s *Service) wake() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// newUUID is a random (version 4) UUID, Gitea's X-Gitea-Delivery.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
