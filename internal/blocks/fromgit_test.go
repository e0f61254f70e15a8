package blocks_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multihash"
)

// looseOf is the object's loose form as git prints it: the block's bytes.
func looseOf(t *testing.T, repo, id string) []byte {
	t.Helper()
	typ := strings.TrimSpace(git(t, repo, "cat-file", "-t", id))
	body := git(t, repo, "cat-file", typ, id)
	return []byte(typ + " " + strconv.Itoa(len(body)) + "\x00" + body)
}

// blockFiles lists the git-raw block files (sha1, 40 hex digits) in dir.
func blockFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	found, _ := filepath.Glob(filepath.Join(dir, "??", "*"))
	for _, f := range found {
		if name := filepath.Base(f); (len(name) == 38 || len(name) == 62) && !strings.HasPrefix(name, ".") {
			out = append(out, f)
		}
	}
	return out
}

// After a push's job, small objects are no files in the blockstore, yet
// Has, Get, the boxo view, AllKeysChan and the gateway give their exact
// bytes, read from git.
func TestSmallObjectsAreServedFromGit(t *testing.T) {
	repo := sampleRepo(t)
	dir := filepath.Join(t.TempDir(), "blocks")
	s := openStore(t, dir)
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{revParse(t, repo, "HEAD")}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	if files := blockFiles(t, dir); len(files) != 0 {
		t.Fatalf("the blockstore holds %d copies of git objects: %v", len(files), files)
	}
	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	ids := objectsOf(t, repo)
	listed := map[string]bool{}
	for _, k := range storedKeys(t, s) {
		listed[k.String()] = true
	}
	for _, id := range ids {
		c := blocks.CIDForGitObject(id)
		want := looseOf(t, repo, id)
		got, err := s.Get(c)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Get %s: %q, %v; want %q", id, got, err, want)
		}
		blk, err := s.Blockstore().Get(context.Background(), c)
		if err != nil || !bytes.Equal(blk.RawData(), want) {
			t.Fatalf("the boxo view's Get %s: %v", id, err)
		}
		if size, err := s.Blockstore().GetSize(context.Background(), c); err != nil || size != len(want) {
			t.Fatalf("GetSize %s: %d, %v; want %d", id, size, err, len(want))
		}
		if !s.Has(c) || !listed[c.String()] {
			t.Fatalf("object %s: Has %v, listed by AllKeysChan %v", id, s.Has(c), listed[c.String()])
		}
		res, body := request(t, srv, "GET", "/ipfs/"+c.String()+"?format=raw", "")
		if res.StatusCode != 200 || !bytes.Equal(body, want) {
			t.Fatalf("gateway %s: %d, %d bytes", id, res.StatusCode, len(body))
		}
	}
}

// An object git lost or holds altered is not found: never wrong bytes.
func TestAlteredOrLostObjectsAreNotServed(t *testing.T) {
	repo := gitRepo(t)
	head := commitFile(t, repo, "a.txt", "the original\n")
	blob := revParse(t, repo, "HEAD:a.txt")
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{head}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)

	// The blob's loose file now holds other content under the same id.
	path := filepath.Join(repo, ".git", "objects", blob[:2], blob[2:])
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	fmt.Fprintf(w, "blob 13\x00the altered!\n")
	w.Close()
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c := blocks.CIDForGitObject(blob)
	if data, err := s.Get(c); !errors.Is(err, blocks.ErrNotFound) {
		t.Fatalf("an altered object: %q, %v; want not found", data, err)
	}
	if s.Has(c) {
		t.Fatal("Has says yes to an altered object")
	}
	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	if res, _ := request(t, srv, "GET", "/ipfs/"+c.String()+"?format=raw", ""); res.StatusCode != 404 {
		t.Fatalf("the gateway answers %d for an altered object", res.StatusCode)
	}

	// A deleted repository serves nothing.
	commit := blocks.CIDForGitObject(head)
	if !s.Has(commit) {
		t.Fatal("the commit is not served before its repository goes")
	}
	os.RemoveAll(repo)
	if _, err := s.Get(commit); !errors.Is(err, blocks.ErrNotFound) {
		t.Fatalf("the commit of a deleted repository: %v", err)
	}
}

// Only objects of a job's repository are served: a repository never
// queued (a private one) serves nothing, even beside a public one.
func TestUnqueuedRepositoryServesNothing(t *testing.T) {
	public, private := gitRepo(t), gitRepo(t)
	pub := commitFile(t, public, "a.txt", "public\n")
	commitFile(t, private, "secret.txt", "private\n")
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if err := s.Enqueue(blocks.Job{Dir: public, Include: []string{pub}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	if !s.HasGitObject(pub) {
		t.Fatal("the public commit is not served")
	}
	for _, id := range objectsOf(t, private) {
		if s.HasGitObject(id) {
			t.Fatalf("object %s of a repository never queued is served", id)
		}
	}
}

// A block file an older store wrote for a small object is served until a
// job reaches the object; then git's copy is the only one.
func TestJobDropsOldCopiesOfSmallObjects(t *testing.T) {
	repo := gitRepo(t)
	head := commitFile(t, repo, "a.txt", "one\n")
	dir := filepath.Join(t.TempDir(), "blocks")
	s := openStore(t, dir)
	c := blocks.CIDForGitObject(head)
	if err := s.Put(c, looseOf(t, repo, head)); err != nil {
		t.Fatal(err)
	}
	if len(blockFiles(t, dir)) != 1 || !s.Has(c) {
		t.Fatal("the old block is not stored")
	}
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{head}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	if files := blockFiles(t, dir); len(files) != 0 {
		t.Fatalf("copies left: %v", files)
	}
	if got, err := s.Get(c); err != nil || !bytes.Equal(got, looseOf(t, repo, head)) {
		t.Fatalf("the commit after its block went: %v", err)
	}
}

// The block and chunk files an older store wrote for a big object are
// served until a job reaches it; then only its UnixFS root stays a file,
// and the object and its chunks are read from git.
func TestJobDropsOldCopiesOfBigObjects(t *testing.T) {
	repo := gitRepo(t)
	data := make([]byte, 3<<20)
	rand.Read(data)
	head := commitFile(t, repo, "big.bin", string(data))
	blob := revParse(t, repo, "HEAD:big.bin")
	loose := looseOf(t, repo, blob)
	dir := filepath.Join(t.TempDir(), "blocks")
	s := openStore(t, dir)
	if err := s.Put(blocks.CIDForGitObject(blob), loose); err != nil {
		t.Fatal(err)
	}
	root, err := s.PutUnixFS(bytes.NewReader(loose))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(blockFiles(t, dir)); n != 6 { // the block, 4 chunks and the root
		t.Fatalf("the old store wrote %d files, want 6", n)
	}
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{head}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	rootDigest := hex.EncodeToString(root.Hash()[2:])
	if files := blockFiles(t, dir); len(files) != 1 || !strings.HasSuffix(files[0], rootDigest[2:]) {
		t.Fatalf("files left %v; want the root %s only", files, root)
	}
	var got bytes.Buffer
	if err := blocks.ReadUnixFSObject(context.Background(), s.Blockstore().Get, root, blob, &got); err != nil {
		t.Fatalf("read the object's UnixFS file from git: %v", err)
	}
	if whole, err := s.Get(blocks.CIDForGitObject(blob)); err != nil || !bytes.Equal(whole, loose) {
		t.Fatalf("the object's block from git: %v", err)
	}
}

// A repository of 1,000 small objects and a 20 MiB one are served by the
// gateway once the copies are gone, all from git: the big one whole, and
// as its UnixFS file, of which only the root node is stored.
func TestGatewayServesManyObjectsAndABigOne(t *testing.T) {
	repo := gitRepo(t)
	for i := range 500 {
		if err := os.WriteFile(filepath.Join(repo, fmt.Sprintf("f%03d.txt", i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(repo, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 500 {
		if err := os.WriteFile(filepath.Join(repo, "d", fmt.Sprintf("g%03d.txt", i)), []byte(fmt.Sprintf("other %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big := make([]byte, 20<<20)
	rand.Read(big)
	if err := os.WriteFile(filepath.Join(repo, "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", ".")
	head := gitCommit(t, repo, "many and big")
	dir := filepath.Join(t.TempDir(), "blocks")
	s := openStore(t, dir)
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{head}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	bigID := revParse(t, repo, "HEAD:big.bin")
	root, err := blocks.UnixFSRoot(bytes.NewReader(looseOf(t, repo, bigID)))
	if err != nil {
		t.Fatal(err)
	}
	rootDigest := hex.EncodeToString(root.Hash()[2:]) // past the multihash's code and length
	if files := blockFiles(t, dir); len(files) != 1 || !strings.HasSuffix(files[0], rootDigest[2:]) {
		t.Fatalf("block files %v; want the big object's UnixFS root %s only", files, root)
	}
	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	var file bytes.Buffer
	if err := blocks.ReadUnixFSObject(context.Background(), s.Blockstore().Get, root, bigID, &file); err != nil {
		t.Fatalf("read the big object's UnixFS file: %v", err)
	}
	if res, body := request(t, srv, "GET", "/ipfs/"+root.String()+"?format=car", ""); res.StatusCode != 200 || len(body) < len(big) {
		t.Fatalf("gateway CAR of the big object's UnixFS file: %d, %d bytes", res.StatusCode, len(body))
	}
	ids := objectsOf(t, repo)
	if len(ids) < 1000 {
		t.Fatalf("only %d objects", len(ids))
	}
	for _, id := range ids {
		res, body := request(t, srv, "GET", "/ipfs/"+blocks.CIDForGitObject(id).String()+"?format=raw", "")
		if res.StatusCode != 200 || sha1Hex(string(body)) != id {
			t.Fatalf("gateway %s: %d, %d bytes hashing to %s", id, res.StatusCode, len(body), sha1Hex(string(body)))
		}
	}
	// Without the repository, neither the object nor its chunks are served.
	chunk, err := cid.V1Builder{Codec: cid.Raw, MhType: multihash.SHA2_256}.Sum(looseOf(t, repo, bigID)[:blocks.ChunkSize])
	if err != nil {
		t.Fatal(err)
	}
	if !s.Has(chunk) {
		t.Fatalf("the first chunk %s is not served", chunk)
	}
	if err := os.RemoveAll(repo); err != nil {
		t.Fatal(err)
	}
	if s.Has(chunk) || s.Has(blocks.CIDForGitObject(bigID)) {
		t.Fatal("the big object's chunk or block is served after its repository went")
	}
}

// A repository whose directory moves (a transfer) serves its objects from
// the new place once the store is told.
func TestMovedRepositoryIsReadWhereItIs(t *testing.T) {
	repo := gitRepo(t)
	head := commitFile(t, repo, "a.txt", "moving\n")
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	if err := s.Enqueue(blocks.Job{Dir: repo, Include: []string{head}}); err != nil {
		t.Fatal(err)
	}
	settle(t, s)
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(repo, moved); err != nil {
		t.Fatal(err)
	}
	if s.HasGitObject(head) {
		t.Fatal("served from a directory that is gone")
	}
	if err := s.MoveRepository(repo, moved); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(blocks.CIDForGitObject(head)); err != nil || !bytes.Equal(got, looseOf(t, moved, head)) {
		t.Fatalf("after the move: %v", err)
	}
}
