package actions

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/store"
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

// An upload over its limit is refused whole: nothing is left at its path,
// nor any temporary file; one within it is placed whole.
func TestAnUploadOverItsLimitLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "1.zip")
	_, err := writeAtomically(path, strings.NewReader("eleven byte"), 10)
	if ue, ok := usererr.As(err); !ok || ue.Kind != usererr.TooLarge {
		t.Fatalf("an upload over the limit: %v", err)
	}
	if left, _ := os.ReadDir(filepath.Dir(path)); len(left) != 0 {
		t.Fatalf("an upload over the limit left %v", left)
	}
	if n, err := writeAtomically(path, strings.NewReader("ten bytes!"), 10); err != nil || n != 10 {
		t.Fatalf("an upload at the limit: %d %v", n, err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "ten bytes!" {
		t.Fatalf("the placed file: %q %v", b, err)
	}
	if left, _ := os.ReadDir(filepath.Dir(path)); len(left) != 1 {
		t.Fatalf("an upload left %v beside its file", left)
	}
}

// Staged blocks count against the cap together: past it a block is 413;
// the block list assembles what was staged in the list's order, and an
// artifact that is not pending takes no more data.
func TestStagedBlocksCountAgainstTheCap(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := New(Config{DB: st.DB(), ArtifactDir: t.TempDir(), ArtifactMaxSize: 10})
	a, err := s.createArtifact(ctx, runtimeClaims{Run: 1, Job: 2, Repo: 3}, "dist", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.putBlock(ctx, a.ID, "b", strings.NewReader("world!")); err != nil {
		t.Fatal(err)
	}
	if ue, ok := usererr.As(s.putBlock(ctx, a.ID, "a", strings.NewReader("hello"))); !ok || ue.Kind != usererr.TooLarge {
		t.Fatalf("a block past the cap: %v", ue)
	}
	if err := s.putBlock(ctx, a.ID, "a", strings.NewReader("hi, ")); err != nil {
		t.Fatal(err)
	}
	if err := s.commitBlocks(ctx, a.ID, []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(s.artifactFile(a.ID)); err != nil || string(b) != "hi, world!" {
		t.Fatalf("assembled %q %v", b, err)
	}
	if _, err := os.Stat(s.blockDir(a.ID)); !os.IsNotExist(err) {
		t.Fatalf("the blocks stay after the commit: %v", err)
	}
	if a.Expires-a.Created != defaultArtifactRetention.Milliseconds() {
		t.Fatalf("the default retention is %d ms", a.Expires-a.Created)
	}
	if _, err := s.finalizeArtifact(ctx, runtimeClaims{Run: 1, Job: 2, Repo: 3}, "dist", 10, ""); err != nil {
		t.Fatal(err)
	}
	if ue, ok := usererr.As(s.putBlock(ctx, a.ID, "c", strings.NewReader("x"))); !ok || ue.Kind != usererr.Conflict {
		t.Fatalf("a block after finalize: %v", ue)
	}
}

// The sweep drops an upload left unfinished for a day, row and file, and
// leaves a younger one alone.
func TestTheSweepDropsAbandonedUploads(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := New(Config{DB: st.DB(), ArtifactDir: t.TempDir()})
	now := time.Unix(1_800_000_000, 0)
	s.now = func() time.Time { return now }
	tok := runtimeClaims{Run: 1, Job: 2, Repo: 3}
	old, err := s.createArtifact(ctx, tok, "old", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.putWhole(ctx, old.ID, strings.NewReader("half")); err != nil {
		t.Fatal(err)
	}
	now = now.Add(pendingArtifactTTL - time.Hour)
	young, err := s.createArtifact(ctx, tok, "young", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Hour)
	if err := s.sweepArtifacts(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.artifact(ctx, old.ID); err == nil {
		t.Fatal("an abandoned upload's row stays")
	}
	if _, err := os.Stat(s.artifactFile(old.ID)); !os.IsNotExist(err) {
		t.Fatalf("an abandoned upload's file stays: %v", err)
	}
	if a, err := s.artifact(ctx, young.ID); err != nil || a.Status != ArtifactPending {
		t.Fatalf("a young upload was swept: %+v %v", a, err)
	}
}
