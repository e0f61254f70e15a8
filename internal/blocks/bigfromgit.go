package blocks

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/gitstore"
)

// Big public objects (over ChunkSize, up to MaxFromGit in loose form) are
// served from git too. Their UnixFS file's chunks are slices of the loose
// form, so only the file's dag-pb nodes (a few hundred bytes per 174
// chunks) are stored; the index records the object's root and, for each
// chunk's sha2-256, the object and the chunk's number in it. A chunk is
// answered by reading the object from git (kept a little while, as
// bitswap asks for the chunks of one file together), checked against
// its git id, and the slice checked against the chunk's CID.

// MaxFromGit bounds the loose size of an object served from git: one is
// held whole in memory while its chunks are asked for. Bigger objects keep
// their block and chunks in the store.
const MaxFromGit = 64 << 20

// bigObject is what the index records of a big object served from git.
type bigObject struct {
	id     []byte     // the git id's 20 bytes
	root   cid.Cid    // its UnixFS file
	chunks [][32]byte // each chunk's sha2-256, in order
}

func chunkKey(sum [32]byte, id []byte) []byte {
	return append(append([]byte("l"), sum[:]...), id...)
}

// chunkRef places a chunk: the object holding it and its number there.
type chunkRef struct {
	id string // hex
	n  uint32
}

// chunks lists the objects recorded as holding the chunk with this
// sha2-256.
func (x *gitIndex) chunks(sum [32]byte) []chunkRef {
	lower := append([]byte("l"), sum[:]...)
	var out []chunkRef
	x.scan(lower, pastKeysOf(lower), func(k, v []byte) bool {
		if len(k) == len(lower)+sha1.Size && len(v) == 4 {
			out = append(out, chunkRef{id: hex.EncodeToString(k[len(lower):]), n: binary.BigEndian.Uint32(v)})
		}
		return true
	})
	return out
}

// root returns the UnixFS root recorded for the big object id.
func (x *gitIndex) root(id string) (cid.Cid, bool) {
	d, err := hex.DecodeString(id)
	if err != nil {
		return cid.Undef, false
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.db == nil {
		return cid.Undef, false
	}
	v, ok, _ := x.get(append([]byte("b"), d...))
	if !ok {
		return cid.Undef, false
	}
	c, err := cid.Cast(v)
	return c, err == nil
}

// chunkFromGit returns the chunk with this hex sha2-256 digest, sliced
// from a big object that git holds, checked.
func (s *Store) chunkFromGit(digest string) ([]byte, bool) {
	raw, err := hex.DecodeString(digest)
	if err != nil || len(raw) != sha256.Size {
		return nil, false
	}
	sum := [32]byte(raw)
	for _, ref := range s.index.chunks(sum) {
		loose, ok := s.fromGit(ref.id)
		start := int64(ref.n) * ChunkSize
		if !ok || start >= int64(len(loose)) {
			continue
		}
		chunk := loose[start:min(start+ChunkSize, int64(len(loose)))]
		if sha256.Sum256(chunk) == sum {
			return chunk, true
		}
	}
	return nil, false
}

// servedFromGit reads a block the store does not keep as a file: a git
// object (a SHA-1 digest) or a big object's chunk (a sha2-256 one).
func (s *Store) servedFromGit(digest string) ([]byte, bool) {
	if len(digest) == 2*sha256.Size {
		return s.chunkFromGit(digest)
	}
	return s.fromGit(digest)
}

// addBig checks a big object and builds its UnixFS file, storing only the
// file's dag-pb nodes; the object, its root and its chunks are recorded
// at the next flush. Block files an older store (or a bitswap fetch) left
// for it or its chunks are removed after that.
func (x *indexer) addBig(o gitstore.Object, m *manifestBuilder) error {
	id, err := hex.DecodeString(o.ID)
	if err != nil {
		return fmt.Errorf("index object %q: %w", o.ID, err)
	}
	h := sha1.New()
	sums := &chunkSums{}
	root, err := buildUnixFS(io.TeeReader(looseReader(o), io.MultiWriter(h, sums)), storeDAG{s: x.s, nodesOnly: true})
	if err != nil {
		return fmt.Errorf("store object %s as UnixFS: %w", o.ID, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != o.ID {
		return fmt.Errorf("object %s in git hashes to %s", o.ID, got)
	}
	big := bigObject{id: id, root: root, chunks: sums.finish()}
	x.bigs = append(x.bigs, big)
	x.dropFile(o.ID)
	for _, sum := range big.chunks {
		x.dropFile(hex.EncodeToString(sum[:]))
	}
	m.add(o.ID, root)
	if len(x.bigs) >= indexBatch/100 {
		return x.flush()
	}
	return nil
}

// dropFile marks the block file of digest, when there is one, for
// removal after the next flush: git holds its bytes.
func (x *indexer) dropFile(digest string) {
	if _, err := os.Stat(x.s.path(digest)); err == nil {
		x.files = append(x.files, x.s.path(digest))
	}
}

// chunkSums hashes what is written to it ChunkSize bytes at a time: the
// sha2-256 of each chunk the UnixFS importer cuts from the same bytes.
type chunkSums struct {
	cur  []byte
	sums [][32]byte
}

func (c *chunkSums) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		take := min(len(p), ChunkSize-len(c.cur))
		c.cur = append(c.cur, p[:take]...)
		p = p[take:]
		if len(c.cur) == ChunkSize {
			c.sums = append(c.sums, sha256.Sum256(c.cur))
			c.cur = c.cur[:0]
		}
	}
	return n, nil
}

func (c *chunkSums) finish() [][32]byte {
	if len(c.cur) > 0 {
		c.sums = append(c.sums, sha256.Sum256(c.cur))
		c.cur = nil
	}
	return c.sums
}
