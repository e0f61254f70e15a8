package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ipfs/go-cid"

	"github.com/dforge/dforge/internal/blocks"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Releases: the record is on chain (release.* actions), the tag in git
// (made here, as a push is, when the release names a tag that does not
// exist yet) and the assets in the blockstore as UnixFS files. A draft is
// kept on this node until published (release_drafts.go); each method here
// hands a draft's id to its draft counterpart.

// MaxAssetUpload is the largest asset a node takes.
const MaxAssetUpload = 1 << 30

// ReleaseOptions are a new release's fields.
type ReleaseOptions struct {
	TagName    string
	Target     string // branch or commit the tag is made at; the default branch when empty
	Title      string
	Note       string
	Draft      bool
	Prerelease bool
}

// CreateRelease records a release of o.TagName, first making the tag at
// o.Target when the repository has none by that name. A draft is kept on
// this node instead, without a tag: Gitea makes a draft's tag when it is
// published.
func (h *Repos) CreateRelease(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, o ReleaseOptions) (index.Release, error) {
	if perm < forge.PermWrite {
		return index.Release{}, usererr.Deniedf("creating a release needs write permission on %s", r.Name)
	}
	if err := chainforge.ValidateRefName("tag_name", "tags/"+o.TagName); err != nil || o.TagName == "" {
		return index.Release{}, usererr.BadFieldf("tag_name", "tag_name %q is not a valid git tag name", o.TagName)
	}
	if o.Target == "" {
		o.Target = r.DefaultBranch
	}
	if o.Draft {
		return h.createDraft(ctx, actor, r, o)
	}
	// A draft of this node holds the tag: publishing it would clash.
	if err := h.tagFree(ctx, r, o.TagName, 0); err != nil {
		return index.Release{}, err
	}
	if err := h.ensureTag(ctx, actor, r, o.TagName, o.Target); err != nil {
		return index.Release{}, err
	}
	res, err := h.forge.Do(ctx, actor, chainforge.ReleaseCreate{Repo: r.ID, TagName: o.TagName, Target: o.Target, Title: o.Title,
		Note: o.Note, Prerelease: o.Prerelease})
	if err != nil {
		return index.Release{}, err
	}
	return h.release(ctx, r.ID, res.Change.Release.ID)
}

// EditRelease changes a release; publishing a draft makes its tag. A
// published release stays published: its record is on chain for good.
func (h *Repos) EditRelease(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, e chainforge.ReleaseEdit) (index.Release, error) {
	if perm < forge.PermWrite {
		return index.Release{}, usererr.Deniedf("editing a release needs write permission on %s", r.Name)
	}
	if IsReleaseDraftID(e.ID) {
		return h.editDraft(ctx, actor, r, perm, e)
	}
	cur, err := h.release(ctx, r.ID, e.ID)
	if err != nil {
		return index.Release{}, err
	}
	if e.Draft != nil && *e.Draft {
		// A draft made before drafts were kept on the node (on chain) may
		// stay one; nothing is sent on chain as a draft any more.
		if !cur.Draft {
			return index.Release{}, usererr.Unprocessablef("draft", "published_release", "release %s is published: its record is on chain and cannot become a draft again", cur.TagName)
		}
		e.Draft = nil
	}
	tag, target, draft := cur.TagName, cur.Target, cur.Draft
	if e.TagName != nil {
		tag = *e.TagName
		if err := chainforge.ValidateRefName("tag_name", "tags/"+tag); err != nil || tag == "" {
			return index.Release{}, usererr.BadFieldf("tag_name", "tag_name %q is not a valid git tag name", tag)
		}
	}
	if e.Target != nil && *e.Target != "" {
		target = *e.Target
	}
	if e.Draft != nil {
		draft = *e.Draft
	}
	if !draft {
		if err := h.ensureTag(ctx, actor, r, tag, target); err != nil {
			return index.Release{}, err
		}
	}
	e.Repo = r.ID
	if _, err := h.forge.Do(ctx, actor, e); err != nil {
		return index.Release{}, err
	}
	return h.release(ctx, r.ID, e.ID)
}

// DeleteRelease deletes a release; its tag stays, as in Gitea.
func (h *Repos) DeleteRelease(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, id uint64) error {
	if perm < forge.PermWrite {
		return usererr.Deniedf("deleting a release needs write permission on %s", r.Name)
	}
	if IsReleaseDraftID(id) {
		return h.deleteDraft(ctx, actor, r, perm, id)
	}
	if _, err := h.release(ctx, r.ID, id); err != nil {
		return err
	}
	_, err := h.forge.Do(ctx, actor, chainforge.ReleaseDelete{Repo: r.ID, ID: id})
	return err
}

// AddAsset stores body (at most MaxAssetUpload bytes) as a UnixFS file and
// attaches it to release id as name.
func (h *Repos) AddAsset(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, id uint64, name string, body io.Reader) (index.Asset, error) {
	if perm < forge.PermWrite {
		return index.Asset{}, usererr.Deniedf("uploading a release asset needs write permission on %s", r.Name)
	}
	if IsReleaseDraftID(id) {
		return h.addDraftAsset(ctx, actor, r, perm, id, name, body)
	}
	if _, err := h.release(ctx, r.ID, id); err != nil {
		return index.Asset{}, err
	}
	if r.Private {
		return h.addPrivateAsset(ctx, actor, r, id, name, body)
	}
	if h.blocks == nil {
		return index.Asset{}, usererr.Unprocessablef("repo", "no_blocks", "this node keeps no release assets")
	}
	f, err := h.blocks.PutFile(body, MaxAssetUpload)
	if errors.Is(err, blocks.ErrTooLarge) {
		return index.Asset{}, usererr.New(usererr.TooLarge, "too_large", fmt.Sprintf("the asset is over the %d bytes this node takes", MaxAssetUpload))
	}
	if err != nil {
		return index.Asset{}, fmt.Errorf("store the asset: %w", err)
	}
	res, err := h.forge.Do(ctx, actor, chainforge.AssetAdd{Repo: r.ID, Release: id, Name: name, Size: f.Size, CID: f.CID.String(), SHA256: f.SHA256})
	if err != nil {
		return index.Asset{}, err
	}
	assets := res.Change.Release.Assets
	return h.asset(ctx, r.ID, id, assets[len(assets)-1].ID)
}

// EditAsset renames an asset.
func (h *Repos) EditAsset(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, release, id uint64, name string) (index.Asset, error) {
	if perm < forge.PermWrite {
		return index.Asset{}, usererr.Deniedf("editing a release asset needs write permission on %s", r.Name)
	}
	if IsReleaseDraftID(release) {
		return h.editDraftAsset(ctx, actor, r, perm, release, id, name)
	}
	if _, err := h.asset(ctx, r.ID, release, id); err != nil {
		return index.Asset{}, err
	}
	if _, err := h.forge.Do(ctx, actor, chainforge.AssetEdit{Repo: r.ID, Release: release, ID: id, Name: name}); err != nil {
		return index.Asset{}, err
	}
	return h.asset(ctx, r.ID, release, id)
}

// DeleteAsset removes an asset from its release. Its blocks stay: the same
// bytes may be another asset, and other nodes may still serve them. A
// private asset's file goes when no other asset or LFS object names it.
func (h *Repos) DeleteAsset(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, release, id uint64) error {
	if perm < forge.PermWrite {
		return usererr.Deniedf("deleting a release asset needs write permission on %s", r.Name)
	}
	if IsReleaseDraftID(release) {
		return h.deleteDraftAsset(ctx, actor, r, perm, release, id)
	}
	as, err := h.asset(ctx, r.ID, release, id)
	if err != nil {
		return err
	}
	if _, err := h.forge.Do(ctx, actor, chainforge.AssetDelete{Repo: r.ID, Release: release, ID: id}); err != nil {
		return err
	}
	if as.CID == "" && h.files != nil {
		h.removeUnused(ctx, as.SHA256)
	}
	return nil
}

// OpenAsset opens an asset's bytes from this node's blockstore, counting
// a download when count is set; a 404 while a replica has not fetched it
// yet.
func (h *Repos) OpenAsset(ctx context.Context, a index.Asset, count bool) (io.ReadSeekCloser, error) {
	f, err := h.openAssetBytes(ctx, a)
	if err != nil {
		return nil, err
	}
	// A draft's asset is counted from its publishing on, under its chain id.
	if !count || IsReleaseDraftID(a.ID) {
		return f, nil
	}
	if err := h.forge.Index().CountDownload(ctx, a.ID); err != nil {
		h.log.WarnContext(ctx, "count an asset download", "asset", a.ID, "err", err)
	}
	return f, nil
}

// openAssetBytes opens a private asset from the node's private files, a
// public one from the blockstore.
func (h *Repos) openAssetBytes(ctx context.Context, a index.Asset) (io.ReadSeekCloser, error) {
	if a.CID == "" {
		return h.openPrivate(a.SHA256, "asset "+a.Name)
	}
	c, err := cid.Decode(a.CID)
	if err != nil || h.blocks == nil {
		return nil, usererr.Missingf("asset %s is not stored on this node", a.Name)
	}
	f, err := blocks.OpenFile(ctx, h.blocks.GetBlock, c)
	if err != nil {
		return nil, usererr.New(usererr.NotFound, "not_replicated", "asset "+a.Name+" is not on this node yet: it is fetched from the node that took it")
	}
	return f, nil
}

func (h *Repos) release(ctx context.Context, repo, id uint64) (index.Release, error) {
	rel, err := h.forge.Index().ReleaseByID(ctx, repo, id)
	if errors.Is(err, index.ErrNoRelease) {
		return index.Release{}, usererr.Missingf("release %d does not exist", id)
	}
	return rel, err
}

func (h *Repos) asset(ctx context.Context, repo, release, id uint64) (index.Asset, error) {
	rel, err := h.release(ctx, repo, release)
	if err != nil {
		return index.Asset{}, err
	}
	for _, a := range rel.Assets {
		if a.ID == id {
			return a, nil
		}
	}
	return index.Asset{}, usererr.Missingf("release %d has no asset %d", release, id)
}

// ensureTag makes refs/tags/<tag> at target when the repository lacks it,
// recorded as a push from nothing (as any ref update is) before git moves
// the ref.
func (h *Repos) ensureTag(ctx context.Context, actor common.Address, r index.Repo, tag, target string) error {
	dir, err := h.Dir(r)
	if err != nil {
		return err
	}
	if !h.HasGit(r) {
		return usererr.New(usererr.NotFound, "no_git_data", "the git data of this repository is not on this node")
	}
	ref := "refs/tags/" + tag
	if _, ok, err := gitstore.CommitOf(ctx, dir, ref); err != nil {
		return err
	} else if ok {
		return nil
	}
	release := h.pushes.hold(r.ID, false)
	defer release()
	id, ok, err := gitstore.CommitOf(ctx, dir, "refs/heads/"+target)
	if err == nil && !ok && isCommitID(target) {
		id, ok, err = gitstore.CommitOf(ctx, dir, target)
	}
	if err != nil {
		return err
	}
	if !ok {
		return usererr.BadFieldf("target_commitish", "target_commitish %q names no branch or commit of this repository", target)
	}
	push := chainforge.RepoPush{Repo: r.ID, Updates: []chainforge.RefChange{{Ref: ref, Old: gitstore.ZeroID, New: id}}}
	if err := h.recordRefs(ctx, actor, push, ""); err != nil {
		return err
	}
	if err := gitstore.UpdateRefs(ctx, dir, []gitstore.RefMove{{Ref: ref, Old: gitstore.ZeroID, New: id}}); err != nil {
		return fmt.Errorf("%w: make tag %s: %v", ErrGitData, tag, err)
	}
	return nil
}

func isCommitID(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
