package codesearch

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// After a large indexing the worker merges the index into one segment,
// and every document is still found; a few writes more do not start
// another merge.
func TestALargeIndexingIsMergedIntoOneSegment(t *testing.T) {
	s, err := Open(Config{Dir: filepath.Join(t.TempDir(), "cs")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	stat := func(name string) uint64 {
		st, _ := s.idx.StatsMap()["index"].(map[string]any)
		n, _ := st[name].(uint64)
		return n
	}
	segments := func() (files, memory uint64) {
		return stat("num_root_filesegments"), stat("num_root_memorysegments")
	}
	merged := func() uint64 { return stat("TotFileMergeForceOpsCompleted") }
	// Each batch is written to disk before the next (scorch does it in the
	// background).
	write := func(from, to int) {
		t.Helper()
		b := s.idx.NewBatch()
		for i := from; i < to; i++ {
			p := fmt.Sprintf("pkg/file%d.go", i)
			if err := b.Index(docID(1, p), doc{RepoID: "1", Repo: "a/b", Path: p, Language: "Go", Content: p + "\npackage pkg // chisel"}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.batch(b); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the batch written to disk", func() bool { _, m := segments(); return m == 0 })
	}
	for i := range 5 {
		write(i*300, (i+1)*300)
	}
	if merged() != 0 {
		t.Fatal("merged before compact")
	}

	s.compact(ctx)
	waitFor(t, "the merge", func() bool { f, _ := segments(); return merged() == 1 && f == 1 && !s.merging.Load() })
	if n, err := s.count(ctx, termQuery("content", "chisel")); err != nil || n != 1500 {
		t.Fatalf("after the merge %d documents found, want 1500 (%v)", n, err)
	}

	write(1500, 1510)
	s.compact(ctx)
	if s.merging.Load() || merged() != 1 {
		t.Fatal("10 documents more started another merge")
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 30 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
