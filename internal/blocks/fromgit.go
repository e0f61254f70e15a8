package blocks

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/dforge/dforge/internal/crash"
	"github.com/dforge/dforge/internal/gitstore"
)

// Public git objects up to ChunkSize in loose form are not stored as
// blocks: the store records which repository holds each (gitindex.go)
// and reads it from git when asked, checked against its id, so a
// repository that lost or altered the object answers "not found", never
// wrong bytes.

// gitReadTimeout bounds one object's read from git.
const gitReadTimeout = 30 * time.Second

// fromGit returns the loose form of the object with this hex SHA-1 digest
// from the first repository recorded as holding it that has it intact.
// Bitswap asks Has, GetSize and Get of one block in a row: a checked
// object is kept a little while (recent), so git reads it once.
func (s *Store) fromGit(digest string) ([]byte, bool) {
	if len(digest) != 2*sha1.Size {
		return nil, false
	}
	raw, err := hex.DecodeString(digest)
	if err != nil {
		return nil, false
	}
	if data, ok := s.recentGet(digest); ok {
		return data, true
	}
	dirs := s.index.dirs(raw)
	if len(dirs) == 0 {
		return nil, false
	}
	// As many reads at once as the cat-file pool keeps processes for a
	// repository: more would start and stop a git for each.
	s.gitReads <- struct{}{}
	defer func() { <-s.gitReads }()
	// The chunks of a big object are asked for together: one read serves
	// those that waited for it.
	if data, ok := s.recentGet(digest); ok {
		return data, true
	}
	for _, dir := range dirs {
		ctx, cancel := context.WithTimeout(context.Background(), gitReadTimeout)
		typ, content, err := gitstore.ReadObject(ctx, dir, digest, MaxFromGit)
		cancel()
		if err != nil {
			continue // deleted or pruned since: another may hold it
		}
		loose := looseForm(typ, content)
		if sum := sha1.Sum(loose); hex.EncodeToString(sum[:]) == digest {
			s.recentFor(len(loose)).put(digest, dir, loose)
			return loose, true
		}
	}
	return nil, false
}

// recentGet looks for a checked object among the small and the big ones.
func (s *Store) recentGet(digest string) ([]byte, bool) {
	if data, ok := s.recent.get(digest); ok {
		return data, true
	}
	return s.recentBig.get(digest)
}

// recentFor is where an object of size bytes is kept: big ones apart, so
// one does not push out every small one.
func (s *Store) recentFor(size int) *recentObjects {
	if size > ChunkSize {
		return &s.recentBig
	}
	return &s.recent
}

// gitReadsAtOnce bounds the store's concurrent reads from git.
const gitReadsAtOnce = 2

// recentObjects keeps the objects last read from git, checked, for
// recentTTL and up to limit bytes in all (recentBytes when 0), oldest
// dropped first; one whose repository is gone is not served from here.
type recentObjects struct {
	limit int
	mu    sync.Mutex
	byID  map[string]recentObject
	order []string // oldest first
	bytes int
}

type recentObject struct {
	data []byte
	dir  string // the repository it was read from
	at   time.Time
}

const (
	recentTTL   = 30 * time.Second
	recentBytes = 16 << 20
)

func (r *recentObjects) get(id string) ([]byte, bool) {
	r.mu.Lock()
	o, ok := r.byID[id]
	r.mu.Unlock()
	if !ok || time.Since(o.at) > recentTTL {
		return nil, false
	}
	// A repository deleted since serves nothing, kept or not.
	if _, err := os.Stat(o.dir); err != nil {
		return nil, false
	}
	return o.data, true
}

func (r *recentObjects) put(id, dir string, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID = map[string]recentObject{}
	}
	if _, ok := r.byID[id]; ok {
		return
	}
	r.byID[id] = recentObject{data: data, dir: dir, at: time.Now()}
	r.order = append(r.order, id)
	r.bytes += len(data)
	limit := r.limit
	if limit == 0 {
		limit = recentBytes
	}
	for r.bytes > limit || (len(r.order) > 0 && time.Since(r.byID[r.order[0]].at) > recentTTL) {
		old := r.order[0]
		r.order = r.order[1:]
		r.bytes -= len(r.byID[old].data)
		delete(r.byID, old)
	}
}

// looseForm is "<type> <size>\x00<content>", a git-raw block's bytes.
func looseForm(typ string, content []byte) []byte {
	header := typ + " " + strconv.Itoa(len(content)) + "\x00"
	out := make([]byte, 0, len(header)+len(content))
	return append(append(out, header...), content...)
}

// indexBatch is how many objects a job records per synced write.
const indexBatch = 20000

// indexer records a job's small objects as held by its repository: each
// is hashed first (git does not check what it reads), and a block file
// an earlier version of the store (or a bitswap fetch) left for it is
// removed once the record is synced: git holds the one copy.
type indexer struct {
	s     *Store
	repo  uint32
	ids   []string
	bigs  []bigObject
	files []string // block files to remove after the next flush
}

func (s *Store) newIndexer(dir string) (*indexer, error) {
	repo, err := s.index.repo(filepath.Clean(dir))
	if err != nil {
		return nil, err
	}
	return &indexer{s: s, repo: repo}, nil
}

// indexed reports whether the job's repository is recorded as holding id.
func (x *indexer) indexed(id string) bool {
	return x.s.index.holds(id, x.repo)
}

// add checks a small object and records it.
func (x *indexer) add(o gitstore.Object) error {
	h := sha1.New()
	io.WriteString(h, o.Type+" "+strconv.FormatInt(o.Size, 10)+"\x00")
	n, err := io.Copy(h, o.Body)
	if err != nil {
		return fmt.Errorf("read object %s: %w", o.ID, err)
	}
	if n != o.Size {
		return fmt.Errorf("read object %s: %w", o.ID, io.ErrUnexpectedEOF)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != o.ID {
		return fmt.Errorf("object %s in git hashes to %s", o.ID, got)
	}
	x.ids = append(x.ids, o.ID)
	x.dropFile(o.ID)
	if len(x.ids) >= indexBatch {
		return x.flush()
	}
	return nil
}

// flush syncs the records, then removes the block files they replace.
func (x *indexer) flush() error {
	crash.Point(crash.BlockStorage)
	if err := x.s.index.add(x.ids, x.bigs, x.repo); err != nil {
		return err
	}
	x.ids, x.bigs = x.ids[:0], x.bigs[:0]
	for _, f := range x.files {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("remove a block git holds: %w", err)
		}
	}
	x.files = x.files[:0]
	return nil
}

// MoveRepository tells the store that the repository at from is now at
// to (a transfer moves its directory), so its objects are read there.
func (s *Store) MoveRepository(from, to string) error {
	return s.index.move(filepath.Clean(from), filepath.Clean(to))
}

// fromGitSize reports whether a git object of this type and size is
// served from git rather than stored: all up to MaxFromGit in loose form
// (bigfromgit.go); bigger ones keep their block and UnixFS file here.
func fromGitSize(typ string, size int64) bool {
	return LooseSize(typ, size) <= MaxFromGit
}
