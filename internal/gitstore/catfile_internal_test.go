package gitstore

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

func gitIn(t *testing.T, dir string, stdin []byte, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Blobs are read through one long-lived cat-file process, not one per
// read: objects written or repacked after it started included, a missing
// one read as empty without losing the process, and one over the pool's
// limit read by a process of its own.
func TestBlobsAreReadThroughThePool(t *testing.T) {
	SetCacheBytes(0) // every read reaches git
	defer SetCacheBytes(DefaultCacheBytes)
	StopBatches()
	dir := t.TempDir()
	gitIn(t, dir, nil, "init", "--bare", "-q")
	ctx := context.Background()
	started := func() int { batches.mu.Lock(); defer batches.mu.Unlock(); return batches.count }
	before := started()

	var ids []string
	for i := range 20 {
		ids = append(ids, gitIn(t, dir, []byte(strings.Repeat("line\n", i+1)), "hash-object", "-w", "--stdin"))
	}
	for i, id := range ids {
		data, err := ReadBlob(ctx, dir, id, 1<<20)
		if err != nil || string(data) != strings.Repeat("line\n", i+1) {
			t.Fatalf("blob %d: %q %v", i, data, err)
		}
	}
	later := gitIn(t, dir, []byte("written after the process started\n"), "hash-object", "-w", "--stdin")
	gitIn(t, dir, nil, "repack", "-a", "-d", "-q")
	gitIn(t, dir, nil, "prune-packed")
	for _, id := range []string{later, ids[3]} {
		if data, err := ReadBlob(ctx, dir, id, 100); err != nil || len(data) == 0 {
			t.Fatalf("blob %s after the repack: %q %v", id, data, err)
		}
	}
	missing := strings.Repeat("ab", 20)
	if data, err := ReadBlob(ctx, dir, missing, 100); err != nil || len(data) != 0 {
		t.Fatalf("missing blob: %q %v", data, err)
	}
	if n := started() - before; n != 1 {
		t.Fatalf("%d cat-file processes started for 24 reads, want 1", n)
	}

	big := bytes.Repeat([]byte("0123456789abcdef"), (maxBatchRead/16)+1)
	bigID := gitIn(t, dir, big, "hash-object", "-w", "--stdin")
	if data, err := ReadBlob(ctx, dir, bigID, 32); err != nil || !bytes.Equal(data, big[:32]) {
		t.Fatalf("big blob head: %q %v", data, err)
	}
	b, err := OpenBlob(ctx, dir, bigID)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	got.ReadFrom(b)
	b.Close()
	if !bytes.Equal(got.Bytes(), big) {
		t.Fatalf("big blob streamed: %d bytes, want %d", got.Len(), len(big))
	}

	// Many readers at once share at most batchesPerRepo processes: a
	// read beyond them waits for one rather than starting and stopping
	// its own.
	before = started()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data, err := ReadBlob(ctx, dir, ids[i], 1<<20)
			if err == nil && string(data) != strings.Repeat("line\n", i+1) {
				err = context.Canceled
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent read: %v", err)
	}
	batches.mu.Lock()
	idle, live := len(batches.idle[dir]), batches.live
	batches.mu.Unlock()
	if idle > batchesPerRepo || live > maxBatches {
		t.Fatalf("%d idle, %d live processes", idle, live)
	}
	if n := started() - before; n > batchesPerRepo {
		t.Fatalf("%d cat-file processes started for 16 reads at once, want at most %d", n, batchesPerRepo)
	}
	StopBatches()
	batches.mu.Lock()
	live = batches.live
	batches.mu.Unlock()
	if live != 0 {
		t.Fatalf("%d processes left after StopBatches", live)
	}
}
