package blocks

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ipfs/boxo/blockstore"
	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	ipld "github.com/ipfs/go-ipld-format"
	"github.com/multiformats/go-multihash"
)

// ErrDeleteRefused is returned by the boxo view's DeleteBlock: blocks leave
// the store with their repository, never one at a time from a peer's or a
// library's call.
var ErrDeleteRefused = errors.New("blocks: deleting a block is not supported")

// Blockstore returns the store as a boxo blockstore, for bitswap,
// blockservice and the gateway. Blocks are found by multihash (any codec
// naming a digest that is here gets its bytes under the CID asked for);
// only the kinds Storable names are stored (git-raw sha1; raw, dag-pb and
// dag-cbor sha2-256), each checked against its CID.
// A block that is not here is an ipld.ErrNotFound, as boxo expects.
func (s *Store) Blockstore() blockstore.Blockstore {
	return boxoStore{s: s}
}

type boxoStore struct{ s *Store }

var _ blockstore.Blockstore = boxoStore{}

func (b boxoStore) Has(_ context.Context, c cid.Cid) (bool, error) {
	return b.s.Has(c), nil
}

func (b boxoStore) Get(ctx context.Context, c cid.Cid) (blockformat.Block, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	data, err := b.s.Get(c)
	if errors.Is(err, ErrNotFound) {
		return nil, ipld.ErrNotFound{Cid: c}
	}
	if err != nil {
		return nil, err
	}
	// The bytes were checked against their hash when written; the block
	// carries the CID it was asked for, so another codec's name round-trips.
	return blockformat.NewBlockWithCid(data, c)
}

func (b boxoStore) GetSize(_ context.Context, c cid.Cid) (int, error) {
	f, size, err := b.s.Open(c)
	if errors.Is(err, ErrNotFound) {
		return -1, ipld.ErrNotFound{Cid: c}
	}
	if err != nil {
		return -1, err
	}
	f.Close()
	return int(size), nil
}

func (b boxoStore) Put(ctx context.Context, blk blockformat.Block) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return b.s.Put(blk.Cid(), blk.RawData())
}

func (b boxoStore) PutMany(ctx context.Context, blks []blockformat.Block) error {
	for _, blk := range blks {
		if err := b.Put(ctx, blk); err != nil {
			return err
		}
	}
	return nil
}

func (b boxoStore) DeleteBlock(context.Context, cid.Cid) error {
	return ErrDeleteRefused
}

// AllKeysChan lists every stored block: a sha1 one as a git-raw CID, a
// sha2-256 one as a raw CID (the store keeps multihashes, not codecs, as
// boxo's own blockstore does). It reads the store's two-level directory
// (temporary and queue files are skipped), then the git objects served
// from git (gitindex.go), as git-raw CIDs, and the chunks of big ones, as
// raw CIDs, unchecked: a reader of one checks it.
func (b boxoStore) AllKeysChan(ctx context.Context) (<-chan cid.Cid, error) {
	top, err := os.ReadDir(b.s.dir)
	if err != nil {
		return nil, fmt.Errorf("list blocks: %w", err)
	}
	out := make(chan cid.Cid, 64)
	go func() {
		defer close(out)
		for _, d := range top {
			if !d.IsDir() || !isHex(d.Name(), 2) {
				continue
			}
			files, err := os.ReadDir(filepath.Join(b.s.dir, d.Name()))
			if err != nil {
				continue
			}
			for _, f := range files {
				var c cid.Cid
				switch {
				case isHex(f.Name(), 38):
					c = CIDForGitObject(d.Name() + f.Name())
				case isHex(f.Name(), 62):
					c = rawCID(d.Name() + f.Name())
				default:
					continue
				}
				select {
				case out <- c:
				case <-ctx.Done():
					return
				}
			}
		}
		send := func(c cid.Cid) bool {
			select {
			case out <- c:
				return true
			case <-ctx.Done():
				return false
			}
		}
		b.s.index.each('o', sha1.Size, func(digest []byte) bool {
			return send(CIDForGitObject(hex.EncodeToString(digest)))
		})
		b.s.index.each('l', sha256.Size, func(digest []byte) bool {
			return send(rawCID(hex.EncodeToString(digest)))
		})
	}()
	return out, nil
}

// isHex reports whether s is n lower-case hex digits, as block paths are.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// rawCID is the raw CIDv1 of the sha2-256 digest in hex.
func rawCID(digest string) cid.Cid {
	d, _ := hex.DecodeString(digest)
	mh, err := multihash.Encode(d, multihash.SHA2_256)
	if err != nil {
		return cid.Undef
	}
	return cid.NewCidV1(cid.Raw, mh)
}
