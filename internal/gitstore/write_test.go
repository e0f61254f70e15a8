package gitstore_test

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/gitstore"
)

// The plumbing writes, last commits and blame on a bare repository, with
// the git binary.

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestWriteFilesLastCommitsBlame(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "r.git")
	gitIn(t, "", "init", "-q", "--bare", dir)
	who := gitstore.Signature{Name: "Ada", Email: "ada@example.org", When: time.Unix(1700000000, 0)}
	write := func(parent, msg string, changes ...gitstore.FileWrite) string {
		t.Helper()
		id, err := gitstore.WriteFiles(ctx, dir, gitstore.WriteOptions{Parent: parent, Changes: changes, Message: msg, Author: who, Committer: who})
		if err != nil {
			t.Fatalf("write %q: %v", msg, err)
		}
		return id
	}
	// 1. A first commit, then one that adds, edits and deletes.
	c1 := write("", "first",
		gitstore.FileWrite{Op: gitstore.OpCreate, Path: "README.md", Content: []byte("a\nb\n")},
		gitstore.FileWrite{Op: gitstore.OpCreate, Path: "src/x.go", Content: []byte("x\n")},
		gitstore.FileWrite{Op: gitstore.OpCreate, Path: "old.txt", Content: []byte("old\n")})
	readme := gitIn(t, dir, "rev-parse", c1+":README.md")
	c2 := write(c1, "second",
		gitstore.FileWrite{Op: gitstore.OpUpdate, Path: "README.md", SHA: readme, Content: []byte("a\nb\nc\n")},
		gitstore.FileWrite{Op: gitstore.OpDelete, Path: "old.txt"})
	if got := gitIn(t, dir, "ls-tree", "-r", "--name-only", c2); got != "README.md\nsrc/x.go" {
		t.Fatalf("tree of the second commit: %q", got)
	}
	if got := gitIn(t, dir, "log", "--format=%an <%ae> %s", c2); got != "Ada <ada@example.org> second\nAda <ada@example.org> first" {
		t.Fatalf("history: %q", got)
	}
	// 2. Refusals name the file and leave nothing on a ref.
	for _, tc := range []struct {
		ch   gitstore.FileWrite
		want error
	}{
		{gitstore.FileWrite{Op: gitstore.OpCreate, Path: "README.md"}, gitstore.ErrFileExists},
		{gitstore.FileWrite{Op: gitstore.OpCreate, Path: "src"}, gitstore.ErrFileExists},
		{gitstore.FileWrite{Op: gitstore.OpCreate, Path: "README.md/x"}, gitstore.ErrFileExists},
		{gitstore.FileWrite{Op: gitstore.OpUpdate, Path: "nope.md", Content: []byte("x")}, gitstore.ErrFileMissing},
		{gitstore.FileWrite{Op: gitstore.OpUpdate, Path: "README.md", SHA: readme}, gitstore.ErrStaleFile},
		{gitstore.FileWrite{Op: gitstore.OpDelete, Path: "src"}, gitstore.ErrFileMissing},
	} {
		_, err := gitstore.WriteFiles(ctx, dir, gitstore.WriteOptions{Parent: c2, Changes: []gitstore.FileWrite{tc.ch}, Message: "x", Author: who, Committer: who})
		var fe *gitstore.FileError
		if !errors.As(err, &fe) || !errors.Is(err, tc.want) || fe.Path != tc.ch.Path {
			t.Errorf("%s %s: %v, want %v", tc.ch.Op, tc.ch.Path, err, tc.want)
		}
	}
	// 3. The last commit of each root entry, and blame by runs of lines.
	last, err := gitstore.LastCommits(ctx, dir, c2, "", []string{"README.md", "src"})
	if err != nil || last["README.md"].ID != c2 || last["src"].ID != c1 || last["src"].Message != "first" {
		t.Fatalf("last commits: %+v %v", last, err)
	}
	ranges, err := gitstore.Blame(ctx, dir, c2, "README.md")
	if err != nil || len(ranges) != 2 || ranges[0].Commit.ID != c1 || len(ranges[0].Lines) != 2 ||
		ranges[1].StartLine != 3 || ranges[1].Commit.ID != c2 || ranges[1].Lines[0] != "c" || ranges[1].Commit.Author.Name != "Ada" {
		t.Fatalf("blame: %+v %v", ranges, err)
	}
}
