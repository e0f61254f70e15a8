package blocks_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	ipld "github.com/ipfs/go-ipld-format"
	"github.com/multiformats/go-multihash"

	"github.com/dforge/dforge/internal/blocks"
)

func TestBoxoBlockstore(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, filepath.Join(t.TempDir(), "blocks"))
	bs := s.Blockstore()

	data := []byte("blob 12\x00hello, ipfs\n")
	c := blocks.CIDForGitObject(sha1Hex(string(data)))
	missing := blocks.CIDForGitObject(emptyBlob)

	// A block that is not here is boxo's not-found, for Get and GetSize.
	if _, err := bs.Get(ctx, missing); !ipld.IsNotFound(err) {
		t.Fatalf("Get of a missing block: %v, want ipld.ErrNotFound", err)
	}
	if _, err := bs.GetSize(ctx, missing); !ipld.IsNotFound(err) {
		t.Fatalf("GetSize of a missing block: %v, want ipld.ErrNotFound", err)
	}
	if ok, err := bs.Has(ctx, missing); ok || err != nil {
		t.Fatalf("Has of a missing block: %v %v", ok, err)
	}

	// Put checks the bytes against the CID and refuses other codecs and hashes.
	blk, err := blockformat.NewBlockWithCid(data, c)
	if err != nil {
		t.Fatal(err)
	}
	wrong, _ := blockformat.NewBlockWithCid([]byte("blob 1\x00x"), missing) // unchecked: lies about its hash
	if err := bs.Put(ctx, wrong); err == nil {
		t.Fatal("a block that does not hash to its CID was stored")
	}
	rawCodec, _ := blockformat.NewBlockWithCid(data, cid.NewCidV1(cid.Raw, c.Hash()))
	if err := bs.Put(ctx, rawCodec); err == nil {
		t.Fatal("a raw-codec sha1 block was stored")
	}
	sha256mh, _ := multihash.Sum(data, multihash.SHA2_256, -1)
	gitRaw256, _ := blockformat.NewBlockWithCid(data, cid.NewCidV1(blocks.GitRaw, sha256mh))
	if err := bs.Put(ctx, gitRaw256); err == nil {
		t.Fatal("a git-raw sha2-256 block was stored")
	}
	sha512mh, _ := multihash.Sum(data, multihash.SHA2_512, -1)
	raw512, _ := blockformat.NewBlockWithCid(data, cid.NewCidV1(cid.Raw, sha512mh))
	if err := bs.Put(ctx, raw512); err == nil {
		t.Fatal("a sha2-512 block was stored")
	}
	if err := bs.PutMany(ctx, []blockformat.Block{blk}); err != nil {
		t.Fatal(err)
	}

	got, err := bs.Get(ctx, c)
	if err != nil || !bytes.Equal(got.RawData(), data) || !got.Cid().Equals(c) {
		t.Fatalf("Get: %v %v", got, err)
	}
	if n, err := bs.GetSize(ctx, c); err != nil || n != len(data) {
		t.Fatalf("GetSize: %d %v", n, err)
	}
	if ok, err := bs.Has(ctx, c); !ok || err != nil {
		t.Fatalf("Has: %v %v", ok, err)
	}
	// The same digest under another codec is found, under the CID asked for.
	raw := cid.NewCidV1(cid.Raw, c.Hash())
	if got, err := bs.Get(ctx, raw); err != nil || !got.Cid().Equals(raw) {
		t.Fatalf("Get by raw codec: %v %v", got, err)
	}
	// Another hash of the same bytes is simply not here.
	if _, err := bs.Get(ctx, cid.NewCidV1(cid.Raw, sha256mh)); !ipld.IsNotFound(err) {
		t.Fatalf("Get of a sha2-256 CID: %v", err)
	}

	if err := bs.DeleteBlock(ctx, c); !errors.Is(err, blocks.ErrDeleteRefused) {
		t.Fatalf("DeleteBlock: %v", err)
	}

	if err := bs.Put(ctx, mustBlock(t, "blob 0\x00")); err != nil {
		t.Fatal(err)
	}
	keys, err := bs.AllKeysChan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for k := range keys {
		seen[k.String()] = true
	}
	if len(seen) != 2 || !seen[c.String()] || !seen[missing.String()] {
		t.Fatalf("AllKeysChan: %v", seen)
	}
}

func mustBlock(t *testing.T, data string) blockformat.Block {
	t.Helper()
	b, err := blockformat.NewBlockWithCid([]byte(data), blocks.CIDForGitObject(sha1Hex(data)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
