package blocks

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"

	chunker "github.com/ipfs/boxo/chunker"
	"github.com/ipfs/boxo/ipld/merkledag"
	"github.com/ipfs/boxo/ipld/unixfs/importer/balanced"
	"github.com/ipfs/boxo/ipld/unixfs/importer/helpers"
	uio "github.com/ipfs/boxo/ipld/unixfs/io"
	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	ipld "github.com/ipfs/go-ipld-format"
	"github.com/multiformats/go-multihash"
)

// Big objects. A block over 1 MiB is not sure to travel over bitswap
// (IPFS implementations keep to 1 MiB; some refuse more than 2 MiB), so
// a git object whose loose form is over
// ChunkSize is also stored as a UnixFS file of that loose form: ChunkSize
// chunks as raw leaves under a balanced dag-pb tree, CIDv1 and sha2-256
// throughout, the file `ipfs add --cid-version 1 --raw-leaves --chunker
// size-1048576` makes of the same bytes. A fetcher reads the file block by
// block, each checked against its CID, and the object by its git id (the
// SHA-1 of the bytes reassembled).

// ChunkSize is the size of a big object's chunks, and the loose size over
// which an object is big.
const ChunkSize = 1 << 20

// MaxBigObject bounds the loose size of an object read back from UnixFS
// (ReadUnixFSObject holds what it reads where the caller says).
const MaxBigObject = 1 << 30

// LooseSize is the size of a git object's loose form, "<type> <size>\0"
// and its content of size bytes.
func LooseSize(kind string, size int64) int64 {
	return int64(len(kind)+2+len(strconv.FormatInt(size, 10))) + size
}

// IsBig reports whether an object of that type and content size is stored
// as a UnixFS file too.
func IsBig(kind string, size int64) bool {
	return LooseSize(kind, size) > ChunkSize
}

// unixfsPrefix names the UnixFS file's nodes; its leaves are raw.
var unixfsPrefix = cid.V1Builder{Codec: cid.DagProtobuf, MhType: multihash.SHA2_256}

// UnixFSRoot is the root CID of the UnixFS file of r (a loose object),
// computed without storing anything: what a push's manifest names.
func UnixFSRoot(r io.Reader) (cid.Cid, error) {
	return buildUnixFS(r, discardDAG{})
}

// PutUnixFS stores r (a loose object) as a UnixFS file and returns its
// root. Every block is checked against its CID as it is written.
func (s *Store) PutUnixFS(r io.Reader) (cid.Cid, error) {
	return buildUnixFS(r, storeDAG{s: s})
}

func (s *Store) putUnixFSFile(path string) (cid.Cid, error) {
	f, err := os.Open(path)
	if err != nil {
		return cid.Undef, err
	}
	defer f.Close()
	return s.PutUnixFS(f)
}

func buildUnixFS(r io.Reader, dag ipld.DAGService) (cid.Cid, error) {
	params := helpers.DagBuilderParams{
		Maxlinks:   helpers.DefaultLinksPerBlock,
		RawLeaves:  true,
		CidBuilder: unixfsPrefix,
		Dagserv:    dag,
	}
	db, err := params.New(chunker.NewSizeSplitter(r, ChunkSize))
	if err != nil {
		return cid.Undef, fmt.Errorf("chunk object: %w", err)
	}
	root, err := balanced.Layout(db)
	if err != nil {
		return cid.Undef, fmt.Errorf("chunk object: %w", err)
	}
	return root.Cid(), nil
}

// GetBlockFunc reads a block: the blockstore's Get, a blockservice's
// GetBlock, a p2p node's Fetch (bitswap).
type GetBlockFunc func(ctx context.Context, c cid.Cid) (blockformat.Block, error)

// ReadUnixFSObject writes the git object id, stored as the UnixFS file
// root, to w, reading its blocks with get. Each block is checked against
// its CID, and the whole against id; on an error, what w got is not the
// object and must be dropped.
func ReadUnixFSObject(ctx context.Context, get GetBlockFunc, root cid.Cid, id string, w io.Writer) error {
	want, err := hex.DecodeString(id)
	if err != nil || len(want) != sha1.Size {
		return fmt.Errorf("read object %s: not a git id", id)
	}
	ng := verifiedGetter{get: get}
	node, err := ng.Get(ctx, root)
	if err != nil {
		return fmt.Errorf("read object %s: %w", id, err)
	}
	r, err := uio.NewDagReader(ctx, node, ng)
	if err != nil {
		return fmt.Errorf("read object %s: UnixFS file %s: %w", id, root, err)
	}
	if r.Size() > MaxBigObject {
		return fmt.Errorf("read object %s: UnixFS file %s is %d bytes, over the %d a big object may have", id, root, r.Size(), MaxBigObject)
	}
	h := sha1.New()
	if _, err := io.Copy(io.MultiWriter(w, h), r); err != nil {
		return fmt.Errorf("read object %s: UnixFS file %s: %w", id, root, err)
	}
	if got := h.Sum(nil); hex.EncodeToString(got) != id {
		return fmt.Errorf("read object %s: UnixFS file %s holds another object (%x)", id, root, got)
	}
	return nil
}

// verifiedGetter reads a UnixFS file's nodes, refusing a block whose bytes
// are not its CID's and any codec but dag-pb and raw.
type verifiedGetter struct{ get GetBlockFunc }

func (g verifiedGetter) Get(ctx context.Context, c cid.Cid) (ipld.Node, error) {
	if !Storable(c) || (c.Type() != cid.DagProtobuf && c.Type() != cid.Raw) {
		return nil, fmt.Errorf("block %s is not a UnixFS node (dag-pb or raw, sha2-256)", c)
	}
	blk, err := g.get(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("get block %s: %w", c, err)
	}
	got, err := c.Prefix().Sum(blk.RawData())
	if err != nil || !got.Equals(c) {
		return nil, fmt.Errorf("block %s: its bytes hash to %s", c, got)
	}
	// Decode the bytes under the CID asked for, whatever the getter named them.
	blk, err = blockformat.NewBlockWithCid(blk.RawData(), c)
	if err != nil {
		return nil, err
	}
	if c.Type() == cid.Raw {
		return merkledag.DecodeRawBlock(blk)
	}
	return merkledag.DecodeProtobufBlock(blk)
}

// GetMany reads the blocks at once (the reader asks for a window of the
// chunks ahead), each answer on the channel as it comes.
func (g verifiedGetter) GetMany(ctx context.Context, cids []cid.Cid) <-chan *ipld.NodeOption {
	out := make(chan *ipld.NodeOption, len(cids))
	var wg sync.WaitGroup
	for _, c := range cids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := g.Get(ctx, c)
			out <- &ipld.NodeOption{Node: n, Err: err}
		}()
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

// discardDAG takes the nodes of a UnixFS file and keeps none: the importer
// only adds, and the CIDs are what is wanted.
type discardDAG struct{}

var errWriteOnly = errors.New("blocks: a write-only DAG")

func (discardDAG) Get(context.Context, cid.Cid) (ipld.Node, error) { return nil, errWriteOnly }
func (discardDAG) GetMany(context.Context, []cid.Cid) <-chan *ipld.NodeOption {
	out := make(chan *ipld.NodeOption)
	close(out)
	return out
}
func (discardDAG) Add(context.Context, ipld.Node) error        { return nil }
func (discardDAG) AddMany(context.Context, []ipld.Node) error  { return nil }
func (discardDAG) Remove(context.Context, cid.Cid) error       { return errWriteOnly }
func (discardDAG) RemoveMany(context.Context, []cid.Cid) error { return errWriteOnly }

// storeDAG writes a UnixFS file's nodes to the store; with nodesOnly, its
// dag-pb nodes only, not the raw chunks (which git holds: bigfromgit.go).
type storeDAG struct {
	discardDAG
	s         *Store
	nodesOnly bool
}

func (d storeDAG) Add(_ context.Context, n ipld.Node) error {
	if d.nodesOnly && n.Cid().Prefix().Codec == cid.Raw {
		return nil
	}
	return d.s.Put(n.Cid(), n.RawData())
}

func (d storeDAG) AddMany(ctx context.Context, ns []ipld.Node) error {
	for _, n := range ns {
		if err := d.Add(ctx, n); err != nil {
			return err
		}
	}
	return nil
}
