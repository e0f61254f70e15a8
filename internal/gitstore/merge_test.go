package gitstore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/gitstore"
)

// mergeRepo is a bare repository with main (README.md) and, from it,
// branch "side" in a worktree the test commits to.
type mergeRepo struct {
	t    *testing.T
	bare string
	wt   string
}

func newMergeRepo(t *testing.T) *mergeRepo {
	t.Helper()
	s := open(t)
	bare, err := s.Create(context.Background(), owner, "7", gitstore.CreateOptions{README: []byte("# r\n\none\ntwo\nthree\n"), Author: alice})
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, "", "clone", "-q", bare, wt)
	return &mergeRepo{t: t, bare: bare, wt: wt}
}

// commit writes files on branch (created from main when new) and copies
// the branch into the bare repository.
func (m *mergeRepo) commit(branch, msg string, files map[string]string) string {
	m.t.Helper()
	if _, err := tryGit(m.wt, "checkout", "-q", branch); err != nil {
		git(m.t, m.wt, "checkout", "-q", "-b", branch, "origin/main")
	}
	for p, c := range files {
		if c == "" {
			os.Remove(filepath.Join(m.wt, p))
			continue
		}
		if err := os.WriteFile(filepath.Join(m.wt, p), []byte(c), 0o644); err != nil {
			m.t.Fatal(err)
		}
	}
	git(m.t, m.wt, "add", "-A")
	git(m.t, m.wt, "commit", "-q", "-m", msg)
	git(m.t, m.bare, "fetch", "-q", m.wt, "+refs/heads/"+branch+":refs/heads/"+branch)
	return git(m.t, m.wt, "rev-parse", "HEAD")
}

func TestMergeStyles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newMergeRepo(t)
	bob := gitstore.Signature{Name: "bob", Email: "bob@example.org"}
	m.commit("side", "Side one", map[string]string{"a.txt": "a\n"})
	head := m.commit("side", "Side two", map[string]string{"a.txt": "a\nb\n"})
	base := m.commit("main", "Main moves", map[string]string{"m.txt": "m\n"})

	tree, conflicts, err := gitstore.MergeTree(ctx, m.bare, base, head)
	if err != nil || conflicts != nil || tree == "" {
		t.Fatalf("MergeTree = %q %v %v", tree, conflicts, err)
	}
	merge, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: gitstore.StyleMerge, Base: base, Head: head, Message: "Merge side", Committer: alice})
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, m.bare, "log", "-1", "--format=%P|%T|%an|%s", merge); got != base+" "+head+"|"+tree+"|alice|Merge side" {
		t.Fatalf("merge commit: %s", got)
	}
	squash, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: gitstore.StyleSquash, Base: base, Head: head, Message: "Side (#1)", Author: bob, Committer: alice})
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, m.bare, "log", "-1", "--format=%P|%T|%an|%cn|%s", squash); got != base+"|"+tree+"|bob|alice|Side (#1)" {
		t.Fatalf("squash commit: %s", got)
	}
	rebased, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: gitstore.StyleRebase, Base: base, Head: head, Committer: alice})
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, m.bare, "log", "--format=%s|%an|%cn", base+".."+rebased); got != "Side two|T|alice\nSide one|T|alice" {
		t.Fatalf("rebased commits:\n%s", got)
	}
	if got := git(t, m.bare, "rev-parse", rebased+"~2"); got != base {
		t.Fatalf("rebased onto %s, want %s", got, base)
	}
	// Nothing moved, and the rebase's worktree is gone.
	if got := git(t, m.bare, "rev-parse", "refs/heads/main"); got != base {
		t.Fatalf("main moved to %s", got)
	}
	if got := git(t, m.bare, "worktree", "list", "--porcelain"); got != "worktree "+m.bare+"\nbare" {
		t.Fatalf("worktrees left: %s", got)
	}
	// Rebasing a head that already has the base is a fast-forward to it.
	ff, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: gitstore.StyleRebase, Base: base, Head: merge, Committer: alice})
	if err != nil || ff != merge {
		t.Fatalf("fast-forward rebase = %s %v, want %s", ff, err, merge)
	}
	// rebase-merge: the rebased commits, joined to the base by a merge
	// commit with the rebased head's tree.
	rm, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: gitstore.StyleRebaseMerge, Base: base, Head: head, Message: "Merge side", Committer: alice})
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, m.bare, "log", "-1", "--format=%P|%T|%s", rm); got != base+" "+rebased+"|"+tree+"|Merge side" {
		t.Fatalf("rebase-merge commit: %s (rebased %s)", got, rebased)
	}
	// ... a merge commit even when the head already has the base (--no-ff).
	if noff, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: gitstore.StyleRebaseMerge, Base: base, Head: rebased, Message: "x", Committer: alice}); err != nil ||
		git(t, m.bare, "log", "-1", "--format=%P", noff) != base+" "+rebased {
		t.Fatalf("rebase-merge of a head with the base: %s %v", noff, err)
	}
	// fast-forward-only: the head itself when it has the base, else refused.
	if ff, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: gitstore.StyleFastForward, Base: base, Head: rebased}); err != nil || ff != rebased {
		t.Fatalf("fast-forward = %s %v, want %s", ff, err, rebased)
	}
	if _, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: gitstore.StyleFastForward, Base: base, Head: head}); !errors.Is(err, gitstore.ErrNotFastForward) {
		t.Fatalf("fast-forward of a diverged head: %v", err)
	}
	// MoveRef is a compare-and-swap.
	if err := gitstore.MoveRef(ctx, m.bare, "refs/heads/main", merge, head); !errors.Is(err, gitstore.ErrRefChanged) {
		t.Fatalf("MoveRef from a stale value: %v", err)
	}
	if err := gitstore.MoveRef(ctx, m.bare, "refs/heads/main", merge, base); err != nil {
		t.Fatal(err)
	}
	// DeleteRefAt too.
	if err := gitstore.DeleteRefAt(ctx, m.bare, "refs/heads/side", base); !errors.Is(err, gitstore.ErrRefChanged) {
		t.Fatalf("DeleteRefAt from a stale value: %v", err)
	}
	if err := gitstore.DeleteRefAt(ctx, m.bare, "refs/heads/side", head); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := gitstore.CommitOf(ctx, m.bare, "refs/heads/side"); ok || err != nil {
		t.Fatalf("side after DeleteRefAt: %v %v", ok, err)
	}
}

func TestMergeConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newMergeRepo(t)
	head := m.commit("side", "Side", map[string]string{"README.md": "# side\n", "b.txt": "side\n"})
	base := m.commit("main", "Main", map[string]string{"README.md": "# main\n", "b.txt": "main\n"})
	_, conflicts, err := gitstore.MergeTree(ctx, m.bare, base, head)
	if err != nil || !reflect.DeepEqual(conflicts, []string{"README.md", "b.txt"}) {
		t.Fatalf("conflicts = %v %v", conflicts, err)
	}
	for _, style := range []string{gitstore.StyleMerge, gitstore.StyleSquash, gitstore.StyleRebase, gitstore.StyleRebaseMerge} {
		_, err := gitstore.Merge(ctx, m.bare, gitstore.MergeOptions{Style: style, Base: base, Head: head, Message: "x", Author: alice, Committer: alice})
		var ce *gitstore.ConflictError
		if !errors.As(err, &ce) || !reflect.DeepEqual(ce.Files, []string{"README.md", "b.txt"}) {
			t.Fatalf("%s: %v", style, err)
		}
	}
	// Unrelated histories are told apart.
	git(t, m.wt, "checkout", "-q", "--orphan", "other")
	git(t, m.wt, "commit", "-q", "--allow-empty", "-m", "Unrelated")
	git(t, m.bare, "fetch", "-q", m.wt, "refs/heads/other:refs/heads/other")
	other := git(t, m.wt, "rev-parse", "HEAD")
	if _, _, err := gitstore.MergeTree(ctx, m.bare, base, other); !errors.Is(err, gitstore.ErrUnrelated) {
		t.Fatalf("unrelated: %v", err)
	}
	if mb, err := gitstore.MergeBase(ctx, m.bare, base, other); err != nil || mb != "" {
		t.Fatalf("MergeBase of unrelated = %q %v", mb, err)
	}
}

func TestCompareFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newMergeRepo(t)
	big := ""
	for i := 0; i < 50; i++ {
		big += "a fairly long line of text that a rename keeps as it is\n"
	}
	m.commit("main", "Prepare", map[string]string{"old name.txt": big})
	from := git(t, m.bare, "rev-parse", "refs/heads/main")
	to := m.commit("main", "Change", map[string]string{
		"old name.txt": "", "new name.txt": big + "one more\n", "README.md": "# r\n\none\n2\nthree\n", "bin.dat": "\x00\x01\x02", "added.txt": "x\ny\n",
	})
	files, err := gitstore.CompareFiles(ctx, m.bare, from, to)
	if err != nil {
		t.Fatal(err)
	}
	want := []gitstore.FileChange{
		{Path: "README.md", OldPath: "README.md", Status: "modified", Additions: 1, Deletions: 1},
		{Path: "added.txt", OldPath: "added.txt", Status: "added", Additions: 2},
		{Path: "bin.dat", OldPath: "bin.dat", Status: "added", Binary: true},
		{Path: "new name.txt", OldPath: "old name.txt", Status: "renamed", Additions: 1},
	}
	if !reflect.DeepEqual(files, want) {
		t.Fatalf("files:\n%+v\nwant\n%+v", files, want)
	}
	patch, cut, err := gitstore.FilePatch(ctx, m.bare, from, to, files[3], 1<<20)
	if err != nil || cut || !strings.Contains(patch, "rename from old name.txt") || !strings.Contains(patch, "+one more") {
		t.Fatalf("rename patch (cut %v, %v):\n%s", cut, err, patch)
	}
	patch, cut, err = gitstore.FilePatch(ctx, m.bare, from, to, files[0], 40)
	if err != nil || !cut || len(patch) != 40 {
		t.Fatalf("cut patch = %q %v %v", patch, cut, err)
	}
}
