package gitstore_test

import (
	"context"
	"testing"

	"github.com/dforge/dforge/internal/gitstore"
)

// TestRefClash finds the refs git cannot keep beside a new one, in both
// directions, and nothing for names that only share a prefix.
func TestRefClash(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "-c", "user.name=a", "-c", "user.email=a@x", "commit", "-q", "--allow-empty", "-m", "one")
	git(t, dir, "branch", "release/1")
	git(t, dir, "branch", "feature/x/y")
	cases := map[string]string{
		"refs/heads/release/1/sub": "refs/heads/release/1",   // an existing ref is its parent
		"refs/heads/feature/x":     "refs/heads/feature/x/y", // an existing ref is under it
		"refs/heads/release/10":    "",                       // a shared prefix is no clash
		"refs/heads/feature/xy":    "",
		"refs/heads/new":           "",
		"refs/tags/release/1/sub":  "", // another namespace
	}
	for ref, want := range cases {
		got, err := gitstore.RefClash(context.Background(), dir, ref)
		if err != nil || got != want {
			t.Errorf("RefClash(%s) = %q, %v; want %q", ref, got, err, want)
		}
	}
}
