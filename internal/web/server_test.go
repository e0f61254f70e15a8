package web_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/store"
)

const indexHTML = `<!doctype html><div id="root"></div>`

// testDist stands in for the built app: an index, a hashed asset with its
// precompressed siblings, the service worker and a track.
var testDist = fstest.MapFS{
	"index.html":              {Data: []byte(indexHTML)},
	"assets/app-abc123.js":    {Data: []byte("console.log('plain')")},
	"assets/app-abc123.js.gz": {Data: []byte("GZIPPED")},
	"assets/app-abc123.js.br": {Data: []byte("BROTLI")},
	"sw.js":                   {Data: []byte("self.addEventListener('install',()=>{})")},
	"music/vulcan.mp3":        {Data: []byte("ID3-fake-mp3-bytes-0123456789")},
}

// newServer runs the node's full HTTP surface over a fresh SQLite store.
func newServer(t *testing.T) (*httptest.Server, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := node.NewServices(slog.New(slog.NewTextHandler(io.Discard, nil)), st, nil, nil).Handler(node.Site{Dist: testDist, Version: "test"})
	if err != nil {
		t.Fatalf("new handler: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, st
}

func do(t *testing.T, method, url, body string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	// Go's transport would add and strip gzip itself; the tests check raw bytes.
	if req.Header.Get("Accept-Encoding") == "" {
		req.Header.Set("Accept-Encoding", "identity")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func decodeJSON[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("decode %q: %v", body, err)
	}
	return v
}

func TestHealthz(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, body := do(t, "GET", srv.URL+"/healthz", "")
	got := decodeJSON[map[string]string](t, body)
	if res.StatusCode != 200 || got["status"] != "ok" || got["database"] != "ok" {
		t.Fatalf("healthz = %d %v", res.StatusCode, got)
	}
}

func TestHealthzReportsDeadDatabase(t *testing.T) {
	t.Parallel()
	srv, st := newServer(t)
	st.Close()
	res, body := do(t, "GET", srv.URL+"/healthz", "")
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "unreachable") {
		t.Fatalf("healthz with closed db = %d %s, want 503 unreachable", res.StatusCode, body)
	}
}

func TestMetricsCountRequests(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	do(t, "GET", srv.URL+"/healthz", "")
	_, body := do(t, "GET", srv.URL+"/metrics", "")
	want := `dforge_http_requests_total{code="200",method="GET",route="GET /healthz"} 1`
	if !strings.Contains(body, want) {
		t.Fatalf("metrics lack %q:\n%s", want, body)
	}
}
