package actions

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/usererr"
)

// Signed URLs and runtime tokens end at their expiry, and one node's do
// not open on another's key; the key survives a restart (it is derived
// from the secrets key).
func TestSignedURLsAndRuntimeTokensExpire(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	s := New(Config{SecretKey: key})
	now := time.Unix(1_800_000_000, 0)
	s.now = func() time.Time { return now }

	u, err := url.Parse(s.signedURL("http://node", "download", 42, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if err := s.checkSignedURL("download", 42, q.Get("expires"), q.Get("sig")); err != nil {
		t.Fatalf("a fresh URL: %v", err)
	}
	restarted := New(Config{SecretKey: key})
	restarted.now = s.now
	if err := restarted.checkSignedURL("download", 42, q.Get("expires"), q.Get("sig")); err != nil {
		t.Fatalf("a URL after a restart: %v", err)
	}
	for name, check := range map[string]func() error{
		"another artifact": func() error { return s.checkSignedURL("download", 43, q.Get("expires"), q.Get("sig")) },
		"another verb":     func() error { return s.checkSignedURL("upload", 42, q.Get("expires"), q.Get("sig")) },
		"another node":     func() error { return New(Config{}).checkSignedURL("download", 42, q.Get("expires"), q.Get("sig")) },
	} {
		if ue, ok := usererr.As(check()); !ok || ue.Code != "bad_signature" {
			t.Fatalf("%s: %v", name, check())
		}
	}
	now = now.Add(time.Hour)
	if ue, ok := usererr.As(s.checkSignedURL("download", 42, q.Get("expires"), q.Get("sig"))); !ok || ue.Kind != usererr.Forbidden || ue.Code != "url_expired" {
		t.Fatalf("an expired URL: %v", ue)
	}

	tok := s.runtimeToken(7, 9, 3)
	if !strings.Contains(tok, ".") || strings.Count(tok, ".") != 2 {
		t.Fatalf("not a JWT: %s", tok)
	}
	now = now.Add(runtimeTokenTTL)
	if _, err := s.checkRuntimeToken(context.Background(), tok); err == nil {
		t.Fatal("an expired token passed")
	} else if ue, ok := usererr.As(err); !ok || ue.Kind != usererr.Unauthenticated || ue.Code != "token_expired" {
		t.Fatalf("an expired token: %v", err)
	}
	if _, err := New(Config{}).checkRuntimeToken(context.Background(), tok); err == nil {
		t.Fatal("another node's token passed")
	}
}
