package blocks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	uio "github.com/ipfs/boxo/ipld/unixfs/io"
	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
)

// Files: release assets and Git LFS objects, stored as UnixFS files the
// way big git objects are (ChunkSize raw leaves under a balanced dag-pb
// tree, CIDv1 sha2-256: what `ipfs add --cid-version 1 --raw-leaves
// --chunker size-1048576` makes), so any IPFS client fetches them by their
// root through the gateway or bitswap. Unlike a big object, a file is its
// bytes alone, and its identity besides the CID is the SHA-256 of those.

// File is a stored file: its UnixFS root, size and SHA-256 (hex).
type File struct {
	CID    cid.Cid
	Size   int64
	SHA256 string
}

// ErrTooLarge is a file over the limit it was put with.
var ErrTooLarge = errors.New("blocks: the file is over its size limit")

// PutFile stores r, of at most limit bytes, as a UnixFS file. Past the
// limit it stops with ErrTooLarge; the blocks written by then stay, as
// blocks no record names (the same bytes would make them again).
func (s *Store) PutFile(r io.Reader, limit int64) (File, error) {
	h := sha256.New()
	lr := &limitedReader{r: io.TeeReader(r, h), left: limit}
	root, err := s.PutUnixFS(lr)
	if lr.over {
		return File{}, ErrTooLarge
	}
	if err != nil {
		return File{}, fmt.Errorf("store file: %w", err)
	}
	return File{CID: root, Size: limit - lr.left, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// limitedReader reads at most left bytes and notes a read past them.
type limitedReader struct {
	r    io.Reader
	left int64
	over bool
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		if n, _ := io.ReadFull(l.r, one[:]); n > 0 {
			l.over = true
			return 0, ErrTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// FileReader reads a UnixFS file block by block; it seeks, so a download
// can answer range requests.
type FileReader = uio.DagReader

// OpenFile opens the UnixFS file root, reading its blocks with get, each
// checked against its CID.
func OpenFile(ctx context.Context, get GetBlockFunc, root cid.Cid) (FileReader, error) {
	ng := verifiedGetter{get: get}
	node, err := ng.Get(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("open file %s: %w", root, err)
	}
	r, err := uio.NewDagReader(ctx, node, ng)
	if err != nil {
		return nil, fmt.Errorf("open file %s: %w", root, err)
	}
	return r, nil
}

// GetBlock reads a block of this store, for OpenFile.
func (s *Store) GetBlock(_ context.Context, c cid.Cid) (blockformat.Block, error) {
	data, err := s.Get(c)
	if err != nil {
		return nil, err
	}
	return blockformat.NewBlockWithCid(data, c)
}

// HasFile reports whether every block of the UnixFS file root is here.
func (s *Store) HasFile(ctx context.Context, root cid.Cid) bool {
	r, err := OpenFile(ctx, s.GetBlock, root)
	if err != nil {
		return false
	}
	defer r.Close()
	_, err = io.Copy(io.Discard, r)
	return err == nil
}

// FetchFile copies the UnixFS file root into this store, reading the
// blocks it lacks with get (a peer over bitswap), each checked against its
// CID.
func (s *Store) FetchFile(ctx context.Context, get GetBlockFunc, root cid.Cid) error {
	local := func(ctx context.Context, c cid.Cid) (blockformat.Block, error) {
		if s.Has(c) {
			return s.GetBlock(ctx, c)
		}
		blk, err := get(ctx, c)
		if err != nil {
			return nil, err
		}
		if got, err := c.Prefix().Sum(blk.RawData()); err != nil || !got.Equals(c) {
			return nil, fmt.Errorf("block %s: its bytes hash to %s", c, got)
		}
		if err := s.Put(c, blk.RawData()); err != nil {
			return nil, fmt.Errorf("store block %s: %w", c, err)
		}
		return blk, nil
	}
	r, err := OpenFile(ctx, local, root)
	if err != nil {
		return err
	}
	defer r.Close()
	if _, err := io.Copy(io.Discard, r); err != nil {
		return fmt.Errorf("fetch file %s: %w", root, err)
	}
	return nil
}
