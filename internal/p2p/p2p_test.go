package p2p_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ipfs/boxo/blockstore"
	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/p2p"
	"github.com/dforge/dforge/internal/p2p/p2ptest"
)

// Node B fetches every object of a real repository from node A by CID,
// over bitswap on loopback TCP, and gets the bytes A holds.
func TestFetchGitObjectsOverBitswap(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	repo := gitRepo(t)
	commitFile(t, repo, "README.md", "# hello\n")
	big := make([]byte, 300<<10) // a 300 KiB blob: several bitswap messages' worth
	rand.Read(big)
	commitFile(t, repo, "data.bin", string(big))
	commitFile(t, repo, "src/main.go", "package main\n\nfunc main() {}\n")

	storeA := p2ptest.OpenBlocks(t)
	if _, err := storeA.ImportRepository(ctx, filepath.Join(repo, ".git")); err != nil {
		t.Fatal(err)
	}
	a := p2ptest.StartNode(t, storeA.Blockstore())
	storeB := p2ptest.OpenBlocks(t)
	b := p2ptest.StartNode(t, storeB.Blockstore())
	p2ptest.Connect(t, b, a)

	ids := objectsOf(t, repo)
	for _, id := range ids {
		c := blocks.CIDForGitObject(id)
		fetchCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
		blk, err := b.Fetch(fetchCtx, c)
		cancel()
		if err != nil {
			t.Fatalf("fetch %s (%s): %v", id, c, err)
		}
		want, err := storeA.Get(c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(blk.RawData(), want) {
			t.Fatalf("object %s: B got %d bytes that differ from A's %d", id, len(blk.RawData()), len(want))
		}
		if !storeB.HasGitObject(id) {
			t.Fatalf("object %s was fetched but not stored", id)
		}
	}
	// What B stored is the git object itself, as git prints it.
	for _, id := range ids {
		typ := strings.TrimSpace(git(t, repo, "cat-file", "-t", id))
		body := git(t, repo, "cat-file", typ, id)
		got, _ := storeB.Get(blocks.CIDForGitObject(id))
		if _, content, _ := bytes.Cut(got, []byte{0}); string(content) != body {
			t.Fatalf("object %s: the stored block is not git's %s", id, typ)
		}
	}
}

// A node started with --ipfs-peer connects to it by itself and fetches.
func TestConfiguredPeerIsDialled(t *testing.T) {
	t.Parallel()
	storeA := p2ptest.OpenBlocks(t)
	data := []byte("blob 6\x00hello\n")
	c := putBlock(t, storeA, data)
	a := p2ptest.StartNode(t, storeA.Blockstore())
	b := p2ptest.StartNode(t, p2ptest.OpenBlocks(t).Blockstore(), a.Addrs()...)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	blk, err := b.Fetch(ctx, c)
	if err != nil || !bytes.Equal(blk.RawData(), data) {
		t.Fatalf("fetch from the configured peer: %v", err)
	}
}

func TestFetchOfAMissingBlockEndsWithTheContext(t *testing.T) {
	t.Parallel()
	a := p2ptest.StartNode(t, p2ptest.OpenBlocks(t).Blockstore())
	b := p2ptest.StartNode(t, p2ptest.OpenBlocks(t).Blockstore())
	p2ptest.Connect(t, b, a)
	missing := blocks.CIDForGitObject("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err := b.Fetch(ctx, missing)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no peer sent it in time (1 connected)") {
		t.Fatalf("fetch of a block no one has: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the fetch outlived its context by %v", took-time.Second)
	}
}

// A peer that sends other bytes for a CID does not get them stored.
func TestBlockWithTheWrongBytesIsRefused(t *testing.T) {
	t.Parallel()
	storeA := p2ptest.OpenBlocks(t)
	c := putBlock(t, storeA, []byte("blob 6\x00hello\n"))
	a := p2ptest.StartNode(t, lying{storeA.Blockstore()})
	storeB := p2ptest.OpenBlocks(t)
	b := p2ptest.StartNode(t, storeB.Blockstore())
	p2ptest.Connect(t, b, a)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if blk, err := b.Fetch(ctx, c); err == nil {
		t.Fatalf("B accepted %q for %s", blk.RawData(), c)
	}
	if storeB.Has(c) {
		t.Fatal("a block with the wrong bytes was stored")
	}
}

func TestFetchRefusesOtherKindsOfCID(t *testing.T) {
	t.Parallel()
	n := p2ptest.StartNode(t, p2ptest.OpenBlocks(t).Blockstore())
	raw := cid.NewCidV1(cid.Raw, blocks.CIDForGitObject("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391").Hash())
	for _, c := range []cid.Cid{cid.Undef, raw, blockformat.NewBlock([]byte("x")).Cid()} { // a raw sha1, a CIDv0
		if _, err := n.Fetch(context.Background(), c); err == nil || !strings.Contains(err.Error(), "only git-raw sha1") {
			t.Errorf("fetch %s: %v", c, err)
		}
	}
}

func TestKeyOutlivesARestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "p2p", "key")
	k1, err := p2p.LoadKey(path)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := p2p.LoadKey(path)
	if err != nil {
		t.Fatal(err)
	}
	id1, _ := peer.IDFromPrivateKey(k1)
	id2, _ := peer.IDFromPrivateKey(k2)
	if id1 != id2 {
		t.Fatalf("peer id changed: %s then %s", id1, id2)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st.Mode(), err)
	}
	if _, err := os.ReadFile(path + ".tmp"); err == nil {
		t.Fatal("the temporary key file is left")
	}
}

func TestParsePeer(t *testing.T) {
	t.Parallel()
	good := "/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA"
	if _, err := p2p.ParsePeer(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "127.0.0.1:4001", "/ip4/127.0.0.1/tcp/4001"} {
		if _, err := p2p.ParsePeer(bad); err == nil {
			t.Errorf("ParsePeer(%q) accepted it", bad)
		}
	}
}

func TestListenErrors(t *testing.T) {
	t.Parallel()
	a := p2ptest.StartNode(t, p2ptest.OpenBlocks(t).Blockstore())
	// The same port again is ErrListen (serve then falls back to a free one).
	busy, _ := peer.SplitAddr(a.Addrs()[0])
	_, err := p2p.Start(context.Background(), p2p.Config{ListenAddrs: []multiaddr.Multiaddr{busy}, Blockstore: p2ptest.OpenBlocks(t).Blockstore(), Log: quiet})
	if !errors.Is(err, p2p.ErrListen) {
		t.Fatalf("listen on a busy port: %v", err)
	}
	_, err = p2p.Start(context.Background(), p2p.Config{ListenAddrs: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/udp/0/quic-v1")}, Blockstore: p2ptest.OpenBlocks(t).Blockstore(), Log: quiet})
	if err == nil || !strings.Contains(err.Error(), "only TCP") {
		t.Fatalf("a QUIC listen address: %v", err)
	}
}

// lying serves other bytes under each CID it holds.
type lying struct{ blockstore.Blockstore }

func (l lying) Get(ctx context.Context, c cid.Cid) (blockformat.Block, error) {
	blk, err := l.Blockstore.Get(ctx, c)
	if err != nil {
		return nil, err
	}
	return blockformat.NewBlockWithCid(append([]byte("forged "), blk.RawData()...), c)
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func putBlock(t *testing.T, s *blocks.Store, data []byte) cid.Cid {
	t.Helper()
	c, err := cid.V1Builder{Codec: blocks.GitRaw, MhType: 0x11}.Sum(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(c, data); err != nil {
		t.Fatal(err)
	}
	return c
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}

func gitRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	git(t, "", "init", "--quiet", "-b", "main", dir)
	return dir
}

func commitFile(t *testing.T, repo, name, content string) {
	t.Helper()
	path := filepath.Join(repo, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", name)
	git(t, repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "add "+name)
}

func objectsOf(t *testing.T, repo string) []string {
	t.Helper()
	var ids []string
	for _, line := range strings.Split(git(t, repo, "rev-list", "--objects", "--all"), "\n") {
		if id, _, _ := strings.Cut(line, " "); len(id) == 40 {
			ids = append(ids, id)
		}
	}
	if len(ids) < 9 {
		t.Fatalf("only %d objects in %s", len(ids), repo)
	}
	return ids
}
