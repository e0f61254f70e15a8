package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func markdownBody(text string) string {
	b, _ := json.Marshal(map[string]string{"text": text, "mode": "gfm"})
	return string(b)
}

// TestMarkdownBounded: POST /api/v1/markdown renders up to 256 KiB of text,
// pathological Markdown included, and refuses more with 422.
func TestMarkdownBounded(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	// Quadratic for goldmark: this took seconds; now it is shown as text.
	res, body := do(t, "POST", srv.URL+"/api/v1/markdown", markdownBody(strings.Repeat("[a](", 256<<10/4)))
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(body, "<pre>[a]([a](") {
		t.Fatalf("256 KiB of \"[a](\" = %d %.60q, want 200 and the text", res.StatusCode, body)
	}
	for _, text := range []string{strings.Repeat("a", 256<<10+1), strings.Repeat("<", 1<<20)} {
		res, body = do(t, "POST", srv.URL+"/api/v1/markdown", markdownBody(text))
		got := decodeJSON[struct{ Code, Field, Message string }](t, body)
		if res.StatusCode != http.StatusUnprocessableEntity || got.Code != "too_large" || !strings.Contains(got.Message, "262144 bytes") {
			t.Errorf("%d bytes of text = %d %s, want 422 too_large with the limit", len(text), res.StatusCode, body)
		}
	}
}

// TestMarkdownRateLimited: rendering is limited per client like the other
// anonymous routes that cost the node.
func TestMarkdownRateLimited(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	for i := range 60 {
		if res, body := do(t, "POST", srv.URL+"/api/v1/markdown", markdownBody("*hi*")); res.StatusCode != http.StatusOK {
			t.Fatalf("request %d = %d %s, want 200", i+1, res.StatusCode, body)
		}
	}
	res, body := do(t, "POST", srv.URL+"/api/v1/markdown", markdownBody("*hi*"))
	if res.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "rate_limited") || res.Header.Get("Retry-After") == "" {
		t.Errorf("request 61 = %d %s, want 429 with Retry-After", res.StatusCode, body)
	}
}
