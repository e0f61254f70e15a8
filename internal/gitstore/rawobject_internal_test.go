package gitstore

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// ReadObject reads any type through the pool, a missing object as
// ErrNoObject without losing the process, and one over the pool's limit
// through a process of its own, up to the limit given.
func TestReadObject(t *testing.T) {
	StopBatches()
	dir := t.TempDir()
	gitIn(t, dir, nil, "init", "--bare", "-q")
	ctx := context.Background()
	blob := gitIn(t, dir, []byte("hello\n"), "hash-object", "-w", "--stdin")
	tree := gitIn(t, dir, []byte("100644 blob "+blob+"\thello.txt\n"), "mktree")
	big := bytes.Repeat([]byte("0123456789abcdef"), (maxBatchRead/16)+1)
	bigID := gitIn(t, dir, big, "hash-object", "-w", "--stdin")

	typ, content, err := ReadObject(ctx, dir, blob, 1<<20)
	if err != nil || typ != "blob" || string(content) != "hello\n" {
		t.Fatalf("blob: %s %q %v", typ, content, err)
	}
	typ, content, err = ReadObject(ctx, dir, tree, 1<<20)
	if err != nil || typ != "tree" || !bytes.Contains(content, []byte("hello.txt\x00")) {
		t.Fatalf("tree: %s %q %v", typ, content, err)
	}
	if _, _, err := ReadObject(ctx, dir, strings.Repeat("ab", 20), 1<<20); !errors.Is(err, ErrNoObject) {
		t.Fatalf("missing object: %v", err)
	}
	typ, content, err = ReadObject(ctx, dir, bigID, int64(len(big)))
	if err != nil || typ != "blob" || !bytes.Equal(content, big) {
		t.Fatalf("big blob: %s, %d bytes, %v", typ, len(content), err)
	}
	if _, _, err := ReadObject(ctx, dir, bigID, int64(len(big))-1); !errors.Is(err, ErrNoObject) {
		t.Fatalf("a big blob over the limit: %v", err)
	}
	if _, _, err := ReadObject(ctx, dir, "abc", 10); err == nil {
		t.Fatal("a short id was read")
	}
}
