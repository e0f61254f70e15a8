package replica

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/p2p/p2ptest"
)

// With no dForge peer to ask, the repository comes over bitswap from an
// IPFS node holding its blocks: every object, checked, written with git,
// and kept as a block here so this node serves it too.
func TestReplicatesOverBitswap(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWork(t)
	w.commit("README.md", "# demo\n")
	big := make([]byte, 200<<10)
	rand.Read(big)
	w.commit("data.bin", string(big))
	tip := w.commit("src/main.go", "package main\n")
	if err := writeFile(filepath.Join(w.dir, "src", "lib.go"), "package main\n\nvar x = 1\n"); err != nil {
		t.Fatal(err)
	}
	run(t, w.dir, "add", "-A")
	run(t, w.dir, "commit", "--quiet", "-m", "lib")
	run(t, w.dir, "tag", "-a", "-m", "first", "v1", tip)
	tip = run(t, w.dir, "rev-parse", "HEAD")
	tag := run(t, w.dir, "rev-parse", "v1")

	storeA := p2ptest.OpenBlocks(t)
	if _, err := storeA.ImportRepository(ctx, filepath.Join(w.dir, ".git")); err != nil {
		t.Fatal(err)
	}
	a := p2ptest.StartNode(t, storeA.Blockstore())
	storeB := p2ptest.OpenBlocks(t)
	b := p2ptest.StartNode(t, storeB.Blockstore())
	p2ptest.Connect(t, b, a)

	chain := newChain()
	chain.addRepo(1, "demo", node0)
	chain.push(1, node0, map[string]string{"refs/heads/main": tip, "refs/tags/v1": tag})
	dead := Peer{Operator: node0, URL: "http://127.0.0.1:1"} // refuses connections
	r, git := newReplicator(t, chain, dead)
	r.cfg.Bitswap, r.cfg.Blocks, r.cfg.Protocols = b, storeB, "http"
	if err := r.sync(ctx, chain.repo(1)); err != nil {
		t.Fatal(err)
	}
	dir := localDir(t, git, 1)
	assertRefs(t, dir, map[string]string{"refs/heads/main": tip, "refs/tags/v1": tag})
	for _, id := range strings.Fields(run(t, w.dir, "rev-list", "--objects", "--no-object-names", "--all")) {
		if !storeB.HasGitObject(id) {
			t.Fatalf("object %s was replicated but is not a block here", id)
		}
	}
}

// A blob over 1 MiB whose git-raw block no peer sends comes as the UnixFS
// file its push's manifest names: each 1 MiB chunk over bitswap, checked,
// and the whole against the blob's id. The chunks stay here, served too.
func TestReplicatesABigObjectFromItsChunks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWork(t)
	w.commit("README.md", "# big\n")
	big := make([]byte, 3<<20)
	rand.Read(big)
	tip := w.commit("data/big.bin", string(big))
	blob := run(t, w.dir, "rev-parse", "HEAD:data/big.bin")
	gitDir := filepath.Join(w.dir, ".git")

	// Node A: the repository's blocks, and the manifest its push would
	// record.
	dirA := filepath.Join(t.TempDir(), "blocks")
	storeA, err := blocks.Open(dirA, quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { storeA.Close() })
	// The push's block job stores the objects and records the manifest.
	recorded := make(chan cid.Cid, 1)
	storeA.RecordManifests(func(_ context.Context, _ uint64, _ string, m cid.Cid) error {
		recorded <- m
		return nil
	})
	if err := storeA.Enqueue(blocks.Job{Dir: gitDir, Include: []string{tip}, Repo: 1, Pusher: node0.Hex()}); err != nil {
		t.Fatal(err)
	}
	var mc cid.Cid
	select {
	case mc = <-recorded:
	case <-time.After(20 * time.Second):
		t.Fatal("the block job recorded no manifest")
	}
	mblk, err := storeA.Blockstore().Get(ctx, mc)
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := blocks.DecodeManifest(mblk)
	if err != nil || len(manifest) != 1 {
		t.Fatalf("manifest %v, %v", manifest, err)
	}
	// Node A keeps no block file of the blob: its block and its chunks
	// are read from git when asked for.
	if _, err := os.Stat(filepath.Join(dirA, blob[:2], blob[2:])); !os.IsNotExist(err) {
		t.Fatalf("the blob is stored again as a block file (%v)", err)
	}
	a := p2ptest.StartNode(t, storeA.Blockstore())
	storeB := p2ptest.OpenBlocks(t)
	b := p2ptest.StartNode(t, storeB.Blockstore())
	p2ptest.Connect(t, b, a)

	chain := newChain()
	chain.addRepo(1, "big", node0)
	chain.push(1, node0, map[string]string{"refs/heads/main": tip})
	chain.addManifest(1, mc.String())
	r, git := newReplicator(t, chain, Peer{Operator: node0, URL: "http://127.0.0.1:1"})
	r.cfg.Bitswap, r.cfg.Blocks, r.cfg.Protocols = b, storeB, "http"
	if err := r.sync(ctx, chain.repo(1)); err != nil {
		t.Fatal(err)
	}
	dir := localDir(t, git, 1)
	assertRefs(t, dir, map[string]string{"refs/heads/main": tip})
	// git checks the object against its id as it indexes it, and again here.
	if size := run(t, dir, "cat-file", "-s", blob); size != strconv.Itoa(len(big)) {
		t.Fatalf("the replicated blob is %s bytes", size)
	}
	run(t, dir, "fsck", "--strict")
	if !storeB.Has(manifest[blob]) {
		t.Fatal("the fetched chunks are not kept as blocks here")
	}
}

// A block whose bytes are not the object asked for is refused.
func TestBitswapRefusesAnotherObject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWork(t)
	tip := w.commit("README.md", "# demo\n")
	chain := newChain()
	chain.addRepo(1, "demo", node0)
	chain.push(1, node0, map[string]string{"refs/heads/main": tip})
	r, git := newReplicator(t, chain)
	r.cfg.Bitswap = liar{}
	err := r.sync(ctx, chain.repo(1))
	if err == nil || !strings.Contains(err.Error(), "holds another object") {
		t.Fatalf("sync = %v, want the block refused", err)
	}
	if hasRepo(localDir(t, git, 1)) {
		t.Fatal("a refused replication left a repository")
	}
}

// liar answers every CID with the same blob.
type liar struct{}

func (liar) Fetch(_ context.Context, c cid.Cid) (blockformat.Block, error) {
	return blockformat.NewBlockWithCid([]byte("blob 5\x00hello"), c)
}

func (l liar) FetchMany(ctx context.Context, cs []cid.Cid) <-chan blockformat.Block {
	out := make(chan blockformat.Block, len(cs))
	defer close(out)
	for _, c := range cs {
		blk, _ := l.Fetch(ctx, c)
		out <- blk
	}
	return out
}

func (liar) Session(ctx context.Context) context.Context { return ctx }

// BenchmarkWriteObjects measures writing fetched blocks into a repository,
// as the bitswap fallback does (one pack through index-pack), against a
// loose file per object and a `git hash-object -w` per object:
// go test -run XXX -bench WriteObjects ./internal/replica.
func BenchmarkWriteObjects(b *testing.B) {
	objects := make([][]byte, 500)
	ids := make([]string, len(objects))
	for i := range objects {
		body := make([]byte, 2048)
		rand.Read(body)
		objects[i] = append([]byte("blob 2048\x00"), body...)
		sum := sha1.Sum(objects[i])
		ids[i] = hex.EncodeToString(sum[:])
	}
	perObject := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(objects)), "µs/object")
	}
	bare := func(b *testing.B) string {
		dir := filepath.Join(b.TempDir(), "r.git")
		if out, err := exec.Command("git", "init", "--quiet", "--bare", dir).CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
		return dir
	}
	b.Run("pack", func(b *testing.B) {
		for range b.N {
			q, err := gitstore.NewQuarantine(bare(b), "incoming-replica-")
			if err != nil {
				b.Fatal(err)
			}
			pack, err := newPackFile(q.Path)
			if err != nil {
				b.Fatal(err)
			}
			var p packer
			for _, o := range objects {
				if err := pack.add(&p, o); err != nil {
					b.Fatal(err)
				}
			}
			if err := pack.index(context.Background(), q); err != nil {
				b.Fatal(err)
			}
			pack.close()
		}
		perObject(b)
	})
	b.Run("loose", func(b *testing.B) {
		for range b.N {
			dir := filepath.Join(bare(b), "objects")
			for i, o := range objects {
				var z bytes.Buffer
				zw := zlib.NewWriter(&z)
				zw.Write(o)
				zw.Close()
				f, err := os.CreateTemp(dir, "tmp_obj_")
				if err != nil {
					b.Fatal(err)
				}
				f.Write(z.Bytes())
				f.Close()
				os.MkdirAll(filepath.Join(dir, ids[i][:2]), 0o755)
				if err := os.Rename(f.Name(), filepath.Join(dir, ids[i][:2], ids[i][2:])); err != nil {
					b.Fatal(err)
				}
			}
		}
		perObject(b)
	})
	b.Run("hash-object", func(b *testing.B) {
		for range b.N {
			dir := bare(b)
			for _, o := range objects {
				_, body, _ := bytes.Cut(o, []byte{0})
				cmd := exec.Command("git", "hash-object", "-w", "--literally", "-t", "blob", "--stdin")
				cmd.Dir, cmd.Stdin = dir, bytes.NewReader(body)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatal(err, string(out))
				}
			}
		}
		perObject(b)
	})
}
