package replica

import (
	"context"
	"fmt"

	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
)

// Blobs: the release assets and Git LFS objects of a seeded repository,
// UnixFS files the chain names by CID. After its git data, a repository's
// files this node lacks are fetched over bitswap, block by block (each
// checked against its CID), into the blockstore, so this node serves their
// downloads and the gateway too.

// BlobLister lists the CIDs of a repository's files (*index.Index); a
// Chain that is not one replicates no files.
type BlobLister interface {
	Blobs(ctx context.Context, repo uint64) ([]string, error)
}

// syncBlobs fetches repo's files this node lacks. A file that cannot be
// fetched fails the run, which is retried like a failed git fetch.
func (r *Replicator) syncBlobs(ctx context.Context, repo uint64) error {
	lister, ok := r.cfg.Chain.(BlobLister)
	if !ok || r.cfg.Blocks == nil || r.cfg.Bitswap == nil {
		return nil
	}
	list, err := lister.Blobs(ctx, repo)
	if err != nil {
		return err
	}
	ctx = r.cfg.Bitswap.Session(ctx)
	get := func(ctx context.Context, c cid.Cid) (blockformat.Block, error) {
		ctx, cancel := context.WithTimeout(ctx, blockTimeout)
		defer cancel()
		return r.cfg.Bitswap.Fetch(ctx, c)
	}
	for _, s := range list {
		if r.haveBlob(s) {
			continue
		}
		c, err := cid.Decode(s)
		if err != nil {
			continue // the chain checked its form; an old projection might not have
		}
		if err := r.cfg.Blocks.FetchFile(ctx, get, c); err != nil {
			return fmt.Errorf("fetch file %s of repository %d: %w", s, repo, err)
		}
		r.markBlob(s)
	}
	return nil
}

// haveBlob reports a file known complete here; markBlob records one, so a
// repository's later runs do not read its files again.
func (r *Replicator) haveBlob(c string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.blobs[c]
}

func (r *Replicator) markBlob(c string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.blobs == nil {
		r.blobs = map[string]bool{}
	}
	r.blobs[c] = true
}
