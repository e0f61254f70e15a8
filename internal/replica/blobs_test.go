package replica

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/p2p/p2ptest"
)

// blobChain is the fake chain with files recorded for its repositories.
type blobChain struct {
	*fakeChain
	blobs map[uint64][]string
}

func (c blobChain) Blobs(_ context.Context, repo uint64) ([]string, error) { return c.blobs[repo], nil }

// A release asset stored on one node (a UnixFS file of several chunks)
// comes to a second node over bitswap by the CID the chain records: every
// block checked and kept, so the second node reads the same bytes from its
// own store and serves them.
func TestReplicatesFilesOverBitswap(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := make([]byte, 2*blocks.ChunkSize+777)
	rand.Read(data)
	storeA := p2ptest.OpenBlocks(t)
	f, err := storeA.PutFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	a := p2ptest.StartNode(t, storeA.Blockstore())
	storeB := p2ptest.OpenBlocks(t)
	b := p2ptest.StartNode(t, storeB.Blockstore())
	p2ptest.Connect(t, b, a)

	chain := blobChain{fakeChain: newChain(), blobs: map[uint64][]string{1: {f.CID.String()}}}
	r := New(Config{Chain: chain, Blocks: storeB, Bitswap: b, Self: node1, Policy: SeedAll, Log: quiet})
	if storeB.Has(f.CID) {
		t.Fatal("the second store has the file before replicating")
	}
	if err := r.syncBlobs(ctx, 1); err != nil {
		t.Fatal(err)
	}
	fr, err := blocks.OpenFile(ctx, storeB.GetBlock, f.CID) // this store alone
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(fr)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the replicated file: %d bytes, err %v; want the %d stored", len(got), err, len(data))
	}

	// A file no peer has fails the run (retried later), and is not marked.
	other, err := blocks.UnixFSRoot(bytes.NewReader([]byte("nobody has this")))
	if err != nil {
		t.Fatal(err)
	}
	chain.blobs[2] = []string{other.String()}
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := r.syncBlobs(short, 2); err == nil || r.haveBlob(other.String()) {
		t.Fatalf("a file no peer has: err %v", err)
	}
}
