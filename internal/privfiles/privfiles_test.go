package privfiles_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/privfiles"
)

// A kept file opens by its digest; a dropped or too large one leaves
// nothing, not even a temporary file; removal is idempotent.
func TestWriteKeepOpenRemove(t *testing.T) {
	dir := t.TempDir()
	s, err := privfiles.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("private bytes")
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	p, err := s.Write(bytes.NewReader(data), int64(len(data)))
	if err != nil || p.SHA256 != digest || p.Size != int64(len(data)) {
		t.Fatalf("Write: %+v %v", p, err)
	}
	if _, err := s.Open(digest); !errors.Is(err, privfiles.ErrNotFound) {
		t.Fatalf("a file not kept opens: %v", err)
	}
	if err := p.Keep(); err != nil {
		t.Fatal(err)
	}
	p.Drop()
	f, err := s.Open(digest)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(got, data) {
		t.Fatalf("read back %q", got)
	}

	if _, err := s.Write(strings.NewReader("12345"), 4); !errors.Is(err, privfiles.ErrTooLarge) {
		t.Fatalf("a file over its limit: %v", err)
	}
	q, err := s.Write(strings.NewReader("dropped"), 100)
	if err != nil {
		t.Fatal(err)
	}
	q.Drop()
	if left, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(left) != 0 {
		t.Fatalf("temporary files left: %d", len(left))
	}
	if _, err := s.Open(q.SHA256); !errors.Is(err, privfiles.ErrNotFound) {
		t.Fatalf("a dropped file opens: %v", err)
	}
	if _, err := s.Open("../../etc/passwd"); !errors.Is(err, privfiles.ErrNotFound) {
		t.Fatalf("a path outside the store: %v", err)
	}
	for range 2 {
		if err := s.Remove(digest); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Open(digest); !errors.Is(err, privfiles.ErrNotFound) {
		t.Fatalf("a removed file opens: %v", err)
	}
}
