// Package web is the node's HTTP front door: it composes the API, the health
// and metrics endpoints and the single-page app behind shared middleware.
package web

import (
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dforge/dforge/content"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/markdown"
	"github.com/dforge/dforge/internal/pages"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/support"
	"github.com/dforge/dforge/internal/vitals"
	ui "github.com/dforge/dforge/web"
)

// Pinger is what /healthz checks.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Deps are what the handler is built from.
type Deps struct {
	Log     *slog.Logger
	API     *api.API
	DB      Pinger
	Dist    fs.FS // the built app; ui.Dist() in production
	Version string
}

// NewNodeHandler builds the services over st and ch (nil: no chain routes)
// and returns the node's whole HTTP surface serving the app in dist.
func NewNodeHandler(log *slog.Logger, st *store.Store, ch *chain.Chain, dist fs.FS, version string) (http.Handler, error) {
	md := markdown.New()
	a := api.New(log, api.Services{
		Vitals: vitals.New(st), Support: support.New(st), Pages: pages.New(content.FS, md), Markdown: md, Chain: ch,
	}, version)
	return NewHandler(Deps{Log: log, API: a, DB: st, Dist: dist, Version: version})
}

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

	mux := http.NewServeMux()
	d.API.Register(mux)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", health(d.DB, d.Version))
	// /api itself is the app's API reference page; only /api/... is the API.
	mux.Handle("GET /api", spa)
	mux.Handle("/", spa)
	limits := rateLimits{
		"POST /api/analytics/web-vitals": newLimiter(120, time.Minute),
		"POST /api/v1/contact":           newLimiter(20, 10*time.Minute),
	}
	return recoverPanics(d.Log, observe(d.Log, metrics, secureHeaders(limits.wrap(mux)))), nil
}

func health(db Pinger, version string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		status, code, dbState := "ok", http.StatusOK, "ok"
		if err := db.Ping(ctx); err != nil {
			status, code, dbState = "degraded", http.StatusServiceUnavailable, "unreachable"
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]string{"status": status, "database": dbState, "version": version})
	}
}
