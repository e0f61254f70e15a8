package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/usererr"
)

// Git LFS objects (the git server's LFSStore): each a UnixFS file in the
// blockstore, its oid (the SHA-256 of its bytes), size and CID recorded on
// chain by a repo.lfs action, so every node that seeds the repository
// fetches and serves it.

// MaxLFSUpload is the largest LFS object a node takes.
const MaxLFSUpload = 2 << 30

func lfsRefused(kind usererr.Kind, format string, args ...any) error {
	return usererr.Newf(kind, "lfs", format, args...)
}

// LFSSizes are the recorded sizes of those of oids r has.
func (h *Repos) LFSSizes(ctx context.Context, r repoaccess.Repo, oids []string) (map[string]int64, error) {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("repository id %q: %w", r.ID, err)
	}
	objs, err := h.forge.Index().LFSObjects(ctx, id, oids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(objs))
	for oid, o := range objs {
		out[oid] = o.Size
	}
	return out, nil
}

// PutLFS stores body as a UnixFS file (in the node's private files for a
// private repository), checks it is object oid of size bytes, and records
// it on chain (in the private store).
func (h *Repos) PutLFS(ctx context.Context, u *auth.User, r repoaccess.Repo, oid string, size int64, body io.Reader) error {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil {
		return fmt.Errorf("repository id %q: %w", r.ID, err)
	}
	if size > MaxLFSUpload {
		return lfsRefused(usererr.TooLarge, "the object is %d bytes; this node takes at most %d", size, MaxLFSUpload)
	}
	if r.Private {
		// The blockstore is public: the gateway serves every block in it.
		return h.putPrivateLFS(ctx, u.Address, id, oid, size, body)
	}
	if h.blocks == nil {
		return lfsRefused(usererr.Unprocessable, "this node keeps no LFS objects")
	}
	f, err := h.blocks.PutFile(body, size)
	if errors.Is(err, blocks.ErrTooLarge) {
		return lfsRefused(usererr.Unprocessable, "the upload is longer than its Content-Length")
	}
	if err != nil {
		return err
	}
	if f.Size != size || f.SHA256 != oid {
		return lfsRefused(usererr.Unprocessable, "the upload is %d bytes hashing to %s, not object %s of %d bytes", f.Size, f.SHA256, oid, size)
	}
	_, err = h.forge.Do(ctx, u.Address, chainforge.RepoLFS{Repo: id, Objects: []chainforge.LFSObject{{OID: oid, Size: size, CID: f.CID.String()}}})
	return err
}

// OpenLFS opens object oid of r from this node's blockstore.
func (h *Repos) OpenLFS(ctx context.Context, r repoaccess.Repo, oid string) (io.ReadSeekCloser, error) {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("repository id %q: %w", r.ID, err)
	}
	objs, err := h.forge.Index().LFSObjects(ctx, id, []string{oid})
	if err != nil {
		return nil, err
	}
	o, ok := objs[oid]
	if ok && o.CID == "" {
		// A private repository's object, in the node's private files.
		return h.openPrivate(oid, "object "+oid)
	}
	if !ok || h.blocks == nil {
		return nil, lfsRefused(usererr.NotFound, "object %s does not exist", oid)
	}
	c, err := cid.Decode(o.CID)
	if err != nil {
		return nil, lfsRefused(usererr.NotFound, "object %s does not exist", oid)
	}
	f, err := blocks.OpenFile(ctx, h.blocks.GetBlock, c)
	if err != nil {
		return nil, lfsRefused(usererr.NotFound, "object %s is not on this node yet: it is fetched from the node that took it", oid)
	}
	return f, nil
}
