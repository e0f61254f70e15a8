package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/getsentry/sentry-go"
	"github.com/prometheus/client_golang/prometheus"
)

// statusRecorder remembers the status a handler wrote, for logs and metrics.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (flush).
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// observe logs each request and records it in the request metrics, labelled
// by route pattern rather than raw path to keep label cardinality bounded.
func observe(log *slog.Logger, m *httpMetrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		elapsed := time.Since(start)
		route := r.Pattern
		if route == "" {
			route = "unmatched"
		}
		m.requests.With(prometheus.Labels{"method": r.Method, "route": route, "code": fmt.Sprint(rec.status)}).Inc()
		m.duration.With(prometheus.Labels{"method": r.Method, "route": route}).Observe(elapsed.Seconds())
		log.LogAttrs(r.Context(), levelFor(rec.status), "http request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", rec.status), slog.Duration("duration", elapsed))
	})
}

// levelFor is the level a request's log line takes: ERROR for the
// server's faults; INFO for a 503, the node's deliberate "not now, try
// again" (a repository still replicating, no quorum), a client's
// retryable condition rather than a fault.
func levelFor(status int) slog.Level {
	switch {
	case status == http.StatusServiceUnavailable:
		return slog.LevelInfo
	case status >= 500:
		return slog.LevelError
	}
	return slog.LevelDebug
}

// recoverPanics turns a handler panic into a 500 and reports it, so one bad
// request never takes the node down.
func recoverPanics(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v) // the server's own signal to drop the connection
			}
			log.Error("handler panic", "panic", v, "path", r.URL.Path, "stack", string(debug.Stack()))
			sentry.CurrentHub().Recover(v)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"message":"internal server error","code":"internal"}`))
		}()
		next.ServeHTTP(w, r)
	})
}

// secureHeaders sets the headers every response should carry.
func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// bodyTimeout bounds how long a request other than git's may take to send
// its body: a client that announces 1,000 bytes and sends 10 would hold a
// connection and a goroutine for good (the server's ReadHeaderTimeout ends
// at the headers). Git's pushes are exempt: a large pack takes its time,
// and the git server watches its own bodies.
const defaultBodyTimeout = time.Minute

// assetBodyTimeout bounds a release asset's upload (up to 1 GiB), which a
// minute would cut short on most links.
const assetBodyTimeout = time.Hour

// isAssetUpload reports a POST of a release asset,
// /api/v1/repos/{owner}/{repo}/releases/{id}/assets.
func isAssetUpload(r *http.Request) bool {
	p := r.URL.Path
	return r.Method == http.MethodPost && strings.HasPrefix(p, "/api/v1/repos/") && strings.HasSuffix(p, "/assets") && strings.Contains(p, "/releases/")
}

// limitBodyTime sets the connection's read deadline for each request's
// body; the server moves it again for the next request.
func limitBodyTime(next http.Handler, timeout time.Duration) http.Handler {
	if timeout <= 0 {
		timeout = defaultBodyTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Not every ResponseWriter supports deadlines (httptest
		// recorders): then the request goes without one.
		limit := timeout
		if isAssetUpload(r) {
			limit = max(timeout, assetBodyTimeout)
		}
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(limit))
		next.ServeHTTP(w, r)
	})
}
