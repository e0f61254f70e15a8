package blocks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/usererr"
)

// A push's manifest of big objects is built by the job that stores the
// push's objects, after the push is acknowledged: the UnixFS roots come out
// of the chunking the job does anyway, so the push does not wait for its
// big objects to be hashed a second time. The manifest is then recorded on
// chain (repo.manifest) from a journal of its own, <dir>/.queue/*.manifest,
// so a stop or a chain that cannot commit for a while delays it and loses
// nothing.

// ManifestRecorder records manifest as the manifest of big objects of
// repository repo, pushed by pusher (a hex address). A *usererr.Error that
// is not Unavailable is the chain's refusal: the record is dropped.
type ManifestRecorder func(ctx context.Context, repo uint64, pusher string, manifest cid.Cid) error

// record is one manifest waiting to go on chain.
type record struct {
	Repo     uint64 `json:"repo"`
	Pusher   string `json:"pusher"`
	Manifest string `json:"manifest"`
}

const recordSuffix = ".manifest"

// recordRetry is how long a record that the chain could not take waits
// before it is sent again.
var recordRetry = 5 * time.Second

// manifestBuilder collects a job's big objects' roots; a nil one collects
// nothing.
type manifestBuilder struct {
	mu sync.Mutex
	m  Manifest
}

func (b *manifestBuilder) add(id string, root cid.Cid) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = Manifest{}
	}
	if len(b.m) < MaxManifestObjects {
		b.m[id] = root
	}
}

// blockSize is the size of the git object's stored block, and whether it
// is stored.
func (s *Store) blockSize(id string) (int64, bool) {
	if !CIDForGitObject(id).Defined() {
		return 0, false
	}
	fi, err := os.Stat(s.path(id))
	if err != nil {
		return 0, false
	}
	return fi.Size(), true
}

// addStoredRoots adds the roots of big objects stored before (by another
// push, of this repository or another), computed from their blocks.
func (s *Store) addStoredRoots(ids []string, m *manifestBuilder) error {
	for _, id := range ids {
		f, err := os.Open(s.path(id))
		if err != nil {
			return fmt.Errorf("read stored object %s: %w", id, err)
		}
		root, err := UnixFSRoot(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("root of stored object %s: %w", id, err)
		}
		m.add(id, root)
	}
	return nil
}

// RecordManifests sets where manifests go on chain, and sends those the
// journal holds. Until it is called they wait.
func (s *Store) RecordManifests(r ManifestRecorder) {
	q := s.queue
	q.mu.Lock()
	q.recorder = r
	q.mu.Unlock()
	q.wakeRecords()
}

func (q *queue) wakeRecords() {
	select {
	case q.recordWake <- struct{}{}:
	default:
	}
}

// journalManifest stores the manifest block of a job's big objects and
// journals its record, before the job leaves the journal.
func (s *Store) journalManifest(name string, job Job, m Manifest) error {
	c, err := s.PutManifest(m)
	if err != nil {
		return fmt.Errorf("store manifest: %w", err)
	}
	b, err := json.Marshal(record{Repo: job.Repo, Pusher: job.Pusher, Manifest: c.String()})
	if err != nil {
		return fmt.Errorf("encode manifest record: %w", err)
	}
	if err := writeFileSynced(s.queue.dir, strings.TrimSuffix(name, ".json")+recordSuffix, b); err != nil {
		return fmt.Errorf("journal manifest record: %w", err)
	}
	s.queue.wakeRecords()
	return nil
}

// sendRecords sends the journal's records, oldest first, until ctx ends.
func (s *Store) sendRecords(ctx context.Context) {
	q := s.queue
	defer close(q.recordsDone)
	for {
		wait := (<-chan time.Time)(nil)
		if !s.sendRecordsOnce(ctx) {
			wait = time.After(recordRetry)
		}
		select {
		case <-ctx.Done():
			return
		case <-q.recordWake:
		case <-wait:
		}
	}
}

// sendRecordsOnce sends what the journal holds; false when some must be
// sent again later.
func (s *Store) sendRecordsOnce(ctx context.Context) bool {
	q := s.queue
	q.mu.Lock()
	send := q.recorder
	q.mu.Unlock()
	if send == nil {
		return true // RecordManifests wakes the loop
	}
	names, err := recordFiles(q.dir)
	if err != nil {
		q.log.ErrorContext(ctx, "list manifest records", "err", err)
		return false
	}
	for _, name := range names {
		if ctx.Err() != nil {
			return true
		}
		if !s.sendRecord(ctx, send, name) {
			return false // in order: a later one waits for this one
		}
	}
	return true
}

// sendRecord sends one record and forgets it once the chain took or
// refused it; false when it must be sent again.
func (s *Store) sendRecord(ctx context.Context, send ManifestRecorder, name string) bool {
	q := s.queue
	path := filepath.Join(q.dir, name)
	rec, c, err := readRecord(path)
	if err == nil {
		err = send(ctx, rec.Repo, rec.Pusher, c)
		if ue, ok := usererr.As(err); err != nil && (!ok || ue.Kind == usererr.Unavailable) {
			q.log.WarnContext(ctx, "record a manifest of big objects on chain; trying again", "repo", rec.Repo, "manifest", rec.Manifest, "err", err)
			return false
		}
	}
	if err != nil {
		q.log.ErrorContext(ctx, "record a manifest of big objects on chain", "record", name, "err", err)
	}
	if err := os.Remove(path); err != nil {
		q.log.ErrorContext(ctx, "remove a sent manifest record", "record", name, "err", err)
	}
	return true
}

func readRecord(path string) (record, cid.Cid, error) {
	var rec record
	b, err := os.ReadFile(path)
	if err != nil {
		return rec, cid.Undef, fmt.Errorf("read manifest record: %w", err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, cid.Undef, fmt.Errorf("decode manifest record: %w", err)
	}
	c, err := cid.Decode(rec.Manifest)
	if err != nil || !IsManifestCID(c) || rec.Repo == 0 {
		return rec, cid.Undef, fmt.Errorf("manifest record %s: bad repository or CID", path)
	}
	return rec, c, nil
}

// recordFiles lists the records, oldest first.
func recordFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read block queue: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), recordSuffix) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}
