package blocks_test

import (
	"context"
	"crypto/rand"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/usererr"
)

// recorder is a ManifestRecorder that answers with the errors it is given,
// in turn, then nil, and keeps what it was sent.
type recorder struct {
	mu    sync.Mutex
	fail  []error
	sent  []cid.Cid
	calls int
	got   chan cid.Cid
}

func newRecorder(fail ...error) *recorder {
	return &recorder{fail: fail, got: make(chan cid.Cid, 10)}
}

func (r *recorder) record(_ context.Context, repo uint64, pusher string, manifest cid.Cid) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if repo != 7 || pusher != "0xabc" {
		return errors.New("wrong repository or pusher")
	}
	if len(r.fail) > 0 {
		err := r.fail[0]
		r.fail = r.fail[1:]
		return err
	}
	r.sent = append(r.sent, manifest)
	r.got <- manifest
	return nil
}

func (r *recorder) wait(t *testing.T) cid.Cid {
	t.Helper()
	select {
	case c := <-r.got:
		return c
	case <-time.After(20 * time.Second):
		t.Fatal("no manifest was recorded")
		return cid.Undef
	}
}

// bigCommit commits a 2 MiB file of random bytes and returns the commit
// and the blob.
func bigCommit(t *testing.T, repo, name string) (commit, blob string) {
	t.Helper()
	big := make([]byte, 2<<20)
	rand.Read(big)
	commit = commitFile(t, repo, name, string(big))
	out, err := exec.Command("git", "-C", repo, "rev-parse", commit+":"+name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return commit, strings.TrimSpace(string(out))
}

// manifestOf reads a recorded manifest back from the store.
func manifestOf(t *testing.T, s *blocks.Store, c cid.Cid) blocks.Manifest {
	t.Helper()
	blk, err := s.Blockstore().Get(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	m, err := blocks.DecodeManifest(blk)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The job of a push builds the manifest of its big objects from the
// chunking it does and has it recorded; a job of small objects, or one
// that names no repository, records nothing. A big object stored before
// (another push brought it) is in the manifest all the same.
func TestJobRecordsTheManifestOfItsBigObjects(t *testing.T) {
	repo := gitRepo(t)
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	rec := newRecorder()
	s.RecordManifests(rec.record)

	first, blob := bigCommit(t, repo, "big.bin")
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{first}, Repo: 7, Pusher: "0xabc"}); err != nil {
		t.Fatal(err)
	}
	m := manifestOf(t, s, rec.wait(t))
	if len(m) != 1 || !m[blob].Defined() || !s.Has(m[blob]) {
		t.Fatalf("manifest %v; want the blob %s, its UnixFS root stored", m, blob)
	}

	// Small objects, and a job with no repository: nothing to record.
	small := commitFile(t, repo, "small.txt", "small\n")
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{small}, Exclude: []string{first}, Repo: 7, Pusher: "0xabc"}); err != nil {
		t.Fatal(err)
	}
	other, _ := bigCommit(t, repo, "other.bin")
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{other}, Exclude: []string{small}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)

	// The same blob in a second repository: stored already, still listed.
	second := gitRepo(t)
	again := commitFile(t, second, "copy.bin", blobContent(t, repo, blob))
	if err := s.Enqueue(blocks.Job{Dir: second, Include: []string{again}, Repo: 7, Pusher: "0xabc"}); err != nil {
		t.Fatal(err)
	}
	if m := manifestOf(t, s, rec.wait(t)); len(m) != 1 || m[blob] != manifestOf(t, s, rec.sent[0])[blob] {
		t.Fatalf("manifest of the second repository %v; want the stored blob %s with the same root", m, blob)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.sent) != 2 {
		t.Fatalf("recorded %d manifests, want 2", len(rec.sent))
	}
}

// A record the chain cannot take now is sent again; one it refuses is
// dropped; one journaled before a stop is sent after the next Open, once a
// recorder is set.
func TestManifestRecordsRetryAndSurviveAStop(t *testing.T) {
	repo := gitRepo(t)
	dir := filepath.Join(t.TempDir(), "blocks")
	s, err := blocks.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 1. No recorder yet: the record waits in the journal, across a stop.
	commit, blob := bigCommit(t, repo, "big.bin")
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{commit}, Repo: 7, Pusher: "0xabc"}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	s.Close()
	if records, _ := filepath.Glob(filepath.Join(dir, ".queue", "*.manifest")); len(records) != 1 {
		t.Fatalf("the journal holds %d manifest records, want 1", len(records))
	}

	// 2. Reopened, with a chain that cannot commit, then can.
	s = openStore(t, dir)
	rec := newRecorder(usererr.New(usererr.Unavailable, "no_quorum", "the network is not committing"))
	s.RecordManifests(rec.record)
	if m := manifestOf(t, s, rec.wait(t)); !m[blob].Defined() {
		t.Fatalf("manifest %v lacks the blob %s", m, blob)
	}
	if rec.calls != 2 {
		t.Fatalf("the recorder was called %d times, want 2 (one refusal for now, one success)", rec.calls)
	}

	// 3. A refusal is final: the record goes.
	refused := newRecorder(usererr.Deniedf("pushing needs write permission"))
	s.RecordManifests(refused.record)
	next, _ := bigCommit(t, repo, "next.bin")
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{next}, Exclude: []string{commit}, Repo: 7, Pusher: "0xabc"}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	deadline := time.Now().Add(20 * time.Second)
	for {
		records, _ := filepath.Glob(filepath.Join(dir, ".queue", "*.manifest"))
		refused.mu.Lock()
		calls := refused.calls
		refused.mu.Unlock()
		if len(records) == 0 && calls == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a refusal: %d records left, %d calls; want none left after one call", len(records), calls)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// blobContent reads a blob of repo.
func blobContent(t *testing.T, repo, blob string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "cat-file", "blob", blob).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
