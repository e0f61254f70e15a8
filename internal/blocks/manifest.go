package blocks

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	"github.com/ipld/go-ipld-prime/codec/dagcbor"
	"github.com/ipld/go-ipld-prime/datamodel"
	"github.com/ipld/go-ipld-prime/fluent/qp"
	cidlink "github.com/ipld/go-ipld-prime/linking/cid"
	"github.com/ipld/go-ipld-prime/node/basicnode"
	"github.com/multiformats/go-multihash"
)

// Manifest maps the git ids of a push's big objects (IsBig) to the roots
// of their UnixFS files. It is a dag-cbor block (CIDv1, sha2-256), a map
// of hex git id to link, {"<id>": &root, ...}, in this store like any
// block; a repo.manifest transaction (or an older push's repo.push) names it, so a replica that
// walks a repository over bitswap knows which objects to read as UnixFS
// and where.
type Manifest map[string]cid.Cid

// MaxManifestObjects bounds a manifest's entries (about 80 bytes each: the
// block stays under ChunkSize). A push with more big objects lists the
// first ones; the others still travel as git-raw blocks where they can.
const MaxManifestObjects = 10000

var manifestPrefix = cid.V1Builder{Codec: cid.DagCBOR, MhType: multihash.SHA2_256}

// Block encodes the manifest, its entries sorted by id.
func (m Manifest) Block() (blockformat.Block, error) {
	if len(m) > MaxManifestObjects {
		return nil, fmt.Errorf("encode manifest: %d objects, over %d", len(m), MaxManifestObjects)
	}
	ids := slices.Sorted(maps.Keys(m))
	node, err := qp.BuildMap(basicnode.Prototype.Map, int64(len(ids)), func(ma datamodel.MapAssembler) {
		for _, id := range ids {
			qp.MapEntry(ma, id, qp.Link(cidlink.Link{Cid: m[id]}))
		}
	})
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	var buf bytes.Buffer
	if err := dagcbor.Encode(node, &buf); err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	c, err := manifestPrefix.Sum(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return blockformat.NewBlockWithCid(buf.Bytes(), c)
}

// IsManifestCID reports whether c is of a manifest's kind: CIDv1,
// dag-cbor, sha2-256.
func IsManifestCID(c cid.Cid) bool {
	return c.Defined() && c.Version() == 1 && c.Type() == cid.DagCBOR && Storable(c)
}

// DecodeManifest reads a manifest block, checking it against its CID and
// every entry: a git id naming a UnixFS root (dag-pb or raw, sha2-256).
func DecodeManifest(blk blockformat.Block) (Manifest, error) {
	c := blk.Cid()
	if !IsManifestCID(c) {
		return nil, fmt.Errorf("manifest %s: not a dag-cbor sha2-256 CIDv1", c)
	}
	if got, err := c.Prefix().Sum(blk.RawData()); err != nil || !got.Equals(c) {
		return nil, fmt.Errorf("manifest %s: its bytes hash to %s", c, got)
	}
	nb := basicnode.Prototype.Any.NewBuilder()
	if err := dagcbor.Decode(nb, bytes.NewReader(blk.RawData())); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", c, err)
	}
	node := nb.Build()
	if node.Kind() != datamodel.Kind_Map || node.Length() > MaxManifestObjects {
		return nil, fmt.Errorf("manifest %s: not a map of at most %d git ids", c, MaxManifestObjects)
	}
	m := make(Manifest, node.Length())
	for it := node.MapIterator(); !it.Done(); {
		k, v, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("manifest %s: %w", c, err)
		}
		id, _ := k.AsString()
		l, err := v.AsLink()
		if err != nil || !isHex(id, 40) {
			return nil, fmt.Errorf("manifest %s: entry %q is not a git id and a link", c, id)
		}
		root := l.(cidlink.Link).Cid
		if !Storable(root) || (root.Type() != cid.DagProtobuf && root.Type() != cid.Raw) {
			return nil, fmt.Errorf("manifest %s: %s is not a UnixFS root", c, root)
		}
		m[id] = root
	}
	return m, nil
}

// PutManifest stores the manifest's block and returns its CID.
func (s *Store) PutManifest(m Manifest) (cid.Cid, error) {
	blk, err := m.Block()
	if err != nil {
		return cid.Undef, err
	}
	if err := s.Put(blk.Cid(), blk.RawData()); err != nil {
		return cid.Undef, err
	}
	return blk.Cid(), nil
}
