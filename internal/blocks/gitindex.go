package blocks

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/cockroachdb/pebble"
)

// gitIndex records which repositories hold each public git object served
// from git rather than stored as a block (objects up to MaxFromGit, in
// loose form), and where the chunks of a big one are in it: an embedded
// key-value store in <blocks>/.gitindex.
//
//	"o" <20-byte id> <4-byte repo number>   -> ""
//	"b" <20-byte id>                        -> a big object's UnixFS root (CID bytes)
//	"l" <32-byte sha2-256> <20-byte id>     -> the 4-byte number of that chunk in the object
//	"r" <4-byte repo number>                -> the repository's directory
//	"d" <directory>                         -> its 4-byte number
//	"n"                                     -> the last number given
//
// An entry is a few dozen bytes before compression where its block was
// a file of at least one filesystem block; the object's bytes are git's.
type gitIndex struct {
	mu     sync.RWMutex
	db     *pebble.DB // nil once closed
	repoMu sync.Mutex // numbering of directories
	path   string
	refs   int // Stores using it (openIndexes)
}

const gitIndexDir = ".gitindex"

// openIndexes shares one index among the Stores of a process opened on
// the same directory (pebble locks its directory; a restart within a
// process, as tests do, opens it again before the old Store closes).
var openIndexes = struct {
	sync.Mutex
	m map[string]*gitIndex
}{m: map[string]*gitIndex{}}

func openGitIndex(dir string) (*gitIndex, error) {
	path, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open git object index: %w", err)
	}
	openIndexes.Lock()
	defer openIndexes.Unlock()
	if x := openIndexes.m[path]; x != nil {
		x.refs++
		return x, nil
	}
	db, err := pebble.Open(path, &pebble.Options{Logger: quietPebble{}, MemTableSize: 1 << 20})
	if err != nil {
		return nil, fmt.Errorf("open git object index: %w", err)
	}
	x := &gitIndex{db: db, path: path, refs: 1}
	openIndexes.m[path] = x
	return x, nil
}

// close releases a Store's use of the index, closing it with the last.
func (x *gitIndex) close() error {
	openIndexes.Lock()
	x.refs--
	last := x.refs <= 0
	if last {
		delete(openIndexes.m, x.path)
	}
	openIndexes.Unlock()
	if !last {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.db == nil {
		return nil
	}
	err := x.db.Close()
	x.db = nil
	return err
}

var errIndexClosed = errors.New("git object index closed")

// repo returns the number of the repository at dir, giving it one (synced)
// when it has none.
func (x *gitIndex) repo(dir string) (uint32, error) {
	x.repoMu.Lock()
	defer x.repoMu.Unlock()
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.db == nil {
		return 0, errIndexClosed
	}
	v, ok, err := x.get(append([]byte("d"), dir...))
	switch {
	case err != nil:
		return 0, err
	case ok && len(v) != 4:
		return 0, fmt.Errorf("index entry of %s: %d bytes", dir, len(v))
	case ok:
		return binary.BigEndian.Uint32(v), nil
	}
	var n uint32
	if v, ok, err := x.get([]byte("n")); err != nil {
		return 0, err
	} else if ok && len(v) == 4 {
		n = binary.BigEndian.Uint32(v)
	}
	n++
	num := binary.BigEndian.AppendUint32(nil, n)
	b := x.db.NewBatch()
	b.Set([]byte("n"), num, nil)
	b.Set(append([]byte("d"), dir...), num, nil)
	b.Set(append([]byte("r"), num...), []byte(dir), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		return 0, fmt.Errorf("number repository %s: %w", dir, err)
	}
	return n, nil
}

// get reads key; x.mu is held.
func (x *gitIndex) get(key []byte) ([]byte, bool, error) {
	v, closer, err := x.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read git object index: %w", err)
	}
	defer closer.Close()
	return bytes.Clone(v), true, nil
}

func objectKey(digest []byte, repo uint32) []byte {
	k := append([]byte("o"), digest...)
	return binary.BigEndian.AppendUint32(k, repo)
}

// holds reports whether the repository numbered repo is recorded as
// holding the object.
func (x *gitIndex) holds(id string, repo uint32) bool {
	d, err := hex.DecodeString(id)
	if err != nil {
		return false
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.db == nil {
		return false
	}
	_, ok, _ := x.get(objectKey(d, repo))
	return ok
}

// add records that repo holds the objects ids and the big objects bigs
// (with their roots and chunks), synced to disk before it returns, so a
// job that leaves the journal after it loses nothing.
func (x *gitIndex) add(ids []string, bigs []bigObject, repo uint32) error {
	if len(ids) == 0 && len(bigs) == 0 {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.db == nil {
		return errIndexClosed
	}
	b := x.db.NewBatch()
	for _, id := range ids {
		d, err := hex.DecodeString(id)
		if err != nil {
			return fmt.Errorf("index object %q: %w", id, err)
		}
		b.Set(objectKey(d, repo), nil, nil)
	}
	for _, o := range bigs {
		b.Set(objectKey(o.id, repo), nil, nil)
		b.Set(append([]byte("b"), o.id...), o.root.Bytes(), nil)
		for n, sum := range o.chunks {
			b.Set(chunkKey(sum, o.id), binary.BigEndian.AppendUint32(nil, uint32(n)), nil)
		}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("index objects: %w", err)
	}
	return nil
}

// dirs lists the directories of the repositories recorded as holding the
// object with this SHA-1 digest.
func (x *gitIndex) dirs(digest []byte) []string {
	lower := append([]byte("o"), digest...)
	var out []string
	x.scan(lower, pastKeysOf(lower), func(k, _ []byte) bool {
		if len(k) != 1+len(digest)+4 {
			return true
		}
		if dir, ok, _ := x.get(append([]byte("r"), k[len(k)-4:]...)); ok {
			out = append(out, string(dir))
		}
		return true
	})
	return out
}

// scan calls fn with each key and value from lower up to upper, in order,
// under the index's read lock, until fn returns false. fn may call get.
func (x *gitIndex) scan(lower, upper []byte, fn func(k, v []byte) bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.db == nil {
		return
	}
	it, err := x.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		if !fn(it.Key(), it.Value()) {
			return
		}
	}
}

// pastKeysOf is a bound past every key that starts with prefix: what
// follows a digest in a key (a repository number, an object id) is at most
// 20 bytes.
func pastKeysOf(prefix []byte) []byte {
	return append(bytes.Clone(prefix), bytes.Repeat([]byte{0xff}, 21)...)
}

// each calls fn with the digest of every indexed object (prefix "o",
// 20-byte digests) or chunk (prefix "l", 32-byte ones) once, in order,
// until fn returns false. The index is read a page at a time, so a slow
// fn never holds it.
func (x *gitIndex) each(prefix byte, size int, fn func(digest []byte) bool) {
	after := []byte{prefix}
	for {
		page := x.page(prefix, size, after, 1024)
		for _, d := range page {
			if !fn(d) {
				return
			}
		}
		if len(page) == 0 {
			return
		}
		after = pastKeysOf(append([]byte{prefix}, page[len(page)-1]...))
	}
}

// page returns up to n digests of size bytes from the entries under
// prefix that sort at or after the key from.
func (x *gitIndex) page(prefix byte, size int, from []byte, n int) [][]byte {
	var out [][]byte
	x.scan(from, []byte{prefix + 1}, func(k, _ []byte) bool {
		if len(k) < 1+size {
			return true
		}
		d := k[1 : 1+size]
		if len(out) == 0 || !bytes.Equal(d, out[len(out)-1]) {
			out = append(out, bytes.Clone(d))
		}
		return len(out) < n
	})
	return out
}

// move records that the repository at from is now at to.
func (x *gitIndex) move(from, to string) error {
	x.repoMu.Lock()
	defer x.repoMu.Unlock()
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.db == nil {
		return errIndexClosed
	}
	num, ok, err := x.get(append([]byte("d"), from...))
	if err != nil || !ok {
		return err // a repository with nothing indexed
	}
	b := x.db.NewBatch()
	b.Delete(append([]byte("d"), from...), nil)
	b.Set(append([]byte("d"), to...), num, nil)
	b.Set(append([]byte("r"), num...), []byte(to), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("move repository %s in the git object index: %w", from, err)
	}
	return nil
}

// quietPebble drops pebble's informational logs; a fatal one still ends
// the process, as pebble requires.
type quietPebble struct{}

func (quietPebble) Infof(string, ...interface{}) {}
func (quietPebble) Fatalf(format string, args ...interface{}) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}
