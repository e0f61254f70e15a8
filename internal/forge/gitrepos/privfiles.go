package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/privfiles"
	"github.com/dforge/dforge/internal/usererr"
)

// A private repository's release assets and LFS objects: the blockstore is
// public (the gateway serves every block in it, bitswap announces them), so
// their bytes go to the node's private files, named by SHA-256, and their
// records to the private store with no CID. They are never replicated.

func noPrivateFiles(what string) error {
	return usererr.Unprocessablef("repo", "private_files", "this node keeps no %s for private repositories", what)
}

// keepPrivate places a written file and records it, holding filesMu so a
// removal (removeUnused) never takes a file between the two. A refused
// record leaves no file that nothing names.
func (h *Repos) keepPrivate(ctx context.Context, p *privfiles.Pending, record func() error) error {
	h.filesMu.Lock()
	defer h.filesMu.Unlock()
	if err := p.Keep(); err != nil {
		return fmt.Errorf("keep the private file: %w", err)
	}
	if err := record(); err != nil {
		h.removeUnusedLocked(ctx, p.SHA256)
		return err
	}
	return nil
}

// removeUnused removes a private file no record (nor draft release) names
// any more.
func (h *Repos) removeUnused(ctx context.Context, digest string) {
	if h.files == nil {
		return
	}
	h.filesMu.Lock()
	defer h.filesMu.Unlock()
	h.removeUnusedLocked(ctx, digest)
}

func (h *Repos) removeUnusedLocked(ctx context.Context, digest string) {
	used, err := h.forge.Index().PrivateFileInUse(ctx, digest)
	if err == nil && !used {
		used, err = h.draftFileInUse(ctx, digest)
	}
	if err == nil && !used {
		err = h.files.Remove(digest)
	}
	if err != nil {
		// Kept: an unused file costs disk only; a wrong removal loses data.
		h.log.WarnContext(ctx, "remove an unused private file", "sha256", digest, "err", err)
	}
}

// addPrivateAsset stores an asset of a private repository's release.
func (h *Repos) addPrivateAsset(ctx context.Context, actor common.Address, r index.Repo, id uint64, name string, body io.Reader) (index.Asset, error) {
	if h.files == nil {
		return index.Asset{}, noPrivateFiles("release assets")
	}
	p, err := h.files.Write(body, MaxAssetUpload)
	if errors.Is(err, privfiles.ErrTooLarge) {
		return index.Asset{}, usererr.New(usererr.TooLarge, "too_large", fmt.Sprintf("the asset is over the %d bytes this node takes", MaxAssetUpload))
	}
	if err != nil {
		return index.Asset{}, fmt.Errorf("store the asset: %w", err)
	}
	defer p.Drop()
	var res forge.Result
	err = h.keepPrivate(ctx, p, func() error {
		var err error
		res, err = h.forge.Do(ctx, actor, chainforge.AssetAdd{Repo: r.ID, Release: id, Name: name, Size: p.Size, SHA256: p.SHA256})
		return err
	})
	if err != nil {
		return index.Asset{}, err
	}
	assets := res.Change.Release.Assets
	return h.asset(ctx, r.ID, id, assets[len(assets)-1].ID)
}

// putPrivateLFS stores LFS object oid of a private repository.
func (h *Repos) putPrivateLFS(ctx context.Context, actor common.Address, repo uint64, oid string, size int64, body io.Reader) error {
	if h.files == nil {
		return noPrivateFiles("LFS objects")
	}
	p, err := h.files.Write(body, size)
	if errors.Is(err, privfiles.ErrTooLarge) {
		return lfsRefused(usererr.Unprocessable, "the upload is longer than its Content-Length")
	}
	if err != nil {
		return fmt.Errorf("store the LFS object: %w", err)
	}
	defer p.Drop()
	if p.Size != size || p.SHA256 != oid {
		return lfsRefused(usererr.Unprocessable, "the upload is %d bytes hashing to %s, not object %s of %d bytes", p.Size, p.SHA256, oid, size)
	}
	return h.keepPrivate(ctx, p, func() error {
		_, err := h.forge.Do(ctx, actor, chainforge.RepoLFS{Repo: repo, Objects: []chainforge.LFSObject{{OID: oid, Size: size}}})
		return err
	})
}

// openPrivate opens a private file by digest; a 404 when it is missing.
func (h *Repos) openPrivate(digest, what string) (io.ReadSeekCloser, error) {
	if h.files == nil {
		return nil, usererr.Missingf("%s is not stored on this node", what)
	}
	f, err := h.files.Open(digest)
	if errors.Is(err, privfiles.ErrNotFound) {
		return nil, usererr.Missingf("%s is not stored on this node", what)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}
