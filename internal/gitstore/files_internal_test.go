package gitstore

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Blobs read by id come through the pooled process: a later read of the
// same repository starts none, an id the repository lacks (or a tree's)
// is passed over, and a file over the pool's limit is left to the caller.
func TestBlobsByIDAreReadThroughThePool(t *testing.T) {
	StopBatches()
	dir := t.TempDir()
	gitIn(t, dir, nil, "init", "-q", "-b", "main")
	gitIn(t, dir, nil, "config", "user.email", "a@example.org")
	gitIn(t, dir, nil, "config", "user.name", "A")
	writeFile(t, dir, "main.go", "package main\n")
	writeFile(t, dir, "docs/a b.md", "# spaces in a name\n")
	gitIn(t, dir, nil, "add", ".")
	gitIn(t, dir, nil, "commit", "-q", "-m", "one")
	commit := gitIn(t, dir, nil, "rev-parse", "HEAD")
	ctx := context.Background()
	started := func() int { batches.mu.Lock(); defer batches.mu.Unlock(); return batches.count }
	before := started()

	id := func(commit, path string) string { return gitIn(t, dir, nil, "rev-parse", commit+":"+path) }
	read := func(paths ...string) map[string]string {
		t.Helper()
		ids := make([]string, len(paths))
		for i, p := range paths {
			if p == "gone.go" {
				ids[i] = strings.Repeat("0", len(commit))
			} else {
				ids[i] = id(commit, p)
			}
		}
		got := map[string]string{}
		if err := ReadBlobs(ctx, dir, ids, func(i int, c []byte) { got[paths[i]] = string(c) }); err != nil {
			t.Fatalf("read %v: %v", paths, err)
		}
		return got
	}
	got := read("main.go", "gone.go", "docs", "docs/a b.md")
	if len(got) != 2 || got["main.go"] != "package main\n" || got["docs/a b.md"] != "# spaces in a name\n" {
		t.Fatalf("files at %s: %q", commit, got)
	}
	if got := read("main.go"); got["main.go"] != "package main\n" {
		t.Fatalf("second read: %q", got)
	}
	if n := started() - before; n != 1 {
		t.Fatalf("%d cat-file processes started for two reads, want 1", n)
	}

	writeFile(t, dir, "big.txt", string(bytes.Repeat([]byte("x"), maxBatchRead+1)))
	gitIn(t, dir, nil, "add", ".")
	gitIn(t, dir, nil, "commit", "-q", "-m", "big")
	big := gitIn(t, dir, nil, "rev-parse", "HEAD")
	err := ReadBlobs(ctx, dir, []string{id(big, "big.txt")}, func(int, []byte) { t.Fatal("a file over the limit was given") })
	if !errors.Is(err, ErrNotPooled) {
		t.Fatalf("file over the limit: %v, want ErrNotPooled", err)
	}
	if err := ReadBlobs(ctx, dir, []string{commit + ":main.go"}, nil); !errors.Is(err, ErrInvalidRef) || !strings.Contains(err.Error(), "main.go") {
		t.Fatalf("a blob named by a path: %v, want ErrInvalidRef", err)
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A commit's subject is its message's first line, read through the pooled
// process; anything but a commit is refused by name.
func TestCommitSubjectIsReadThroughThePool(t *testing.T) {
	StopBatches()
	dir := t.TempDir()
	gitIn(t, dir, nil, "init", "-q", "-b", "main")
	gitIn(t, dir, nil, "config", "user.email", "a@example.org")
	gitIn(t, dir, nil, "config", "user.name", "A")
	writeFile(t, dir, "main.go", "package main\n")
	gitIn(t, dir, nil, "add", ".")
	gitIn(t, dir, nil, "commit", "-q", "-m", "Fix the build\n\nThe body says why.\nOver two lines.")
	gitIn(t, dir, nil, "commit", "-q", "--allow-empty", "-m", "Subject only")
	first, second := gitIn(t, dir, nil, "rev-parse", "HEAD~1"), gitIn(t, dir, nil, "rev-parse", "HEAD")
	ctx := context.Background()
	started := func() int { batches.mu.Lock(); defer batches.mu.Unlock(); return batches.count }
	before := started()

	for id, want := range map[string]string{first: "Fix the build", second: "Subject only"} {
		got, err := CommitSubject(ctx, dir, id)
		if err != nil || got != want {
			t.Fatalf("subject of %s: %q, %v; want %q", id, got, err, want)
		}
	}
	if n := started() - before; n != 1 {
		t.Fatalf("%d cat-file processes started for two subjects, want 1", n)
	}
	tree := gitIn(t, dir, nil, "rev-parse", "HEAD^{tree}")
	if _, err := CommitSubject(ctx, dir, tree); !errors.Is(err, ErrInvalidRef) || !strings.Contains(err.Error(), "tree") {
		t.Fatalf("a tree's subject: %v, want ErrInvalidRef naming the tree", err)
	}
	if _, err := CommitSubject(ctx, dir, strings.Repeat("0", len(first))); !errors.Is(err, ErrNoObject) {
		t.Fatalf("a missing commit's subject: %v, want ErrNoObject", err)
	}
}
