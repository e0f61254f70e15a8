package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/store"
)

// The app's pages carry a strict Content-Security-Policy (issue 23): its
// own scripts only, no inline script, no framing, no plugins; the API and
// the event stream are same-origin, and whatever else the app talks to
// (the configured error reporter) is named.
func TestPagesSendContentSecurityPolicy(t *testing.T) {
	srv, _ := newServer(t)
	for _, p := range []string{"/", "/alice/tools/src/main/cmd/main.go", "/no/such/page/at/all"} {
		res, _ := do(t, "GET", srv.URL+p, "")
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{
			"default-src 'self'", "script-src 'self'", "img-src 'self' data: blob:", "connect-src 'self'",
			"worker-src 'self'", "manifest-src 'self'", "frame-ancestors 'none'", "base-uri 'self'",
			"form-action 'self'", "object-src 'none'",
		} {
			if !strings.Contains(csp, want+";") && !strings.HasSuffix(csp, want) {
				t.Errorf("GET %s: the policy %q lacks %q", p, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-eval") || strings.Contains(strings.SplitN(csp, "script-src", 2)[1], "unsafe-inline;") {
			t.Errorf("GET %s: the policy allows inline or eval'd script: %q", p, csp)
		}
	}
}

// A configured origin (the browser's Sentry DSN host) joins connect-src.
func TestPolicyNamesConfiguredConnectOrigins(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	site := node.Site{Dist: testDist, Version: "test", ConnectSources: []string{"https://o1.ingest.sentry.io"}}
	h, err := node.NewServices(slog.New(slog.NewTextHandler(io.Discard, nil)), st, nil, nil).Handler(site)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, _ := do(t, "GET", srv.URL+"/explore", "")
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' https://o1.ingest.sentry.io") {
		t.Errorf("the policy %q does not name the configured origin", csp)
	}
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET /explore: %d", res.StatusCode)
	}
}
