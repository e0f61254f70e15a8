package web

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// limiter caps requests per client address in fixed windows.
type limiter struct {
	limit int
	per   time.Duration
	now   func() time.Time

	mu      sync.Mutex
	windows map[string]window
}

type window struct {
	start time.Time
	count int
}

func newLimiter(limit int, per time.Duration) *limiter {
	return &limiter{limit: limit, per: per, now: time.Now, windows: map[string]window{}}
}

func (l *limiter) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.windows) > 10_000 {
		l.prune(now)
	}
	w := l.windows[key]
	if now.Sub(w.start) >= l.per {
		w = window{start: now}
	}
	w.count++
	l.windows[key] = w
	return w.count <= l.limit
}

func (l *limiter) prune(now time.Time) {
	for k, w := range l.windows {
		if now.Sub(w.start) >= l.per {
			delete(l.windows, k)
		}
	}
}

// rateLimits maps "METHOD /path" of the anonymous write endpoints to their
// quota, so floods cannot fill the database.
type rateLimits map[string]*limiter

func (rl rateLimits) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := rl[r.Method+" "+r.URL.Path]
		if l == nil || l.allow(clientHost(r)) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Retry-After", fmt.Sprint(int(l.per.Seconds())))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"message":"too many requests; please try again later","code":"rate_limited"}`))
	})
}

func clientHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
