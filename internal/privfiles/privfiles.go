// Package privfiles keeps private repositories' files (release assets, Git
// LFS objects) on this node only: plain files under the data directory,
// named by the SHA-256 of their bytes. Unlike the blockstore, nothing here
// is served by the IPFS gateway or announced over bitswap; the download
// routes, which check read permission, are the only way out.
package privfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrTooLarge is a file over the limit it was put with.
var ErrTooLarge = errors.New("privfiles: the file is over its size limit")

// ErrNotFound is a digest with no file here.
var ErrNotFound = errors.New("privfiles: no such file")

// Store is a directory of files by digest: <dir>/<2 hex>/<64 hex>.
type Store struct {
	dir string
}

// File is a stored file: its size and SHA-256 (hex).
type File struct {
	Size   int64
	SHA256 string
}

// Open makes (if needed) and opens the store in dir. Temporary files left
// by a crash are uploads never acknowledged: they go.
func Open(dir string) (*Store, error) {
	if err := os.RemoveAll(filepath.Join(dir, "tmp")); err != nil {
		return nil, fmt.Errorf("clear the private files' temporary directory: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o700); err != nil {
		return nil, fmt.Errorf("make the private files directory: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Pending is a file written and synced under a temporary name: Keep
// places it under its digest, Drop removes it.
type Pending struct {
	File
	s   *Store
	tmp string
}

// Write stores r, of at most limit bytes, in a temporary file, synced.
// Past the limit it stops with ErrTooLarge and keeps nothing. The caller
// Keeps or Drops the result.
func (s *Store) Write(r io.Reader, limit int64) (*Pending, error) {
	tmp, err := os.CreateTemp(filepath.Join(s.dir, "tmp"), "put-*")
	if err != nil {
		return nil, fmt.Errorf("make a temporary file: %w", err)
	}
	f, err := copyHashed(tmp, r, limit)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close the temporary file: %w", cerr)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return &Pending{File: f, s: s, tmp: tmp.Name()}, nil
}

// Keep renames the file to its digest and syncs the directory: once Keep
// returns, a crash loses nothing. The same bytes stored before are simply
// replaced by themselves.
func (p *Pending) Keep() error {
	return p.s.place(p.tmp, p.SHA256)
}

// Drop removes a file not kept; after Keep it does nothing.
func (p *Pending) Drop() {
	os.Remove(p.tmp)
}

// copyHashed writes r (at most limit bytes) to w, synced, hashing it.
func copyHashed(w *os.File, r io.Reader, limit int64) (File, error) {
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(r, limit+1))
	if err != nil {
		return File{}, fmt.Errorf("write the file: %w", err)
	}
	if n > limit {
		return File{}, ErrTooLarge
	}
	if err := w.Sync(); err != nil {
		return File{}, fmt.Errorf("sync the file: %w", err)
	}
	return File{Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// place renames a synced temporary file to its digest's path.
func (s *Store) place(tmp, digest string) error {
	dst := s.path(digest)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("make the file's directory: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("place the file: %w", err)
	}
	return syncDir(filepath.Dir(dst))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// Open opens the file with the given digest.
func (s *Store) Open(digest string) (*os.File, error) {
	if !isDigest(digest) {
		return nil, ErrNotFound
	}
	f, err := os.Open(s.path(digest))
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("open private file: %w", err)
	}
	return f, nil
}

// Remove deletes the file with the given digest; a missing one is no error.
func (s *Store) Remove(digest string) error {
	if !isDigest(digest) {
		return nil
	}
	if err := os.Remove(s.path(digest)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove private file: %w", err)
	}
	return nil
}

func (s *Store) path(digest string) string {
	return filepath.Join(s.dir, digest[:2], digest)
}

// isDigest keeps paths inside the store: 64 lower-case hex digits only.
func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
