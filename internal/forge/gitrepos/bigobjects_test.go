package gitrepos_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ipfs/go-cid"
	libp2ppeer "github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/p2p"
	"github.com/dforge/dforge/internal/replica"
)

// A push of a 3 MiB blob to a public repository records on chain the
// manifest of its big objects, whose entry reassembles to the blob from
// the node's blocks; another node with no dForge peer to ask restores the
// blob over bitswap from the UnixFS chunks alone.
func TestPushRecordsTheManifestOfBigObjects(t *testing.T) {
	n := forgetest.Start(t)
	ctx := context.Background()
	alice := n.NewUser()
	r, err := n.Repos.Create(ctx, alice.Address, gitrepos.CreateOptions{
		Name: "big", README: []byte("# big\n"), Author: gitstore.Signature{Name: "alice", Email: "alice@example.org", When: time.Unix(1700000000, 0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	work := n.Clone(n.Remote(alice, alice.Name(), "big"))
	big := make([]byte, 3<<20)
	rand.Read(big)
	n.Commit(work, "Add data", map[string]string{"data/big.bin": string(big)})
	n.Git(work, "push", "--quiet", "origin", "main")
	blob := strings.TrimSpace(n.Git(work, "rev-parse", "HEAD:data/big.bin"))

	// 1. The manifest on chain (recorded once the push's objects are
	// stored, after the push), its block here, its entry the blob.
	manifests := waitManifests(t, n, r.ID, 1)
	c, err := cid.Decode(manifests[0])
	if err != nil {
		t.Fatal(err)
	}
	blk, err := n.Blocks.Blockstore().Get(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	m, err := blocks.DecodeManifest(blk)
	if err != nil || len(m) != 1 || !m[blob].Defined() {
		t.Fatalf("manifest %v, %v; want the blob %s", m, err, blob)
	}
	if err := n.Blocks.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := blocks.ReadUnixFSObject(ctx, n.Blocks.Blockstore().Get, m[blob], blob, &got); err != nil {
		t.Fatal(err)
	}
	if want := append([]byte("blob "+strconv.Itoa(len(big))+"\x00"), big...); !bytes.Equal(got.Bytes(), want) {
		t.Fatal("the manifest's entry reassembles to other bytes")
	}
	// A push of small objects records none.
	n.Commit(work, "Small", map[string]string{"notes.txt": "small\n"})
	n.Git(work, "push", "--quiet", "origin", "main")
	if err := n.Blocks.Settle(ctx); err != nil { // a record is journaled before its job ends
		t.Fatal(err)
	}
	if again, err := n.Index.Manifests(ctx, r.ID); err != nil || len(again) != 1 {
		t.Fatalf("manifests after a small push = %v, %v", again, err)
	}
	tip := strings.TrimSpace(n.Git(work, "rev-parse", "HEAD"))

	// 2. Another node replicates the repository over bitswap. The blob is
	// no block file on this node: git holds it, and its chunks are served
	// from it; the replica reads the manifest's chunks first.
	if _, err := os.Stat(filepath.Join(n.Dir, "blocks", blob[:2], blob[2:])); !os.IsNotExist(err) {
		t.Fatalf("the blob is stored again as a block file (%v)", err)
	}
	a := startIPFS(t, n.Blocks)
	storeB, err := blocks.Open(filepath.Join(t.TempDir(), "blocks"), forgetest.Quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { storeB.Close() })
	b := startIPFS(t, storeB)
	infos, err := libp2ppeer.AddrInfosFromP2pAddrs(a.Addrs()...)
	if err != nil || len(infos) != 1 {
		t.Fatal(infos, err)
	}
	if err := b.Connect(ctx, infos[0]); err != nil {
		t.Fatal(err)
	}
	gitB, err := gitstore.Open(filepath.Join(t.TempDir(), "git"))
	if err != nil {
		t.Fatal(err)
	}
	rep := replica.New(replica.Config{
		Chain: n.Index, Git: gitB, Blocks: storeB, Bitswap: b, Peers: replica.StaticPeers(nil),
		Self: common.HexToAddress("0x0000000000000000000000000000000000000B01"), Policy: replica.SeedAll, Log: forgetest.Quiet,
	})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); rep.Run(runCtx) }()
	t.Cleanup(func() { stop(); <-done })
	deadline := time.Now().Add(time.Minute)
	for {
		st, _ := rep.Status(r.ID)
		if st.State == replica.Ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("replication: %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	dirB, err := gitB.Path(strings.ToLower(r.Owner.Address), strconv.FormatUint(r.ID, 10))
	if err != nil {
		t.Fatal(err)
	}
	gitAt := func(args ...string) string {
		t.Helper()
		out, err := gitstore.Command(ctx, dirB, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if head := gitAt("rev-parse", "refs/heads/main"); head != tip {
		t.Fatalf("main on the replica = %s, want %s", head, tip)
	}
	if size := gitAt("cat-file", "-s", blob); size != strconv.Itoa(len(big)) {
		t.Fatalf("the replicated blob is %s bytes", size)
	}
	gitAt("fsck", "--strict")
	if !storeB.Has(m[blob]) {
		t.Fatal("the replica does not keep the chunks it fetched")
	}
}

func startIPFS(t *testing.T, s *blocks.Store) *p2p.Node {
	t.Helper()
	node, err := p2p.Start(context.Background(), p2p.Config{
		ListenAddrs: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")},
		Blockstore:  s.Blockstore(), Log: forgetest.Quiet,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Close() })
	return node
}

// waitManifests waits until the chain lists want manifests of repo's big
// objects, and returns them.
func waitManifests(t *testing.T, n *forgetest.Node, repo uint64, want int) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := n.Index.Manifests(context.Background(), repo)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) >= want {
			if len(got) != want {
				t.Fatalf("manifests on chain = %v; want %d", got, want)
			}
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("manifests on chain = %v after 30s; want %d", got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
