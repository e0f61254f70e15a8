package gitrepos_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ipfs/go-cid"
	libp2ppeer "github.com/libp2p/go-libp2p/core/peer"

	"github.com/dforge/dforge/internal/blocks"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/replica"
)

// A release asset uploaded to one node, and an LFS object recorded there,
// reach a second node that follows the same chain: its replicator fetches
// them over bitswap by the CIDs on chain into its own blockstore, from
// which the second node serves the asset's download.
func TestSecondNodeServesReplicatedFiles(t *testing.T) {
	n := forgetest.Start(t)
	ctx := context.Background()
	alice := n.NewUser()
	r, err := n.Repos.Create(ctx, alice.Address, gitrepos.CreateOptions{
		Name: "shipped", README: []byte("# shipped\n"), Author: gitstore.Signature{Name: "alice", Email: "alice@example.org", When: time.Unix(1700000000, 0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, perm, err := n.Repos.Repo(ctx, alice.Address, alice.Name(), "shipped")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := n.Repos.CreateRelease(ctx, alice.Address, r, perm, gitrepos.ReleaseOptions{TagName: "v1", Title: "One"})
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 2*blocks.ChunkSize+999)
	rand.Read(data)
	asset, err := n.Repos.AddAsset(ctx, alice.Address, r, perm, rel.ID, "tool.bin", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	lfsData := []byte("an LFS object's bytes\n")
	lf, err := n.Blocks.PutFile(bytes.NewReader(lfsData), int64(len(lfsData)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := n.Forge.Do(ctx, alice.Address, chainforge.RepoLFS{Repo: r.ID, Objects: []chainforge.LFSObject{{OID: lf.SHA256, Size: lf.Size, CID: lf.CID.String()}}}); err != nil {
		t.Fatal(err)
	}
	if err := n.Blocks.Settle(ctx); err != nil {
		t.Fatal(err)
	}

	// The second node: its own blockstore and git store, connected to the
	// first over libp2p, following the chain's projection.
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
	assetCID, err := cid.Decode(asset.CID)
	if err != nil {
		t.Fatal(err)
	}
	if storeB.Has(assetCID) {
		t.Fatal("the second node has the asset before replicating")
	}
	rep := replica.New(replica.Config{
		Chain: n.Index, Git: gitB, Blocks: storeB, Bitswap: b, Peers: replica.StaticPeers(nil),
		Self: common.HexToAddress("0x0000000000000000000000000000000000000B02"), Policy: replica.SeedAll, Log: forgetest.Quiet,
	})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); rep.Run(runCtx) }()
	t.Cleanup(func() { stop(); <-done })
	deadline := time.Now().Add(time.Minute)
	for !storeB.HasFile(ctx, assetCID) || !storeB.HasFile(ctx, lf.CID) {
		if time.Now().After(deadline) {
			st, _ := rep.Status(r.ID)
			t.Fatalf("the files did not reach the second node; replication %+v", st)
		}
		time.Sleep(100 * time.Millisecond)
	}

	// The second node serves the download from its own blocks.
	hostingB := gitrepos.New(n.Forge, gitB, storeB, forgetest.Quiet)
	f, err := hostingB.OpenAsset(ctx, asset, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the second node's download: %d bytes (%v), want the %d uploaded", len(got), err, len(data))
	}
}
