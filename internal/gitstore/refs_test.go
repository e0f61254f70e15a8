package gitstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/longtest"
)

// Resolve reads refs from the ref files instead of asking git. These tests
// hold it to what it did before, asking `git rev-parse --verify` for each
// candidate in turn, over refs loose, packed, loose over packed, symbolic,
// annotated, oddly named and broken.

// gitResolve is Resolve as git answers it: the first candidate that
// names a commit.
func gitResolve(dir, ref string) (string, bool) {
	candidates := []string{"HEAD"}
	if ref != "" {
		candidates = []string{"refs/heads/" + ref, "refs/tags/" + ref}
		if strings.HasPrefix(ref, "refs/") {
			candidates = append(candidates, ref)
		}
		if len(ref) >= 4 && strings.Trim(ref, "0123456789abcdef") == "" {
			candidates = append(candidates, ref)
		}
	}
	for _, c := range candidates {
		out, err := exec.Command("git", "-C", dir, "rev-parse", "--verify", "--quiet", "--end-of-options", c+"^{commit}").Output()
		if err == nil {
			return strings.TrimSpace(string(out)), true
		}
	}
	return "", false
}

// bareWithHistory makes a bare repository (no hooks) with three commits
// on main and returns it and the commits.
func bareWithHistory(t *testing.T) (string, []string) {
	t.Helper()
	root := t.TempDir()
	bare, wt := filepath.Join(root, "r.git"), filepath.Join(root, "wt")
	git(t, root, "init", "-q", "--bare", "-b", "main", bare)
	git(t, root, "init", "-q", "-b", "main", wt)
	var commits []string
	for i, name := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(wt, name), []byte(name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, wt, "add", name)
		git(t, wt, "commit", "-q", "-m", fmt.Sprintf("commit %d", i))
		commits = append(commits, git(t, wt, "rev-parse", "HEAD"))
	}
	git(t, wt, "push", "-q", bare, "main")
	return bare, commits
}

func TestResolveReadsRefsAsGitDoes(t *testing.T) {
	longtest.Mark(t, "compares with git over thousands of refs")
	ctx := context.Background()
	bare, c := bareWithHistory(t)
	tree := git(t, bare, "rev-parse", c[0]+"^{tree}")
	git(t, bare, "update-ref", "refs/heads/old", c[0])
	git(t, bare, "update-ref", "refs/heads/feature/x", c[1])
	git(t, bare, "update-ref", "refs/heads/dup", c[0])
	git(t, bare, "update-ref", "refs/tags/dup", c[1])
	git(t, bare, "update-ref", "refs/tags/light", c[0])
	git(t, bare, "tag", "-a", "-m", "release", "v1", c[1])
	git(t, bare, "update-ref", "refs/tags/tree-tag", tree)
	git(t, bare, "update-ref", "refs/remotes/origin/main", c[0])
	git(t, bare, "update-ref", "refs/tags/refs/heads/ghost", c[2]) // what git's rules find for refs/heads/ghost
	git(t, bare, "symbolic-ref", "refs/heads/alias", "refs/heads/old")
	git(t, bare, "symbolic-ref", "refs/heads/dangling", "refs/heads/nowhere")
	if err := os.WriteFile(filepath.Join(bare, "refs", "heads", "broken"), []byte("not an id\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refs := []string{"", "main", "refs/heads/main", "old", "feature/x", "refs/heads/feature/x", "feature", "dup", "refs/tags/dup",
		"light", "v1", "refs/tags/v1", "tree-tag", "origin/main", "refs/remotes/origin/main", "refs/heads/ghost", "ghost",
		"alias", "dangling", "broken", "nope", "refs/heads/nope", "refs/nope", c[0], c[1][:7], tree, "deadbeef"}

	check := func(state string) {
		t.Helper()
		for _, ref := range refs {
			want, ok := gitResolve(bare, ref)
			got, err := gitstore.Resolve(ctx, bare, ref)
			switch {
			case ok && (err != nil || got != want):
				t.Errorf("%s: Resolve(%q) = %q, %v; git says %s", state, ref, got, err, want)
			case !ok && !errors.Is(err, gitstore.ErrRefNotFound):
				t.Errorf("%s: Resolve(%q) = %q, %v; git finds no commit", state, ref, got, err)
			}
			if ref == "" || strings.HasPrefix(ref, "refs/") || strings.Trim(ref, "0123456789abcdef") == "" {
				continue
			}
			want, ok = gitResolve(bare, "refs/heads/"+ref)
			got, err = gitstore.ResolveBranch(ctx, bare, ref)
			if ok != (err == nil) || got != want {
				t.Errorf("%s: ResolveBranch(%q) = %q, %v; git says %q, %v", state, ref, got, err, want, ok)
			}
		}
	}
	check("loose")
	// Every ref moves; each read sees the move.
	git(t, bare, "update-ref", "refs/heads/main", c[1])
	git(t, bare, "update-ref", "refs/heads/old", c[2])
	git(t, bare, "update-ref", "-d", "refs/tags/light")
	check("moved")
	git(t, bare, "pack-refs", "--all", "--prune")
	if _, err := os.Stat(filepath.Join(bare, "refs", "heads", "old")); err == nil {
		t.Fatal("pack-refs left the loose ref")
	}
	check("packed")
	git(t, bare, "update-ref", "refs/heads/old", c[0]) // loose over packed
	git(t, bare, "update-ref", "-d", "refs/heads/dup") // out of packed-refs
	check("loose over packed")
	git(t, bare, "symbolic-ref", "HEAD", "refs/heads/unborn")
	check("unborn HEAD")
}

// TestResolveLargePackedRefs: a packed-refs file too large to read on every
// lookup is parsed once per version of the file, and a new version (git
// writes a new file) is read again.
func TestResolveLargePackedRefs(t *testing.T) {
	ctx := context.Background()
	bare, c := bareWithHistory(t)
	var in strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&in, "create refs/tags/t%04d %s\n", i, c[i%3])
	}
	cmd := exec.Command("git", "-C", bare, "update-ref", "--stdin")
	cmd.Stdin = strings.NewReader(in.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("update-ref: %v %s", err, out)
	}
	git(t, bare, "pack-refs", "--all", "--prune")
	if fi, err := os.Stat(filepath.Join(bare, "packed-refs")); err != nil || fi.Size() < 100<<10 {
		t.Fatalf("packed-refs: %v %v", fi, err)
	}
	for _, i := range []int{0, 1, 1500, 2999} {
		if got, err := gitstore.Resolve(ctx, bare, fmt.Sprintf("t%04d", i)); err != nil || got != c[i%3] {
			t.Fatalf("t%04d: %q %v, want %s", i, got, err, c[i%3])
		}
	}
	for round := range 3 {
		want := c[(round+1)%3]
		git(t, bare, "update-ref", "refs/tags/t1500", want)
		git(t, bare, "pack-refs", "--all", "--prune")
		if got, err := gitstore.Resolve(ctx, bare, "t1500"); err != nil || got != want {
			t.Fatalf("round %d: t1500 at %q %v, want %s", round, got, err, want)
		}
	}
	git(t, bare, "update-ref", "-d", "refs/tags/t1500")
	if _, err := gitstore.Resolve(ctx, bare, "t1500"); !errors.Is(err, gitstore.ErrRefNotFound) {
		t.Fatalf("a deleted packed tag: %v", err)
	}
}

// TestCachedListingsAreCopies: a caller may change what it is given
// without changing what the next caller gets.
func TestCachedListingsAreCopies(t *testing.T) {
	ctx := context.Background()
	bare, c := bareWithHistory(t)
	first, err := gitstore.Tree(ctx, bare, c[2], "")
	if err != nil || len(first) != 3 {
		t.Fatalf("tree: %v %v", first, err)
	}
	want := slices.Clone(first)
	first[0].Name, first[1] = "changed", gitstore.Entry{}
	for range 2 {
		again, err := gitstore.Tree(ctx, bare, c[2], "")
		if err != nil || !slices.Equal(again, want) {
			t.Fatalf("tree read again: %v %v, want %v", again, err, want)
		}
	}
	log, err := gitstore.Log(ctx, bare, c[2], gitstore.LogOptions{Limit: 10})
	if err != nil || len(log) != 3 {
		t.Fatalf("log: %v %v", log, err)
	}
	log[0].ID = "changed"
	if again, _ := gitstore.Log(ctx, bare, c[2], gitstore.LogOptions{Limit: 10}); again[0].ID != c[2] {
		t.Fatalf("log read again starts at %s", again[0].ID)
	}
	blob, err := gitstore.ReadBlob(ctx, bare, first[2].ID, 100)
	if err != nil || string(blob) != "c.txt\n" {
		t.Fatalf("blob %q %v", blob, err)
	}
	blob[0] = 'X'
	if again, _ := gitstore.ReadBlob(ctx, bare, want[2].ID, 100); string(again) != "c.txt\n" {
		t.Fatalf("blob read again: %q", again)
	}
}

// TestReplaceRefsAreHonoured: git applies refs/replace/ to every object
// it reads; a repository that has them is read afresh, as git sees it.
func TestReplaceRefsAreHonoured(t *testing.T) {
	ctx := context.Background()
	bare, c := bareWithHistory(t)
	names := func() []string {
		t.Helper()
		entries, err := gitstore.Tree(ctx, bare, c[0], "")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name)
		}
		return out
	}
	if got := names(); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("before: %v", got)
	}
	// c[0]'s tree now reads as c[2]'s.
	git(t, bare, "replace", git(t, bare, "rev-parse", c[0]+"^{tree}"), git(t, bare, "rev-parse", c[2]+"^{tree}"))
	if got := names(); !slices.Equal(got, []string{"a.txt", "b.txt", "c.txt"}) {
		t.Fatalf("replaced: %v", got)
	}
	git(t, bare, "pack-refs", "--all", "--prune") // the replace ref packed
	if got := names(); !slices.Equal(got, []string{"a.txt", "b.txt", "c.txt"}) {
		t.Fatalf("replaced, packed: %v", got)
	}
	git(t, bare, "replace", "-d", git(t, bare, "rev-parse", c[0]+"^{tree}"))
	if got := names(); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("after: %v", got)
	}
}
