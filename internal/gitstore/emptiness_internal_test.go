package gitstore

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// settle moves the times of dir's branch files ago back, as if the last
// change to them were long before.
func settle(t *testing.T, dir string, ago time.Duration) {
	t.Helper()
	past := time.Now().Add(-ago)
	for _, p := range []string{filepath.Join(dir, "refs", "heads"), filepath.Join(dir, "packed-refs")} {
		if err := os.Chtimes(p, past, past); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// TestARememberedBranchFollowsItsDeletion: a repository with a branch is
// remembered as such, and losing its last branch, loose, nested or
// packed, is seen at once.
func TestARememberedBranchFollowsItsDeletion(t *testing.T) {
	for _, c := range []struct {
		name, branch string
		pack         bool
	}{
		{"loose", "main", false},
		{"nested", "feature/x", false},
		{"packed", "main", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			gitIn(t, dir, nil, "init", "--quiet", "--bare")
			if !IsEmpty(dir) {
				t.Fatal("a new repository has a branch")
			}
			tree := gitIn(t, dir, nil, "mktree")
			commit := gitIn(t, dir, nil, "-c", "user.name=a", "-c", "user.email=a@example.org", "commit-tree", tree, "-m", "first")
			gitIn(t, dir, nil, "update-ref", "refs/heads/"+c.branch, commit)
			if c.pack {
				gitIn(t, dir, nil, "pack-refs", "--all", "--prune")
			}
			settle(t, dir, time.Hour)
			if IsEmpty(dir) {
				t.Fatal("a repository with a branch is empty")
			}
			stamp, settled := branchStamp(dir)
			if !settled || !withBranches.has(dir, stamp) {
				t.Fatal("a settled repository with a branch was not remembered")
			}
			gitIn(t, dir, nil, "update-ref", "-d", "refs/heads/"+c.branch)
			settle(t, dir, 30*time.Minute) // settled again, as a later call finds it
			if !IsEmpty(dir) {
				t.Fatal("a repository that lost its last branch still has one")
			}
		})
	}
}

// TestAFreshStampIsNotTrusted: a branch file changed within the tick of
// the stamp keeps its time, so a stamp newer than settleAfter is not
// remembered; a deletion that leaves the times as they were is still seen.
func TestAFreshStampIsNotTrusted(t *testing.T) {
	dir := t.TempDir()
	gitIn(t, dir, nil, "init", "--quiet", "--bare")
	tree := gitIn(t, dir, nil, "mktree")
	gitIn(t, dir, nil, "update-ref", "refs/heads/main", gitIn(t, dir, nil, "-c", "user.name=a", "-c", "user.email=a@example.org", "commit-tree", tree, "-m", "first"))
	heads := filepath.Join(dir, "refs", "heads")
	fi, err := os.Stat(heads)
	if err != nil {
		t.Fatal(err)
	}
	if IsEmpty(dir) {
		t.Fatal("a repository with a branch is empty")
	}
	gitIn(t, dir, nil, "update-ref", "-d", "refs/heads/main")
	if err := os.Chtimes(heads, fi.ModTime(), fi.ModTime()); err != nil { // the same tick
		t.Fatal(err)
	}
	if !IsEmpty(dir) {
		t.Fatal("a deletion within the stamp's tick was not seen")
	}
}
