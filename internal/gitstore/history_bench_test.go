package gitstore

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// BenchmarkCommitPage reads a page of 50 commits with their files (the
// commits API's default) from a history of 3,000, at page 1 and page 40:
// assembled from the cache's parts (warm, and cold after a push emptied
// nothing but the cache), against git log --skip and diff-tree (the code
// before) in the same run. make bench-git-read runs it.
func BenchmarkCommitPage(b *testing.B) {
	dir := b.TempDir()
	if out, err := exec.Command("git", "init", "--bare", "-q", dir).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v %s", err, out)
	}
	var stream strings.Builder
	for i := 1; i <= 3000; i++ {
		content := fmt.Sprintf("line %d\n", i)
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter A <a@example.org> %d +0000\ndata <<EOM\nChange %d\nEOM\n", 1700000000+i, i)
		fmt.Fprintf(&stream, "M 100644 inline file%d.txt\ndata %d\n%s\n", i%40, len(content), content)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v %s", err, out)
	}
	tip, err := exec.Command("git", "-C", dir, "rev-parse", "main").Output()
	if err != nil {
		b.Fatal(err)
	}
	commit := strings.TrimSpace(string(tip))
	ctx := context.Background()
	defer StopBatches()
	defer SetCacheBytes(DefaultCacheBytes)
	for _, page := range []int{1, 40} {
		o := LogOptions{Skip: (page - 1) * 50, Limit: 50, Files: true}
		read := func(b *testing.B, fn func() ([]Commit, error)) {
			for b.Loop() {
				if list, err := fn(); err != nil || len(list) != 50 {
					b.Fatalf("%d commits, %v", len(list), err)
				}
			}
		}
		b.Run(fmt.Sprintf("page-%d/cached-parts-warm", page), func(b *testing.B) {
			SetCacheBytes(DefaultCacheBytes)
			read(b, func() ([]Commit, error) { return Log(ctx, dir, commit, o) })
		})
		b.Run(fmt.Sprintf("page-%d/cached-parts-cold", page), func(b *testing.B) {
			read(b, func() ([]Commit, error) {
				SetCacheBytes(DefaultCacheBytes) // empties it
				return Log(ctx, dir, commit, o)
			})
		})
		b.Run(fmt.Sprintf("page-%d/git-log-skip", page), func(b *testing.B) {
			read(b, func() ([]Commit, error) { return logGit(ctx, dir, commit, o) })
		})
	}
}
