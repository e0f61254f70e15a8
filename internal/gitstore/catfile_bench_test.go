package gitstore

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// BenchmarkBlobRead reads one blob, with the browse cache off, through the
// pool of cat-file processes and, as the yardstick in the same run, by a
// `git cat-file blob` started per read (what every raw file did before).
// make bench-git-read runs it.
func BenchmarkBlobRead(b *testing.B) {
	dir := b.TempDir()
	if out, err := exec.Command("git", "init", "--bare", "-q", dir).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v %s", err, out)
	}
	cmd := exec.Command("git", "hash-object", "-w", "--stdin")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Repeat("# README\nsome text\n", 200))
	out, err := cmd.Output()
	if err != nil {
		b.Fatal(err)
	}
	id := strings.TrimSpace(string(out))
	SetCacheBytes(0)
	defer SetCacheBytes(DefaultCacheBytes)
	defer StopBatches()
	ctx := context.Background()
	b.Run("pool", func(b *testing.B) {
		for b.Loop() {
			if _, err := ReadBlob(ctx, dir, id, 1<<20); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("process-per-read", func(b *testing.B) {
		for b.Loop() {
			c := Command(ctx, dir, "cat-file", "blob", id)
			if _, err := c.Output(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
