// Package blocks is the node's IPFS blockstore of git objects. A block is a
// git object in its loose form, "<type> <size>\x00<content>", whose SHA-1
// is the object's git id; its CID is CIDv1 with the git-raw codec (0x78)
// and a sha1 multihash (0x11), as Kubo's ipld-git names git objects.
//
// A public git object up to 1 MiB is not stored again: an index records
// which repository holds it, and it is read from git and checked against
// its id when asked for (fromgit.go, gitindex.go). Other blocks are files
// under <dir>/<first two hex digits>/<the other 38 or 62>, written through
// a temporary file and renamed into place once their hash is checked, so a
// reader never sees a partial or wrong block. Only objects of public
// repositories are recorded or put here: what is here, the gateway serves.
//
// A git object whose loose form is over 1 MiB is also here as a UnixFS
// file of that form (unixfs.go), and a push of such objects has a
// manifest (manifest.go): blocks of sha2-256, under the 64 hex digits of
// their digest, each checked against it as a git object's is.
package blocks

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multihash"

	"github.com/dforge/dforge/internal/crash"
	"github.com/dforge/dforge/internal/gitstore"
)

// GitRaw is the multicodec of a git object in its loose form.
const GitRaw = 0x78

// ErrNotFound is returned for a block the store does not hold.
var ErrNotFound = errors.New("block not found")

// Store is a directory of blocks, and the queue of pushes whose objects
// are still to be stored (queue.go).
type Store struct {
	dir   string
	queue *queue
	index *gitIndex // public objects served from git (gitindex.go)
	// Reads from git (fromgit.go): a bound on those at once, and the
	// objects last read.
	gitReads  chan struct{}
	recent    recentObjects
	recentBig recentObjects // objects over ChunkSize, up to MaxFromGit
	closed    sync.Once     // the index is released once
}

// Open returns the blockstore in dir, creating it, and starts its queue's
// worker (log: where its failures go; nil is slog's default). Close stops
// it.
func Open(dir string, log *slog.Logger) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create blocks dir: %w", err)
	}
	if log == nil {
		log = slog.Default()
	}
	index, err := openGitIndex(filepath.Join(dir, gitIndexDir))
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, index: index, gitReads: make(chan struct{}, gitReadsAtOnce), recentBig: recentObjects{limit: MaxFromGit}}
	if err := s.startQueue(log); err != nil {
		index.close()
		return nil, err
	}
	return s, nil
}

// CIDForGitObject is the CID of the git object with the given hex SHA-1
// id; cid.Undef when id is not 40 hex digits.
func CIDForGitObject(id string) cid.Cid {
	digest, err := hex.DecodeString(id)
	if err != nil || len(digest) != sha1.Size {
		return cid.Undef
	}
	mh, err := multihash.Encode(digest, multihash.SHA1)
	if err != nil {
		return cid.Undef
	}
	return cid.NewCidV1(GitRaw, mh)
}

// digestOf returns the SHA-1 or SHA-256 digest a CID names, in hex. Blocks
// are found by multihash, as in any IPFS blockstore, so the same bytes
// asked for under another codec are found too; other hash functions are
// never here.
func digestOf(c cid.Cid) (string, bool) {
	if !c.Defined() {
		return "", false
	}
	dec, err := multihash.Decode(c.Hash())
	if err != nil {
		return "", false
	}
	switch {
	case dec.Code == multihash.SHA1 && len(dec.Digest) == sha1.Size,
		dec.Code == multihash.SHA2_256 && len(dec.Digest) == sha256.Size:
		return hex.EncodeToString(dec.Digest), true
	}
	return "", false
}

// Storable reports whether the store takes the block c: a git object
// (git-raw, sha1), or a big object's UnixFS chunk or node (raw, dag-pb) or
// a push's manifest (dag-cbor), with sha2-256. Nothing else is put here,
// nor asked of peers.
func Storable(c cid.Cid) bool {
	if !c.Defined() {
		return false
	}
	p := c.Prefix()
	switch p.Codec {
	case GitRaw:
		return p.MhType == multihash.SHA1 && p.MhLength == sha1.Size
	case cid.Raw, cid.DagProtobuf, cid.DagCBOR:
		return p.MhType == multihash.SHA2_256 && p.MhLength == sha256.Size
	}
	return false
}

// newHash is the hash function of a block named by a hex digest of its
// length: SHA-1 (40 digits) or SHA-256 (64).
func newHash(digest string) hash.Hash {
	if len(digest) == 2*sha256.Size {
		return sha256.New()
	}
	return sha1.New()
}

func (s *Store) path(digest string) string {
	return filepath.Join(s.dir, digest[:2], digest[2:])
}

// Has reports whether the block is stored, or is a public git object a
// repository here holds (read and checked against its id: a Has is a
// promise to send the bytes).
func (s *Store) Has(c cid.Cid) bool {
	d, ok := digestOf(c)
	if !ok {
		return false
	}
	if _, err := os.Stat(s.path(d)); err == nil {
		return true
	}
	_, ok = s.servedFromGit(d)
	return ok
}

// HasGitObject reports whether the git object with this id is stored.
func (s *Store) HasGitObject(id string) bool {
	return s.Has(CIDForGitObject(id))
}

// Open returns the block's bytes for reading, and their size: a block's
// file, or a public git object read from the repository that holds it.
func (s *Store) Open(c cid.Cid) (io.ReadCloser, int64, error) {
	d, ok := digestOf(c)
	if !ok {
		return nil, 0, ErrNotFound
	}
	f, err := os.Open(s.path(d))
	if errors.Is(err, os.ErrNotExist) {
		data, ok := s.servedFromGit(d)
		if !ok {
			return nil, 0, ErrNotFound
		}
		return io.NopCloser(bytes.NewReader(data)), int64(len(data)), nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("open block: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("stat block: %w", err)
	}
	return f, st.Size(), nil
}

// Get returns a whole block. Blocks can be as large as a git object; use
// Open to stream big ones.
func (s *Store) Get(c cid.Cid) ([]byte, error) {
	f, _, err := s.Open(c)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Put stores data as the block c after checking that data hashes to c.
// Only the kinds of block Storable names are taken.
func (s *Store) Put(c cid.Cid, data []byte) error {
	d, ok := digestOf(c)
	if !ok || !Storable(c) {
		return fmt.Errorf("put block %s: only git-raw sha1 blocks and raw, dag-pb and dag-cbor sha2-256 blocks are stored", c)
	}
	return s.write(d, bytes.NewReader(data))
}

// PutGitObject stores the loose form of a git object streamed from git,
// checking that it hashes to the object's id. A big one (IsBig) is stored
// as a UnixFS file too, before its git-raw block: an object whose block is
// here has its chunks here.
func (s *Store) PutGitObject(o gitstore.Object) error {
	return s.putGitObject(o, nil)
}

// putGitObject is PutGitObject, adding a big object's UnixFS root to m
// when m is not nil.
func (s *Store) putGitObject(o gitstore.Object, m *manifestBuilder) error {
	if !CIDForGitObject(o.ID).Defined() {
		return fmt.Errorf("put git object: bad id %q", o.ID)
	}
	body := looseReader(o)
	var chunks func(string) error
	if IsBig(o.Type, o.Size) {
		chunks = func(tmp string) error {
			root, err := s.putUnixFSFile(tmp)
			if err != nil {
				return fmt.Errorf("store object %s as UnixFS: %w", o.ID, err)
			}
			m.add(o.ID, root)
			return nil
		}
	}
	return s.writeThen(o.ID, body, chunks)
}

// write streams r into the block file named by its hex SHA-1 or SHA-256
// digest.
func (s *Store) write(digest string, r io.Reader) error {
	return s.writeThen(digest, r, nil)
}

// writeThen is write, calling before (when not nil) with the checked
// temporary file's path before it becomes the block.
func (s *Store) writeThen(digest string, r io.Reader, before func(tmp string) error) error {
	final := s.path(digest)
	if _, err := os.Stat(final); err == nil {
		return nil // blocks are immutable: a stored one is the same bytes
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("create block dir: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(final), ".put-")
	if err != nil {
		return fmt.Errorf("create block file: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	h := newHash(digest)
	_, err = io.Copy(io.MultiWriter(tmp, h), r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write block %s: %w", digest, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != digest {
		return fmt.Errorf("write block %s: content hashes to %s", digest, got)
	}
	if before != nil {
		if err := before(tmp.Name()); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return fmt.Errorf("store block %s: %w", digest, err)
	}
	crash.Point(crash.BlockStorage)
	return nil
}

// looseReader streams o's loose form, "<type> <size>\x00<content>",
// failing should git give other than o.Size bytes of content.
func looseReader(o gitstore.Object) io.Reader {
	header := o.Type + " " + strconv.FormatInt(o.Size, 10) + "\x00"
	return io.MultiReader(bytes.NewReader([]byte(header)), &exactReader{r: o.Body, left: o.Size, id: o.ID})
}

// exactReader fails unless exactly left bytes come from r, so a short
// object never becomes a block (its hash would fail anyway; this says why).
type exactReader struct {
	r    io.Reader
	left int64
	id   string
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.left == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > e.left {
		p = p[:e.left]
	}
	n, err := e.r.Read(p)
	e.left -= int64(n)
	if errors.Is(err, io.EOF) && e.left > 0 {
		return n, fmt.Errorf("object %s: %w", e.id, io.ErrUnexpectedEOF)
	}
	if e.left == 0 && errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}

// ImportObjects makes every object of the repository at dir reachable
// from include and not from exclude (git ids) served by the store, and
// returns how many it took. A small one is checked against its id and
// recorded as held by the repository (fromgit.go), which is cheap; a big
// one (IsBig) is stored as a block and a UnixFS file, streamed in order,
// never held whole. Objects the repository is recorded as holding, or
// whose block is stored, are skipped.
func (s *Store) ImportObjects(ctx context.Context, dir string, include, exclude []string) (int, error) {
	return s.importObjects(ctx, dir, include, exclude, nil)
}

// importObjects is ImportObjects, adding the UnixFS root of every big
// object among them to m when m is not nil, stored now or before.
func (s *Store) importObjects(ctx context.Context, dir string, include, exclude []string, m *manifestBuilder) (int, error) {
	x, err := s.newIndexer(dir)
	if err != nil {
		return 0, fmt.Errorf("import objects: %w", err)
	}
	n := 0
	var storedBig []string // big objects stored before: their roots are read back after the walk
	skip := func(id string) bool {
		size, ok := s.blockSize(id)
		if ok && size > MaxFromGit {
			if m != nil {
				storedBig = append(storedBig, id)
			}
			return true
		}
		// The block of an object served from git that an older store (or
		// a bitswap fetch) left is not skipped: recording it removes it.
		if ok || !x.indexed(id) {
			return false
		}
		if m == nil {
			return true
		}
		if root, big := s.index.root(id); big {
			m.add(id, root)
		}
		return true
	}
	err = gitstore.WalkObjects(ctx, dir, include, exclude, skip, func(o gitstore.Object) error {
		n++
		switch {
		case !fromGitSize(o.Type, o.Size):
			return s.putGitObject(o, m)
		case IsBig(o.Type, o.Size):
			return x.addBig(o, m)
		}
		return x.add(o)
	})
	if err == nil {
		err = x.flush()
	}
	if err == nil {
		err = s.addStoredRoots(storedBig, m)
	}
	if err != nil {
		return n, fmt.Errorf("import objects: %w", err)
	}
	return n, nil
}

// ImportRepository stores every object reachable from the repository's
// refs: for a repository made public, or created with a first commit.
func (s *Store) ImportRepository(ctx context.Context, dir string) (int, error) {
	refs, err := gitstore.Refs(ctx, dir)
	if err != nil {
		return 0, err
	}
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	return s.ImportObjects(ctx, dir, ids, nil)
}
