package blocks_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	"github.com/ipld/go-ipld-prime/codec/dagcbor"
	"github.com/ipld/go-ipld-prime/datamodel"
	"github.com/ipld/go-ipld-prime/fluent/qp"
	cidlink "github.com/ipld/go-ipld-prime/linking/cid"
	"github.com/ipld/go-ipld-prime/node/basicnode"
	"github.com/multiformats/go-multihash"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitstore"
)

// bigBlob is a random blob of size bytes in its loose form, and its id.
func bigBlob(t *testing.T, size int) ([]byte, string) {
	t.Helper()
	body := make([]byte, size)
	rand.Read(body)
	loose := append([]byte("blob "+strconv.Itoa(size)+"\x00"), body...)
	return loose, sha1Hex(string(loose))
}

func putBlob(t *testing.T, s *blocks.Store, loose []byte, id string) {
	t.Helper()
	_, body, _ := bytes.Cut(loose, []byte{0})
	if err := s.PutGitObject(gitstore.Object{ID: id, Type: "blob", Size: int64(len(body)), Body: bytes.NewReader(body)}); err != nil {
		t.Fatal(err)
	}
}

func storedKeys(t *testing.T, s *blocks.Store) []cid.Cid {
	t.Helper()
	keys, err := s.Blockstore().AllKeysChan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []cid.Cid
	for k := range keys {
		out = append(out, k)
	}
	return out
}

// A git object over 1 MiB is stored as its git-raw block and as a UnixFS
// file of 1 MiB raw leaves, whose root UnixFSRoot computes without
// storing, and which reads back as the object.
func TestBigObjectIsAlsoUnixFS(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	loose, id := bigBlob(t, 3<<20)
	root, err := blocks.UnixFSRoot(bytes.NewReader(loose))
	if err != nil {
		t.Fatal(err)
	}
	if p := root.Prefix(); p.Version != 1 || p.Codec != cid.DagProtobuf || p.MhType != multihash.SHA2_256 {
		t.Fatalf("root %s: want CIDv1 dag-pb sha2-256", root)
	}
	if s.Has(root) {
		t.Fatal("UnixFSRoot stored the root")
	}
	putBlob(t, s, loose, id)
	if !s.HasGitObject(id) || !s.Has(root) {
		t.Fatalf("after PutGitObject: git-raw block %v, UnixFS root %v", s.HasGitObject(id), s.Has(root))
	}
	// 3 MiB and a 13-byte header: 4 raw leaves, the root, the git-raw block.
	var raw int
	for _, k := range storedKeys(t, s) {
		if k.Type() == cid.Raw {
			raw++
			if n, _ := s.Blockstore().GetSize(ctx, k); n > blocks.ChunkSize {
				t.Errorf("leaf %s is %d bytes", k, n)
			}
		}
	}
	if raw != 5 { // the root is listed by multihash, as raw, too
		t.Fatalf("%d sha2-256 blocks, want 4 leaves and the root", raw)
	}
	var got bytes.Buffer
	if err := blocks.ReadUnixFSObject(ctx, s.Blockstore().Get, root, id, &got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), loose) {
		t.Fatal("the reassembled object differs")
	}

	// A small object has no UnixFS file.
	small, smallID := bigBlob(t, blocks.ChunkSize-20)
	if blocks.IsBig("blob", int64(len(small)-len("blob 1048556\x00"))) {
		t.Fatal("a loose form of exactly 1 MiB is big")
	}
	putBlob(t, s, small, smallID)
	if n := len(storedKeys(t, s)); n != 7 {
		t.Fatalf("%d blocks after a small object, want 7", n)
	}
}

// A chunk whose bytes are not its CID's is refused, as is a file holding
// another object than the git id asked for.
func TestReadUnixFSObjectRefusesTampering(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "blocks")
	s := openStore(t, dir)
	loose, id := bigBlob(t, 2<<20+100)
	putBlob(t, s, loose, id)
	root, err := blocks.UnixFSRoot(bytes.NewReader(loose))
	if err != nil {
		t.Fatal(err)
	}
	other, otherID := bigBlob(t, 2<<20)
	putBlob(t, s, other, otherID)
	otherRoot, _ := blocks.UnixFSRoot(bytes.NewReader(other))

	var w bytes.Buffer
	err = blocks.ReadUnixFSObject(ctx, s.Blockstore().Get, otherRoot, id, &w)
	if err == nil || !strings.Contains(err.Error(), "holds another object") {
		t.Fatalf("the file of another object: %v", err)
	}
	err = blocks.ReadUnixFSObject(ctx, s.Blockstore().Get, blocks.CIDForGitObject(id), id, &w)
	if err == nil || !strings.Contains(err.Error(), "not a UnixFS node") {
		t.Fatalf("a git-raw root: %v", err)
	}

	// A peer that sends other bytes for the chunks.
	lying := func(ctx context.Context, c cid.Cid) (blockformat.Block, error) {
		blk, err := s.Blockstore().Get(ctx, c)
		if err != nil || c.Type() != cid.Raw {
			return blk, err
		}
		data := slices.Clone(blk.RawData())
		data[0] ^= 1
		return blockformat.NewBlockWithCid(data, c)
	}
	err = blocks.ReadUnixFSObject(ctx, lying, root, id, &w)
	if err == nil || !strings.Contains(err.Error(), "hash to") {
		t.Fatalf("tampered chunks: %v", err)
	}
	// A disk that does: every whole chunk of the store flipped.
	chunks, _ := filepath.Glob(filepath.Join(dir, "??", strings.Repeat("?", 62)))
	for _, path := range chunks {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == blocks.ChunkSize {
			data[len(data)/2] ^= 0xff
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	w.Reset()
	err = blocks.ReadUnixFSObject(ctx, s.Blockstore().Get, root, id, &w)
	if err == nil || !strings.Contains(err.Error(), "hash to") {
		t.Fatalf("chunks tampered with on disk: %v", err)
	}
}

func cidLink(c cid.Cid) datamodel.Link { return cidlink.Link{Cid: c} }

// A manifest is a dag-cbor block mapping git ids to UnixFS roots; what is
// not one is refused.
func TestManifest(t *testing.T) {
	t.Parallel()
	loose, id := bigBlob(t, 1<<20)
	root, err := blocks.UnixFSRoot(bytes.NewReader(loose))
	if err != nil {
		t.Fatal(err)
	}
	m := blocks.Manifest{id: root, emptyBlob: root}
	blk, err := m.Block()
	if err != nil {
		t.Fatal(err)
	}
	if !blocks.IsManifestCID(blk.Cid()) || blk.Cid().Version() != 1 {
		t.Fatalf("manifest CID %s", blk.Cid())
	}
	again, _ := blocks.Manifest{emptyBlob: root, id: root}.Block()
	if !again.Cid().Equals(blk.Cid()) {
		t.Fatal("the same manifest encodes to another CID")
	}
	got, err := blocks.DecodeManifest(blk)
	if err != nil || len(got) != 2 || !got[id].Equals(root) || !got[emptyBlob].Equals(root) {
		t.Fatalf("decoded %v, %v", got, err)
	}
	// Tampered bytes, a CID of another kind, entries that are not a git id
	// and a UnixFS root.
	tampered, _ := blockformat.NewBlockWithCid(append(slices.Clone(blk.RawData()[:len(blk.RawData())-1]), 0), blk.Cid())
	if _, err := blocks.DecodeManifest(tampered); err == nil {
		t.Fatal("a tampered manifest was read")
	}
	if _, err := blocks.DecodeManifest(mustBlock(t, "blob 0\x00")); err == nil {
		t.Fatal("a git-raw block was read as a manifest")
	}
	for name, build := range map[string]func(datamodel.MapAssembler){
		"key": func(ma datamodel.MapAssembler) { qp.MapEntry(ma, "README.md", qp.Link(cidLink(root))) },
		"upper-case id": func(ma datamodel.MapAssembler) {
			qp.MapEntry(ma, strings.ToUpper(id), qp.Link(cidLink(root)))
		},
		"string value": func(ma datamodel.MapAssembler) { qp.MapEntry(ma, id, qp.String(root.String())) },
		"git-raw root": func(ma datamodel.MapAssembler) {
			qp.MapEntry(ma, id, qp.Link(cidLink(blocks.CIDForGitObject(id))))
		},
	} {
		node, err := qp.BuildMap(basicnode.Prototype.Map, 1, build)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := dagcbor.Encode(node, &buf); err != nil {
			t.Fatal(err)
		}
		c, _ := cid.V1Builder{Codec: cid.DagCBOR, MhType: multihash.SHA2_256}.Sum(buf.Bytes())
		b, _ := blockformat.NewBlockWithCid(buf.Bytes(), c)
		if _, err := blocks.DecodeManifest(b); err == nil {
			t.Errorf("a manifest with a bad %s was read", name)
		}
	}
}

// The manifest a push's block job records lists the big objects it
// stored, each with the root of its chunks; the gateway then serves the
// manifest and every chunk, as raw blocks and as CARs.
func TestPushManifestAndGateway(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := gitRepo(t)
	loose, id := bigBlob(t, 3<<20)
	_, body, _ := bytes.Cut(loose, []byte{0})
	commitFile(t, repo, "big.bin", string(body))
	head := commitFile(t, repo, "README.md", "# small\n")
	gitDir := filepath.Join(repo, ".git")

	// The push's block job stores the objects and records the manifest.
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	rec := newRecorder()
	s.RecordManifests(rec.record)
	if err := s.Enqueue(blocks.Job{Dir: gitDir, Include: []string{head}, Repo: 7, Pusher: "0xabc"}); err != nil {
		t.Fatal(err)
	}
	mc := rec.wait(t)
	m := manifestOf(t, s, mc)
	root, _ := blocks.UnixFSRoot(bytes.NewReader(loose))
	if len(m) != 1 || !m[id].Equals(root) {
		t.Fatalf("manifest %v, want %s: %s", m, id, root)
	}
	var got bytes.Buffer
	if err := blocks.ReadUnixFSObject(ctx, s.Blockstore().Get, m[id], id, &got); err != nil || !bytes.Equal(got.Bytes(), loose) {
		t.Fatalf("the manifest's entry does not read back as the blob: %v", err)
	}

	srv := httptest.NewServer(s.Gateway(nil))
	t.Cleanup(srv.Close)
	res, raw := request(t, srv, "GET", "/ipfs/"+mc.String()+"?format=raw", "")
	if res.StatusCode != 200 {
		t.Fatalf("manifest as a raw block: %d %s", res.StatusCode, raw)
	}
	if blk, _ := blockformat.NewBlockWithCid(raw, mc); blk == nil {
		t.Fatal("no block")
	} else if dm, err := blocks.DecodeManifest(blk); err != nil || !dm[id].Equals(root) {
		t.Fatalf("the served manifest: %v %v", dm, err)
	}
	var leaves []cid.Cid
	for _, k := range storedKeys(t, s) {
		if n, _ := s.Blockstore().GetSize(ctx, k); k.Type() == cid.Raw && n <= blocks.ChunkSize && k.Hash().HexString() != root.Hash().HexString() && k.Hash().HexString() != mc.Hash().HexString() {
			leaves = append(leaves, k)
		}
	}
	if len(leaves) != 4 {
		t.Fatalf("%d leaves stored, want 4", len(leaves))
	}
	for _, leaf := range leaves {
		res, data := request(t, srv, "GET", "/ipfs/"+leaf.String(), blocks.RawType)
		if res.StatusCode != 200 {
			t.Fatalf("chunk %s: %d %s", leaf, res.StatusCode, data)
		}
		if c, _ := leaf.Prefix().Sum(data); !c.Equals(leaf) {
			t.Fatalf("chunk %s: other bytes", leaf)
		}
	}
	// The CAR of the manifest is the manifest, the file's root, its leaves.
	res, carBody := request(t, srv, "GET", "/ipfs/"+mc.String()+"?format=car", "")
	roots, blks := readCAR(t, res, carBody)
	if len(roots) != 1 || !roots[0].Equals(mc) || len(blks) != 6 || !blks[0].Equals(mc) || !blks[1].Equals(root) {
		t.Fatalf("CAR of the manifest: roots %v, blocks %v", roots, blks)
	}
	for _, leaf := range leaves {
		if !slices.ContainsFunc(blks, func(c cid.Cid) bool { return c.Equals(leaf) }) {
			t.Fatalf("CAR of the manifest lacks chunk %s", leaf)
		}
	}
	res, carBody = request(t, srv, "GET", "/ipfs/"+root.String(), blocks.CARType)
	if _, blks := readCAR(t, res, carBody); len(blks) != 5 {
		t.Fatalf("CAR of the file: %d blocks, want 5", len(blks))
	}
}
