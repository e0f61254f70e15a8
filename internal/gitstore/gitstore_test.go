package gitstore_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/gitstore"
)

const owner = "0x52908400098527886e0f7030069857d2e4169ee7"

func open(t *testing.T) *gitstore.Store {
	t.Helper()
	s, err := gitstore.Open(filepath.Join(t.TempDir(), "git"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := tryGit(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

func tryGit(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(gitstore.CleanEnv(os.Environ()), "GIT_CONFIG_NOSYSTEM=1", "HOME="+os.TempDir(),
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.org")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

var alice = gitstore.Signature{Name: "alice", Email: "alice@example.org", When: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}

func TestCreateWithREADME(t *testing.T) {
	t.Parallel()
	s := open(t)
	ctx := context.Background()
	path, err := s.Create(ctx, owner, "42", gitstore.CreateOptions{DefaultBranch: "trunk", README: []byte("# Hello\n"), Author: alice})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(s.Root(), owner, "42.git"); path != want {
		t.Fatalf("path %s, want %s", path, want)
	}
	if got := git(t, path, "symbolic-ref", "HEAD"); got != "refs/heads/trunk" {
		t.Fatalf("HEAD -> %s", got)
	}
	if got := git(t, path, "show", "trunk:README.md"); got != "# Hello" {
		t.Fatalf("README = %q", got)
	}
	if got := git(t, path, "log", "-1", "--format=%an <%ae> %at %cn %s"); got != "alice <alice@example.org> 1893553445 alice Initial commit" {
		t.Fatalf("first commit: %s", got)
	}
	if got := git(t, path, "config", "core.hooksPath"); got != s.HooksDir() {
		t.Fatalf("hooksPath %s", got)
	}
	if got := git(t, path, "config", "--bool", "core.bare"); got != "true" {
		t.Fatal("not bare")
	}
	if !s.Exists(owner, "42") {
		t.Fatal("Exists says no")
	}
	// Nothing temporary is left beside it.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("owner dir holds %v", entries)
	}
}

func TestCreateEmptyAndRefusals(t *testing.T) {
	t.Parallel()
	s := open(t)
	ctx := context.Background()
	path, err := s.Create(ctx, owner, "1", gitstore.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, path, "symbolic-ref", "HEAD"); got != "refs/heads/main" {
		t.Fatalf("default branch %s", got)
	}
	if out, _ := tryGit(path, "for-each-ref"); strings.TrimSpace(out) != "" {
		t.Fatalf("an empty repository has refs: %s", out)
	}
	if _, err := s.Create(ctx, owner, "1", gitstore.CreateOptions{}); !errors.Is(err, gitstore.ErrExists) {
		t.Fatalf("second create: %v", err)
	}
	for _, bad := range [][2]string{{"../x", "1"}, {owner, "../../x"}, {owner, "a/b"}, {"", "1"}, {owner, ""}, {"Owner", "1"}, {".hooks", "1"}, {owner, ".."}} {
		if _, err := s.Create(ctx, bad[0], bad[1], gitstore.CreateOptions{}); err == nil {
			t.Errorf("Create(%q, %q) succeeded", bad[0], bad[1])
		}
	}
	if _, err := s.Create(ctx, owner, "2", gitstore.CreateOptions{DefaultBranch: "../evil"}); err == nil {
		t.Error("a bad branch name was accepted")
	}
	if _, err := s.Create(ctx, owner, "3", gitstore.CreateOptions{README: []byte("x")}); err == nil {
		t.Error("a README without an author was accepted")
	}
	if s.Exists(owner, "3") {
		t.Error("a failed create left a repository")
	}
}

func TestForkOutlivesItsSource(t *testing.T) {
	t.Parallel()
	s := open(t)
	ctx := context.Background()
	src, err := s.Create(ctx, owner, "src", gitstore.CreateOptions{README: []byte("# Source\n"), Author: alice})
	if err != nil {
		t.Fatal(err)
	}
	git(t, src, "update-ref", "refs/heads/feature", "main")
	head := git(t, src, "rev-parse", "main")
	fork, err := s.Fork(ctx, src, "0xb0b", "fork")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(fork, "objects", "info", "alternates")); err == nil {
		t.Fatal("the fork borrows objects through alternates")
	}
	if out, _ := tryGit(fork, "config", "--get-regexp", "^remote\\."); strings.TrimSpace(out) != "" {
		t.Fatalf("the fork keeps a remote: %s", out)
	}
	if got := git(t, fork, "config", "core.hooksPath"); got != s.HooksDir() {
		t.Fatalf("fork hooksPath %s", got)
	}
	if err := s.Delete(ctx, owner, "src"); err != nil {
		t.Fatal(err)
	}
	if s.Exists(owner, "src") {
		t.Fatal("deleted source still exists")
	}
	git(t, fork, "fsck", "--no-progress")
	if got := git(t, fork, "rev-parse", "main", "feature"); got != head+"\n"+head {
		t.Fatalf("fork refs: %s", got)
	}
	if got := git(t, fork, "show", "main:README.md"); got != "# Source" {
		t.Fatalf("fork README %q", got)
	}
	if err := s.Delete(ctx, owner, "src"); !errors.Is(err, gitstore.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := s.Fork(ctx, filepath.Join(s.Root(), "nope.git"), owner, "x"); !errors.Is(err, gitstore.ErrNotFound) {
		t.Fatalf("fork of nothing: %v", err)
	}
}

func TestHooksRefuseAPushThatBypassesTheNode(t *testing.T) {
	t.Parallel()
	s := open(t)
	ctx := context.Background()
	bare, err := s.Create(ctx, owner, "r", gitstore.CreateOptions{README: []byte("x\n"), Author: alice})
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "w")
	git(t, "", "clone", "--quiet", bare, work)
	os.WriteFile(filepath.Join(work, "y"), []byte("y"), 0o644)
	git(t, work, "add", "y")
	git(t, work, "commit", "--quiet", "-m", "y")
	out, err := tryGit(work, "push", "origin", "main")
	if err == nil || !strings.Contains(out, "pushes go through the node's git server") {
		t.Fatalf("a direct push: err %v\n%s", err, out)
	}
}

func TestWalkObjects(t *testing.T) {
	t.Parallel()
	s := open(t)
	ctx := context.Background()
	bare, err := s.Create(ctx, owner, "w", gitstore.CreateOptions{README: []byte("readme\n"), Author: alice})
	if err != nil {
		t.Fatal(err)
	}
	first := git(t, bare, "rev-parse", "main")
	// A second commit with a big blob, written with plumbing.
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	blobCmd := exec.Command("git", "hash-object", "-w", "--stdin")
	blobCmd.Dir, blobCmd.Stdin = bare, bytes.NewReader(big)
	blobOut, err := blobCmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	blob := strings.TrimSpace(string(blobOut))
	mktree := exec.Command("git", "mktree")
	mktree.Dir, mktree.Stdin = bare, strings.NewReader("100644 blob "+blob+"\tbig.bin\n")
	treeOut, err := mktree.Output()
	if err != nil {
		t.Fatal(err)
	}
	second := git(t, bare, "commit-tree", strings.TrimSpace(string(treeOut)), "-p", first, "-m", "big")

	seen := map[string]gitstore.Object{}
	var bigBody []byte
	err = gitstore.WalkObjects(ctx, bare, []string{second}, []string{first}, nil, func(o gitstore.Object) error {
		body, err := io.ReadAll(o.Body)
		if err != nil {
			return err
		}
		if int64(len(body)) != o.Size {
			t.Errorf("%s: %d bytes, header says %d", o.ID, len(body), o.Size)
		}
		if o.ID == blob {
			bigBody = body
		}
		seen[o.ID] = o
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The new commit, its tree and the blob; nothing of the first commit.
	if len(seen) != 3 || seen[second].Type != "commit" || seen[blob].Type != "blob" || !bytes.Equal(bigBody, big) {
		t.Fatalf("walked %d objects: %+v", len(seen), seen)
	}
	// skip leaves objects out; an error from fn stops the walk.
	n := 0
	err = gitstore.WalkObjects(ctx, bare, []string{second}, nil, func(id string) bool { return id == blob }, func(o gitstore.Object) error {
		n++
		return nil
	})
	if err != nil || n != 5 {
		t.Fatalf("walk with skip: %d objects, err %v", n, err)
	}
	stop := errors.New("stop")
	err = gitstore.WalkObjects(ctx, bare, []string{second}, nil, nil, func(gitstore.Object) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("stopped walk: %v", err)
	}
	if err := gitstore.WalkObjects(ctx, bare, []string{strings.Repeat("1", 40)}, nil, nil, func(gitstore.Object) error { return nil }); err == nil {
		t.Fatal("walking from a missing object succeeded")
	}
}
