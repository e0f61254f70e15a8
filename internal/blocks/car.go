package blocks

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"

	"github.com/ipfs/boxo/blockstore"
	"github.com/ipfs/boxo/gateway"
	"github.com/ipfs/boxo/path"
	"github.com/ipfs/go-cid"
	carv2 "github.com/ipld/go-car/v2"
	"github.com/ipld/go-car/v2/storage"
)

// carBackend is boxo's blocks backend with its own walk for the CAR of a
// whole git-raw DAG (dag-scope=all, no path). boxo's walk recurses once per
// link and copies the path it came by at every step, so a history's cost
// grows with the square of its length (2,000 commits: seconds; 30,000:
// more than ten minutes) and its stack with its length. This walk keeps a
// stack of CIDs and a set of those sent: linear, in the same order as
// boxo's (depth-first in the data model's order, each block once).
//
// Paths (/ipfs/{commit}/tree/...) and dag-scope=block|entity stay boxo's:
// they are short, and boxo bounds a walk at 1,024 path segments.
type carBackend struct {
	*gateway.BlocksBackend
	bs  blockstore.Blockstore
	log *slog.Logger
}

func (b carBackend) GetCAR(ctx context.Context, p path.ImmutablePath, params gateway.CarParams) (gateway.ContentPathMetadata, io.ReadCloser, error) {
	root := p.RootCid()
	if params.Scope != gateway.DagScopeAll || len(p.Segments()) > 2 || root.Type() != GitRaw || params.Duplicates.Bool() {
		return b.BlocksBackend.GetCAR(ctx, p, params)
	}
	// Read the root before the status line goes out, so that a missing or
	// unreadable one is an HTTP error rather than an empty CAR.
	first, err := b.bs.Get(ctx, root)
	if err != nil {
		return gateway.ContentPathMetadata{}, nil, err
	}
	r, w := io.Pipe()
	go func() {
		err := b.walk(ctx, w, root, first.RawData())
		if err != nil && ctx.Err() == nil {
			b.log.WarnContext(ctx, "CAR walk stopped", "root", root.String(), "err", err)
		}
		w.CloseWithError(err) // always nil
	}()
	return gateway.ContentPathMetadata{LastSegment: path.FromCid(root)}, r, nil
}

// walk writes the CAR of the DAG at root (whose block is data): a block,
// then the DAGs of its links in order, skipping blocks already written.
func (b carBackend) walk(ctx context.Context, w io.Writer, root cid.Cid, data []byte) error {
	cw, err := storage.NewWritable(w, []cid.Cid{root}, carv2.WriteAsCarV1(true))
	if err != nil {
		return fmt.Errorf("start CAR: %w", err)
	}
	sent := map[string]bool{}
	stack := []cid.Cid{root}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if sent[c.KeyString()] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(sent) > 0 { // the root's block is data already
			blk, err := b.bs.Get(ctx, c)
			if err != nil {
				return fmt.Errorf("read block %s: %w", c, err)
			}
			data = blk.RawData()
		}
		if err := cw.Put(ctx, c.KeyString(), data); err != nil {
			return fmt.Errorf("write block %s: %w", c, err)
		}
		sent[c.KeyString()] = true
		links, err := gitLinks(data)
		if err != nil {
			return fmt.Errorf("block %s: %w", c, err)
		}
		// Last pushed, first walked: the first link comes out next.
		for _, l := range slices.Backward(links) {
			if !sent[l.KeyString()] {
				stack = append(stack, l)
			}
		}
	}
	return nil
}
