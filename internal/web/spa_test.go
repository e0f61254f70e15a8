package web_test

import (
	"net/http"
	"strings"
	"testing"

	ui "github.com/dforge/dforge/web"
)

func TestEveryRouteServesTheApp(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	routes, err := ui.Routes()
	if err != nil {
		t.Fatal(err)
	}
	if len(routes) < 60 {
		t.Fatalf("route table has %d routes; the spec lists more than 60", len(routes))
	}
	for _, r := range routes {
		path := strings.NewReplacer(":id", "42", ":owner", "user-0123456789ab", ":repo", "proj", ":sha", "3f2a", ":number", "7", "*", "some/page").Replace(r.Path)
		res, body := do(t, "GET", srv.URL+path, "")
		if res.StatusCode != 200 || body != indexHTML {
			t.Errorf("GET %s (route %s) = %d %q, want 200 with the app", path, r.Path, res.StatusCode, body)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("GET %s Cache-Control = %q, want no-cache", path, cc)
		}
	}
}

func TestUnknownPathIs404WithTheApp(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	for _, path := range []string{"/no-such-page", "/repository", "/repository/1/extra", "/blog/a/b", "/index.html/x", "/favicon.ico/x", "/-bad-/proj"} {
		res, body := do(t, "GET", srv.URL+path, "")
		if res.StatusCode != http.StatusNotFound || body != indexHTML {
			t.Errorf("GET %s = %d %q, want 404 with the app's Not Found page", path, res.StatusCode, body)
		}
	}
}

func TestUnknownAPIPathIsJSON404(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, body := do(t, "GET", srv.URL+"/api/v1/nothing-here", "")
	got := decodeJSON[map[string]string](t, body)
	if res.StatusCode != 404 || got["code"] != "not_found" || got["message"] == "" {
		t.Fatalf("GET unknown API path = %d %s", res.StatusCode, body)
	}
}

func TestHashedAssetsAreImmutableAndPrecompressed(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	cases := []struct{ accept, encoding, body string }{
		{"gzip, deflate, br", "br", "BROTLI"},
		{"gzip", "gzip", "GZIPPED"},
		{"br;q=0, gzip", "gzip", "GZIPPED"},
		{"identity", "", "console.log('plain')"},
	}
	for _, c := range cases {
		res, body := do(t, "GET", srv.URL+"/assets/app-abc123.js", "", "Accept-Encoding", c.accept)
		if res.StatusCode != 200 || body != c.body || res.Header.Get("Content-Encoding") != c.encoding {
			t.Errorf("Accept-Encoding %q: %d %q encoding %q; want %q %q", c.accept, res.StatusCode, body, res.Header.Get("Content-Encoding"), c.body, c.encoding)
		}
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Errorf("asset Cache-Control = %q, want immutable", cc)
		}
		if v := res.Header.Get("Vary"); v != "Accept-Encoding" {
			t.Errorf("asset Vary = %q", v)
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
			t.Errorf("asset Content-Type = %q", ct)
		}
	}
}

// The service worker precaches /index.html, so it must answer 200.
func TestIndexHTMLIsServed(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, body := do(t, "GET", srv.URL+"/index.html", "")
	if res.StatusCode != 200 || body != indexHTML || res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("/index.html = %d %q %q", res.StatusCode, body, res.Header.Get("Cache-Control"))
	}
}

func TestServiceWorkerIsNotCached(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, _ := do(t, "GET", srv.URL+"/sw.js", "")
	if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("/sw.js = %d Cache-Control %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
}

func TestAudioSupportsRangeRequests(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, body := do(t, "GET", srv.URL+"/music/vulcan.mp3", "", "Range", "bytes=0-2")
	if res.StatusCode != http.StatusPartialContent || body != "ID3" || res.Header.Get("Content-Type") != "audio/mpeg" {
		t.Fatalf("ranged mp3 = %d %q %q", res.StatusCode, body, res.Header.Get("Content-Type"))
	}
}

func TestETagRevalidation(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, _ := do(t, "GET", srv.URL+"/sw.js", "")
	etag := res.Header.Get("ETag")
	res, _ = do(t, "GET", srv.URL+"/sw.js", "", "If-None-Match", etag)
	if etag == "" || res.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation with ETag %q = %d, want 304", etag, res.StatusCode)
	}
}

func TestAppOnlyAnswersGetAndHead(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	res, _ := do(t, "POST", srv.URL+"/explore", "x")
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST /explore = %d, want 405", res.StatusCode)
	}
	res, body := do(t, "HEAD", srv.URL+"/explore", "")
	if res.StatusCode != 200 || body != "" {
		t.Fatalf("HEAD /explore = %d %q", res.StatusCode, body)
	}
}
