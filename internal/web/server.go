// Package web is the node's HTTP front door: it composes the API, the git
// server, the IPFS gateway, the health and metrics endpoints and the
// single-page app behind shared middleware. It builds no service: they
// come built (internal/node).
package web

import (
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/repo"
	"github.com/dforge/dforge/internal/api/routes"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/gitserver"
	"github.com/dforge/dforge/internal/index"
	ui "github.com/dforge/dforge/web"
)

// Pinger is what /healthz checks.
type Pinger interface {
	Ping(ctx context.Context) error
}

// IndexHealth is what /healthz asks the chain index (an *index.Index): how
// far it has projected, and the block it is stuck at, if any.
type IndexHealth interface {
	Height() int64
	Stall() *index.Stall
}

// Deps are what the handler is built from.
type Deps struct {
	Log     *slog.Logger
	API     *routes.API
	DB      Pinger
	Dist    fs.FS // the built app; ui.Dist() in production
	Version string
	// Index, when set, is reported by /healthz: a stuck block makes it 503.
	Index IndexHealth
	// Auth resolves the user of every /api/v1 request; nil leaves them anonymous.
	Auth *auth.Service
	// SignInPerMinute caps nonce, sign-in and second-factor requests per IP;
	// 0 means DefaultSignInPerMinute.
	SignInPerMinute int
	// BodyTimeout bounds how long a request's body may take to arrive,
	// git's excepted; 0 means a minute.
	BodyTimeout time.Duration
	// Git serves Smart HTTP at /{owner}/{repo}.git/... (a *gitserver.Server;
	// nil: no git routes). Its requests are authenticated with Auth.
	Git http.Handler
	// IPFS is the trustless gateway at /ipfs/ and /ipns/ (blocks.Store.Gateway;
	// nil: none).
	IPFS http.Handler
	// ConnectSources are origins besides this node's the app's pages may
	// call (the browser's Sentry DSN host), for their Content-Security-Policy.
	ConnectSources []string
	// Peers, when set, names more such origins at each request: the other
	// registered nodes, which the app asks about a repository's replicas.
	Peers func(context.Context) []string
	// Metrics are the node's services' metrics (SSH, webhooks, the relay,
	// replication, bitswap), served on /metrics beside the HTTP layer's;
	// nil: none.
	Metrics prometheus.Gatherer
}

// DefaultSignInPerMinute is generous for people (a sign-in takes two
// requests) and slow for a script guessing second-factor codes.
const DefaultSignInPerMinute = 20

// NewHandler returns the node's whole HTTP surface.
func NewHandler(d Deps) (http.Handler, error) {
	routes, err := ui.Routes()
	if err != nil {
		return nil, err
	}
	spa, err := NewSPA(d.Dist, routes)
	if err != nil {
		return nil, err
	}
	if !spa.Ready() {
		d.Log.Warn("web app not built into this binary; run `make build` to embed it")
	}
	reg := prometheus.NewRegistry()
	metrics := newMetrics(reg)

	var app http.Handler = withPolicy(d.ConnectSources, d.Peers, spa)
	mux := http.NewServeMux()
	d.API.Register(mux)
	// The node's own metrics (with the Go runtime's and process's), and
	// CometBFT's (cometbft_*), which it registers in the default registry.
	gatherers := prometheus.Gatherers{reg, cometMetrics{}}
	if d.Metrics != nil {
		gatherers = append(gatherers, d.Metrics)
	}
	mux.Handle("GET /metrics", promhttp.HandlerFor(gatherers, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", health(d.DB, d.Index, d.Version))
	// /api itself is the app's API reference page; only /api/... is the API.
	mux.Handle("GET /api", app)
	mux.Handle("/", app)
	limits := rateLimits{
		// A page load reports five metrics, and CLS and INP again when the
		// tab is hidden: 600 a minute is a page every half second, far
		// above browsing (120 was hit by a person clicking through a
		// repository), and still bounds a flood of inserts.
		"POST /api/analytics/web-vitals": newLimiter(600, time.Minute),
		"POST /api/v1/contact":           newLimiter(20, 10*time.Minute),
		// Rendering costs CPU; the playground's live preview asks once
		// per pause in typing.
		"POST /api/v1/markdown": newLimiter(60, time.Minute),
	}
	signIn := d.SignInPerMinute
	if signIn <= 0 {
		signIn = DefaultSignInPerMinute
	}
	for _, route := range []string{"GET /api/v1/auth/nonce", "POST /api/v1/auth/siwe", "POST /api/v1/auth/2fa",
		"POST /api/v1/user/2fa/enable", "POST /api/v1/user/2fa/disable"} {
		limits[route] = newLimiter(signIn, time.Minute)
	}
	var h http.Handler = mux
	if d.Auth != nil {
		h = apiOnly(d.Auth.Middleware, mux)
	}
	h = withDownloads(d, h)
	h = withGit(d, limitBodyTime(h, d.BodyTimeout))
	return recoverPanics(d.Log, observe(d.Log, metrics, secureHeaders(limits.wrap(h)))), nil
}

// apiOnly applies mw to /api/v1 requests; the app's pages and assets need no
// user, and the web-vitals beacon cannot carry a CSRF header.
func apiOnly(mw func(http.Handler) http.Handler, next http.Handler) http.Handler {
	api := mw(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/v1/") {
			api.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withDownloads sends release asset downloads
// (/{owner}/{repo}/releases/download/{tag}/{name}) and workflows' badges
// (/{owner}/{repo}/actions/workflows/{file}/badge.svg) to the API ahead of the
// mux, whose /api/ prefix they would clash with as a pattern.
func withDownloads(d Deps, next http.Handler) http.Handler {
	if d.API == nil {
		return next
	}
	// Signed in (token or session), so a private repository's readers
	// download its assets.
	var serve, badge http.Handler = http.HandlerFunc(d.API.ServeDownload), http.HandlerFunc(d.API.ServeBadge)
	if d.Auth != nil {
		serve, badge = d.Auth.Middleware(serve), d.Auth.Middleware(badge)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if api.IsDownloadPath(r.URL.EscapedPath()) {
			r.Pattern = "GET /{owner}/{repo}/releases/download/{tag}/{name}"
			serve.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodGet && repo.IsBadgePath(r.URL.EscapedPath()) {
			r.Pattern = "GET /{owner}/{repo}/actions/workflows/{file}/badge.svg"
			badge.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withGit sends git's Smart HTTP paths, /ipfs/ and /ipns/ to their servers
// ahead of the mux: their paths have wildcards in every segment, which the
// mux could not tell apart from the app's routes. /ipns/ goes to the gateway
// too, which answers 501, rather than to the app's HTML.
func withGit(d Deps, next http.Handler) http.Handler {
	if d.Git == nil && d.IPFS == nil {
		return next
	}
	git := d.Git
	if git != nil && d.Auth != nil {
		git = gitserver.Authenticate(d.Auth.Middleware, git)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.EscapedPath()
		switch {
		case git != nil && !strings.HasPrefix(p, "/api/") && gitserver.IsGitPath(p):
			r.Pattern = "/{owner}/{repo}.git/" + path.Base(p) // a bounded metrics label
			if strings.Contains(p, "/info/lfs/") {
				r.Pattern = "/{owner}/{repo}.git/info/lfs" // not the oid
			}
			git.ServeHTTP(w, r)
		case d.IPFS != nil && strings.HasPrefix(p, "/ipfs/"):
			r.Pattern = "GET /ipfs/{cid}"
			d.IPFS.ServeHTTP(w, r)
		case d.IPFS != nil && (p == "/ipns" || strings.HasPrefix(p, "/ipns/")):
			r.Pattern = "GET /ipns/{name}"
			d.IPFS.ServeHTTP(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// healthBody is /healthz's answer. The index fields appear when the node
// has a chain index; index_stuck_at and index_error only while it is stuck.
type healthBody struct {
	Status       string `json:"status"` // ok, or degraded (503) when anything below is not ok
	Database     string `json:"database"`
	Index        string `json:"index,omitempty"` // ok or stalled
	IndexHeight  *int64 `json:"index_height,omitempty"`
	IndexStuckAt int64  `json:"index_stuck_at,omitempty"` // the block it cannot project
	IndexError   string `json:"index_error,omitempty"`
	Version      string `json:"version"`
}

func health(db Pinger, ix IndexHealth, version string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		body := healthBody{Status: "ok", Database: "ok", Version: version}
		if err := db.Ping(ctx); err != nil {
			body.Status, body.Database = "degraded", "unreachable"
		}
		if ix != nil {
			reportIndex(&body, ix)
		}
		code := http.StatusOK
		if body.Status != "ok" {
			code = http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(body)
	}
}

// reportIndex adds the index's state: a stuck block degrades the node,
// since its pages and writes no longer follow the chain.
func reportIndex(body *healthBody, ix IndexHealth) {
	h := ix.Height()
	body.Index, body.IndexHeight = "ok", &h
	if s := ix.Stall(); s != nil {
		body.Status, body.Index = "degraded", "stalled"
		body.IndexStuckAt, body.IndexError = s.Height, s.Err.Error()
	}
}
