package gitstore

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// historyRepo makes a history with what git log's reading must survive:
// a merge, authors in three time zones, a message with a body and
// trailing newlines, an empty commit, a commit with a signature header
// (written by hand: gpg is not needed to store one) and a commit whose
// message is in Latin-1. It returns the tip.
func historyRepo(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	gitIn(t, dir, nil, "init", "-q", "-b", "main")
	gitIn(t, dir, nil, "config", "user.email", "a@example.org")
	gitIn(t, dir, nil, "config", "user.name", "A")
	commit := func(file, content, message, date string) {
		writeFile(t, dir, file, content)
		gitIn(t, dir, nil, "add", ".")
		gitIn(t, dir, nil, "-c", "user.name=Ann Example", "commit", "-q", "--date", date, "-m", message)
	}
	commit("README.md", "hello\n", "First", "2024-01-01T10:00:00+00:00")
	commit("src/a.go", "package a\n", "Add a\n\nWith a body\nover two lines.\n\n\n", "2024-01-02T10:00:00-05:30")
	gitIn(t, dir, nil, "checkout", "-q", "-b", "side")
	commit("src/b.go", "package b\n", "Add b on a side", "2024-01-03T10:00:00+09:00")
	gitIn(t, dir, nil, "checkout", "-q", "main")
	commit("README.md", "hello again\n", "Edit the readme", "2024-01-04T10:00:00+00:00")
	gitIn(t, dir, nil, "merge", "-q", "--no-ff", "-m", "Merge side", "side")
	gitIn(t, dir, nil, "commit", "-q", "--allow-empty", "-m", "Empty")
	gitIn(t, dir, []byte("Caf\xe9 au lait\n"), "-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "--allow-empty", "-F", "-")
	tip := gitIn(t, dir, nil, "rev-parse", "HEAD")
	tree := gitIn(t, dir, nil, "rev-parse", "HEAD^{tree}")
	signed := "tree " + tree + "\nparent " + tip + "\nauthor Sig Ner <s@example.org> 1704400000 +0100\ncommitter Sig Ner <s@example.org> 1704400000 +0100\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n abcdef\n -----END PGP SIGNATURE-----\n\nSigned\n"
	tip = gitIn(t, dir, []byte(signed), "hash-object", "-t", "commit", "-w", "--stdin")
	gitIn(t, dir, nil, "update-ref", "refs/heads/main", tip)
	return dir, tip
}

// Every page, with and without files and a path, reads the same as git
// log gives it; a commit whose message git re-encodes is read by git log.
func TestHistoryPagesReadAsGitLogDoes(t *testing.T) {
	dir, tip := historyRepo(t)
	ctx := context.Background()
	for _, path := range []string{"", "src", "README.md", "missing"} {
		want, err := logGit(ctx, dir, tip, LogOptions{Path: path, Files: true})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := Count(ctx, dir, tip, path); err != nil || n != len(want) {
			t.Fatalf("count of %q: %d %v, want %d", path, n, err, len(want))
		}
		for _, limit := range []int{1, 2, 3} {
			for skip := 0; skip <= len(want); skip++ {
				for _, files := range []bool{false, true} {
					o := LogOptions{Path: path, Skip: skip, Limit: limit, Files: files}
					expect, err := logGit(ctx, dir, tip, o)
					if err != nil {
						t.Fatal(err)
					}
					got, err := Log(ctx, dir, tip, o)
					if err != nil {
						t.Fatalf("log %+v: %v", o, err)
					}
					if len(got) != len(expect) || (len(got) > 0 && !reflect.DeepEqual(got, expect)) {
						t.Fatalf("log %+v:\n got %+v\nwant %+v", o, got, expect)
					}
				}
			}
		}
	}
	latin := gitIn(t, dir, nil, "rev-parse", "HEAD~1")
	if _, err := commitObject(ctx, dir, latin); !errors.Is(err, errNotPageable) {
		t.Fatalf("a Latin-1 commit: %v, want errNotPageable", err)
	}
	one, err := CommitByID(ctx, dir, latin)
	if err != nil || !strings.HasPrefix(one.Message, "Caf\u00e9") {
		t.Fatalf("the Latin-1 commit by id: %q %v", one.Message, err)
	}
}

// Once read, a page and its count need no git at all: deep pages no
// longer start a git log that walks every commit before them.
func TestAReadPageOfHistoryStartsNoGit(t *testing.T) {
	StopBatches()
	dir, tip := historyRepo(t)
	ctx := context.Background()
	first, err := Log(ctx, dir, tip, LogOptions{Skip: 3, Limit: 2, Files: true})
	if err != nil || len(first) != 2 {
		t.Fatalf("page: %d commits, %v", len(first), err)
	}
	if _, err := Count(ctx, dir, tip, ""); err != nil {
		t.Fatal(err)
	}
	StopBatches()
	t.Setenv("PATH", t.TempDir()) // no git to start
	again, err := Log(ctx, dir, tip, LogOptions{Skip: 3, Limit: 2, Files: true})
	if err != nil || !reflect.DeepEqual(again, first) {
		t.Fatalf("the page again, without git: %+v %v", again, err)
	}
	if n, err := Count(ctx, dir, tip, ""); err != nil || n != 8 {
		t.Fatalf("the count again, without git: %d %v", n, err)
	}
}
