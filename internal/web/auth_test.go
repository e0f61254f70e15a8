package web_test

import (
	"net/http"
	"testing"
)

// TestNodeHandlerWiresAuth: the node's handler serves sign-in and resolves
// credentials on /api/v1 only; pages and the web-vitals beacon ignore them.
func TestNodeHandlerWiresAuth(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	if res, body := do(t, "GET", srv.URL+"/api/v1/auth/nonce", ""); res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("nonce = %d %s", res.StatusCode, body)
	}
	if res, body := do(t, "GET", srv.URL+"/api/v1/user", ""); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("anonymous /user = %d %s", res.StatusCode, body)
	}
	if res, body := do(t, "GET", srv.URL+"/api/v1/version", "", "Authorization", "token nope"); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("bad token on the API = %d %s", res.StatusCode, body)
	}
	if res, body := do(t, "GET", srv.URL+"/", "", "Authorization", "token nope"); res.StatusCode != 200 {
		t.Fatalf("bad token on a page = %d %s", res.StatusCode, body)
	}
	res, body := do(t, "POST", srv.URL+"/api/analytics/web-vitals", vital("LCP", 1, "good", "http://h/"), "Cookie", "dforge_session=stale")
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("web-vitals beacon with a cookie = %d %s", res.StatusCode, body)
	}
}
