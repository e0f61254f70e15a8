package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/privfiles"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Draft releases (issue 23) stay on this node until published: a row in
// the node's SQL (release_drafts, not a projection table, so a reindex
// keeps it) and asset bytes in the private files, never in the public
// blockstore, whose gateway and bitswap serve any block. Only writers see
// them. Publishing relays release.create, then each asset (into the
// blockstore first, for a public repository), and the draft's id names the
// published release from then on on this node.

// ReleaseDraftIDBase is where drafts' ids begin, and their assets': the
// row id is added to it. Chain release and asset ids count from 1, so the
// two never meet; as pending reviews' (forge.DraftIDBase), the ids stay
// exact in a JavaScript number.
const ReleaseDraftIDBase = forge.DraftIDBase

// IsReleaseDraftID tells a draft's (or draft asset's) id from the chain's.
func IsReleaseDraftID(id uint64) bool { return id > ReleaseDraftIDBase }

func draftRow(id uint64) int64 { return int64(id - ReleaseDraftIDBase) }

// WithReleaseDrafts returns the bridge keeping draft releases in st.
func (h *Repos) WithReleaseDrafts(st *store.Store) *Repos {
	c := *h
	c.drafts = st
	return &c
}

func noReleaseDrafts() error {
	return usererr.Unprocessablef("draft", "no_release_drafts", "this node keeps no draft releases: create the release published")
}

func draftMissing(id uint64) error { return usererr.Missingf("release %d does not exist", id) }

func tagTaken(tag, by string) error {
	return usererr.Clashf("tag_taken", "tag %q has %s already: choose another tag_name", tag, by)
}

// ReleaseDrafts lists r's unpublished drafts, newest first, for a writer;
// anyone else gets none.
func (h *Repos) ReleaseDrafts(ctx context.Context, r index.Repo, perm forge.Perm) ([]index.Release, error) {
	if h.drafts == nil || perm < forge.PermWrite {
		return nil, nil
	}
	list, err := h.drafts.ReleaseDrafts(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	out := make([]index.Release, 0, len(list))
	for _, d := range list {
		out = append(out, draftRelease(d))
	}
	return out, nil
}

// ReleaseDraft is r's release id when id is a draft's: the draft for a
// writer (404 for anyone else, as a release that never was), or, once
// published, the release it became.
func (h *Repos) ReleaseDraft(ctx context.Context, r index.Repo, perm forge.Perm, id uint64) (index.Release, error) {
	d, err := h.draft(ctx, r, perm, id)
	if err != nil {
		return index.Release{}, err
	}
	if d.PublishedID != 0 {
		return h.release(ctx, r.ID, d.PublishedID)
	}
	return draftRelease(d), nil
}

// ReleaseDraftByTag is r's unpublished draft of tag, for a writer.
func (h *Repos) ReleaseDraftByTag(ctx context.Context, r index.Repo, perm forge.Perm, tag string) (index.Release, error) {
	if h.drafts == nil || perm < forge.PermWrite {
		return index.Release{}, usererr.Missingf("release does not exist")
	}
	d, err := h.drafts.ReleaseDraftByTag(ctx, r.ID, tag)
	if errors.Is(err, store.ErrNoReleaseDraft) {
		return index.Release{}, usererr.Missingf("release does not exist")
	}
	if err != nil {
		return index.Release{}, err
	}
	return draftRelease(d), nil
}

// draft reads draft id of r, published or not; an unpublished one is a
// writer's only.
func (h *Repos) draft(ctx context.Context, r index.Repo, perm forge.Perm, id uint64) (store.ReleaseDraft, error) {
	if h.drafts == nil || !IsReleaseDraftID(id) {
		return store.ReleaseDraft{}, draftMissing(id)
	}
	d, err := h.drafts.ReleaseDraft(ctx, r.ID, draftRow(id))
	if errors.Is(err, store.ErrNoReleaseDraft) || err == nil && d.PublishedID == 0 && perm < forge.PermWrite {
		return store.ReleaseDraft{}, draftMissing(id)
	}
	return d, err
}

// draftRelease is a draft in the index's shape, as the API shows releases.
func draftRelease(d store.ReleaseDraft) index.Release {
	id := ReleaseDraftIDBase + uint64(d.ID)
	rel := index.Release{ID: id, Repo: d.Repo, TagName: d.TagName, Target: d.Target, Title: d.Title, Note: d.Note,
		Draft: true, Prerelease: d.Prerelease, Publisher: d.Author, CreatedNS: d.CreatedNS, UpdatedNS: d.UpdatedNS, Assets: []index.Asset{}}
	for _, a := range d.Assets {
		rel.Assets = append(rel.Assets, draftAsset(id, a))
	}
	return rel
}

func draftAsset(release uint64, a store.ReleaseDraftAsset) index.Asset {
	return index.Asset{ID: ReleaseDraftIDBase + uint64(a.ID), Release: release, Name: a.Name, Size: a.Size,
		SHA256: a.SHA256, Uploader: a.Uploader, CreatedNS: a.CreatedNS}
}

// tagFree refuses a tag a release of r has (on chain, or in the private
// store for a private repository) or another draft has.
func (h *Repos) tagFree(ctx context.Context, r index.Repo, tag string, self int64) error {
	if _, err := h.forge.Index().ReleaseByTag(ctx, r.ID, tag); err == nil {
		return tagTaken(tag, "a release")
	} else if !errors.Is(err, index.ErrNoRelease) {
		return err
	}
	if h.drafts == nil {
		return nil
	}
	d, err := h.drafts.ReleaseDraftByTag(ctx, r.ID, tag)
	if err == nil && d.ID != self {
		return tagTaken(tag, "a draft release")
	}
	if err != nil && !errors.Is(err, store.ErrNoReleaseDraft) {
		return err
	}
	return nil
}

func checkDraft(d store.ReleaseDraft) error {
	return forge.CheckRelease(chainforge.ReleaseCreate{Repo: d.Repo, TagName: d.TagName, Target: d.Target, Title: d.Title, Note: d.Note})
}

// createDraft keeps a new draft release on this node.
func (h *Repos) createDraft(ctx context.Context, actor common.Address, r index.Repo, o ReleaseOptions) (index.Release, error) {
	if h.drafts == nil {
		return index.Release{}, noReleaseDrafts()
	}
	now := time.Now().UnixNano()
	d := store.ReleaseDraft{Repo: r.ID, TagName: o.TagName, Target: o.Target, Title: o.Title, Note: o.Note, Prerelease: o.Prerelease,
		Author: actor.Hex(), CreatedNS: now, UpdatedNS: now}
	if err := checkDraft(d); err != nil {
		return index.Release{}, err
	}
	if err := h.tagFree(ctx, r, d.TagName, 0); err != nil {
		return index.Release{}, err
	}
	id, err := h.drafts.AddReleaseDraft(ctx, d)
	if errors.Is(err, store.ErrDuplicate) {
		return index.Release{}, tagTaken(d.TagName, "a draft release")
	}
	if err != nil {
		return index.Release{}, fmt.Errorf("keep the draft: %w", err)
	}
	d.ID = id
	return draftRelease(d), nil
}

// editDraft changes a draft and publishes it when e says draft=false. A
// draft already published is its release: the edit goes there, after the
// assets a failed publish left are added.
func (h *Repos) editDraft(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, e chainforge.ReleaseEdit) (index.Release, error) {
	d, err := h.draft(ctx, r, perm, e.ID)
	if err != nil {
		return index.Release{}, err
	}
	if d.PublishedID != 0 {
		if err := h.addPublishedAssets(ctx, actor, r, d); err != nil {
			return index.Release{}, err
		}
		e.ID = d.PublishedID
		return h.EditRelease(ctx, actor, r, perm, e)
	}
	if d, err = h.saveDraftEdit(ctx, r, d, e); err != nil {
		return index.Release{}, err
	}
	if e.Draft != nil && !*e.Draft {
		return h.publishDraft(ctx, actor, r, d)
	}
	return draftRelease(d), nil
}

// saveDraftEdit applies the fields e sets to d and saves them.
func (h *Repos) saveDraftEdit(ctx context.Context, r index.Repo, d store.ReleaseDraft, e chainforge.ReleaseEdit) (store.ReleaseDraft, error) {
	setIf(&d.TagName, e.TagName)
	if e.Target != nil && *e.Target != "" {
		d.Target = *e.Target
	}
	setIf(&d.Title, e.Title)
	setIf(&d.Note, e.Note)
	setIf(&d.Prerelease, e.Prerelease)
	if err := checkDraft(d); err != nil {
		return d, err
	}
	if err := h.tagFree(ctx, r, d.TagName, d.ID); err != nil {
		return d, err
	}
	d.UpdatedNS = time.Now().UnixNano()
	err := h.drafts.UpdateReleaseDraft(ctx, d)
	if errors.Is(err, store.ErrDuplicate) {
		return d, tagTaken(d.TagName, "a draft release")
	}
	if err != nil {
		return d, fmt.Errorf("save the draft: %w", err)
	}
	return d, nil
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// publishDraft puts draft d on chain (in the private store for a private
// repository), as Gitea publishes a draft:
//  1. its tag must be free (409 naming it otherwise: the draft stays);
//  2. the tag is made in git when missing, and release.create relayed;
//  3. the draft's row then names that release, so a retry resumes here;
//  4. each asset is added (addPublishedAssets).
func (h *Repos) publishDraft(ctx context.Context, actor common.Address, r index.Repo, d store.ReleaseDraft) (index.Release, error) {
	if err := h.tagFree(ctx, r, d.TagName, d.ID); err != nil {
		return index.Release{}, err
	}
	if err := h.ensureTag(ctx, actor, r, d.TagName, d.Target); err != nil {
		return index.Release{}, err
	}
	res, err := h.forge.Do(ctx, actor, chainforge.ReleaseCreate{Repo: r.ID, TagName: d.TagName, Target: d.Target, Title: d.Title,
		Note: d.Note, Prerelease: d.Prerelease})
	if err != nil {
		return index.Release{}, err
	}
	d.PublishedID = res.Change.Release.ID
	if err := h.drafts.MarkReleaseDraftPublished(ctx, d.ID, d.PublishedID); err != nil {
		return index.Release{}, fmt.Errorf("publish the draft: %w", err)
	}
	if err := h.addPublishedAssets(ctx, actor, r, d); err != nil {
		return index.Release{}, err
	}
	return h.release(ctx, r.ID, d.PublishedID)
}

// addPublishedAssets adds the assets of published draft d to its release,
// one action each: a public repository's bytes go into the blockstore
// first (its CID goes on chain), a private one's stay in the private files
// (its record names them by digest). Each draft asset's row goes once its
// asset is recorded, so a failure leaves the rest for a retry.
func (h *Repos) addPublishedAssets(ctx context.Context, actor common.Address, r index.Repo, d store.ReleaseDraft) error {
	for _, a := range d.Assets {
		add := chainforge.AssetAdd{Repo: r.ID, Release: d.PublishedID, Name: a.Name, Size: a.Size, SHA256: a.SHA256}
		if !r.Private {
			c, err := h.publishFile(a)
			if err != nil {
				return err
			}
			add.CID = c
		}
		if _, err := h.forge.Do(ctx, actor, add); err != nil {
			return fmt.Errorf("publish asset %s: %w", a.Name, err)
		}
		if err := h.drafts.DeleteReleaseDraftAsset(ctx, d.ID, a.ID); err != nil {
			return fmt.Errorf("publish asset %s: %w", a.Name, err)
		}
		if !r.Private {
			h.removeUnused(ctx, a.SHA256)
		}
	}
	return nil
}

// publishFile copies a draft asset's bytes from the private files into the
// blockstore and returns the CID of the UnixFS file.
func (h *Repos) publishFile(a store.ReleaseDraftAsset) (string, error) {
	if h.blocks == nil {
		return "", usererr.Unprocessablef("repo", "no_blocks", "this node keeps no release assets")
	}
	f, err := h.openPrivate(a.SHA256, "asset "+a.Name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	stored, err := h.blocks.PutFile(f, MaxAssetUpload)
	if err != nil {
		return "", fmt.Errorf("store asset %s in the blockstore: %w", a.Name, err)
	}
	if stored.SHA256 != a.SHA256 {
		return "", fmt.Errorf("store asset %s in the blockstore: its file hashes to %s, not %s", a.Name, stored.SHA256, a.SHA256)
	}
	return stored.CID.String(), nil
}

// deleteDraft deletes a draft and the files only it named; a published
// draft's id deletes its release.
func (h *Repos) deleteDraft(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, id uint64) error {
	d, err := h.draft(ctx, r, perm, id)
	if err != nil {
		return err
	}
	if d.PublishedID != 0 {
		return h.DeleteRelease(ctx, actor, r, perm, d.PublishedID)
	}
	if err := h.drafts.DeleteReleaseDraft(ctx, d.ID); err != nil {
		return err
	}
	for _, a := range d.Assets {
		h.removeUnused(ctx, a.SHA256)
	}
	return nil
}

// dropDrafts deletes a deleted repository's drafts and the files only they
// named. A failure is logged: the repository is gone either way, and what
// is left is unreachable disk.
func (h *Repos) dropDrafts(ctx context.Context, repo uint64) {
	if h.drafts == nil {
		return
	}
	list, err := h.drafts.ReleaseDrafts(ctx, repo)
	for _, d := range list {
		if err = h.drafts.DeleteReleaseDraft(ctx, d.ID); err != nil {
			break
		}
		for _, a := range d.Assets {
			h.removeUnused(ctx, a.SHA256)
		}
	}
	if err != nil {
		h.log.WarnContext(ctx, "delete the draft releases of a deleted repository", "repo", repo, "err", err)
	}
}

// unpublished reads draft id of r for a change to its assets: a
// published one is its release's, found by the caller (0, nil).
func (h *Repos) unpublished(ctx context.Context, r index.Repo, perm forge.Perm, id uint64) (store.ReleaseDraft, uint64, error) {
	d, err := h.draft(ctx, r, perm, id)
	if err != nil || d.PublishedID != 0 {
		return store.ReleaseDraft{}, d.PublishedID, err
	}
	return d, 0, nil
}

// addDraftAsset keeps body as an asset of draft id, in the private files.
func (h *Repos) addDraftAsset(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, id uint64, name string, body io.Reader) (index.Asset, error) {
	d, published, err := h.unpublished(ctx, r, perm, id)
	if err != nil {
		return index.Asset{}, err
	}
	if published != 0 {
		return h.AddAsset(ctx, actor, r, perm, published, name, body)
	}
	if h.files == nil {
		return index.Asset{}, noPrivateFiles("draft release assets")
	}
	if err := checkDraftAssetName(d, name, 0); err != nil {
		return index.Asset{}, err
	}
	if len(d.Assets) >= chainforge.MaxAssets {
		return index.Asset{}, usererr.BadFieldf("release", "the release has %d assets already; the most is %d", len(d.Assets), chainforge.MaxAssets)
	}
	p, err := h.files.Write(body, MaxAssetUpload)
	if errors.Is(err, privfiles.ErrTooLarge) {
		return index.Asset{}, usererr.New(usererr.TooLarge, "too_large", fmt.Sprintf("the asset is over the %d bytes this node takes", MaxAssetUpload))
	}
	if err != nil {
		return index.Asset{}, fmt.Errorf("store the asset: %w", err)
	}
	defer p.Drop()
	a := store.ReleaseDraftAsset{Draft: d.ID, Name: name, Size: p.Size, SHA256: p.SHA256, Uploader: actor.Hex(), CreatedNS: time.Now().UnixNano()}
	err = h.keepPrivate(ctx, p, func() error {
		var err error
		a.ID, err = h.drafts.AddReleaseDraftAsset(ctx, a)
		return err
	})
	if err != nil {
		return index.Asset{}, err
	}
	return draftAsset(ReleaseDraftIDBase+uint64(d.ID), a), nil
}

// checkDraftAssetName holds name to the chain's rules: a file name, unique
// in the release without regard to case (but for asset except).
func checkDraftAssetName(d store.ReleaseDraft, name string, except int64) error {
	if err := forge.CheckAssetName(name); err != nil {
		return err
	}
	for _, a := range d.Assets {
		if a.ID != except && strings.EqualFold(a.Name, name) {
			return usererr.Clashf(usererr.CodeConflict, "release %d has an asset named %q already", ReleaseDraftIDBase+uint64(d.ID), name)
		}
	}
	return nil
}

// draftAssetOf finds asset id of draft d.
func draftAssetOf(d store.ReleaseDraft, id uint64) (store.ReleaseDraftAsset, error) {
	for _, a := range d.Assets {
		if ReleaseDraftIDBase+uint64(a.ID) == id {
			return a, nil
		}
	}
	return store.ReleaseDraftAsset{}, usererr.Missingf("release %d has no asset %d", ReleaseDraftIDBase+uint64(d.ID), id)
}

// editDraftAsset renames an asset of draft release.
func (h *Repos) editDraftAsset(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, release, id uint64, name string) (index.Asset, error) {
	d, published, err := h.unpublished(ctx, r, perm, release)
	if err != nil {
		return index.Asset{}, err
	}
	if published != 0 {
		return h.EditAsset(ctx, actor, r, perm, published, id, name)
	}
	a, err := draftAssetOf(d, id)
	if err != nil {
		return index.Asset{}, err
	}
	if err := checkDraftAssetName(d, name, a.ID); err != nil {
		return index.Asset{}, err
	}
	if err := h.drafts.RenameReleaseDraftAsset(ctx, d.ID, a.ID, name); err != nil {
		return index.Asset{}, err
	}
	a.Name = name
	return draftAsset(release, a), nil
}

// deleteDraftAsset removes an asset of draft release, and its file when
// nothing else names it.
func (h *Repos) deleteDraftAsset(ctx context.Context, actor common.Address, r index.Repo, perm forge.Perm, release, id uint64) error {
	d, published, err := h.unpublished(ctx, r, perm, release)
	if err != nil {
		return err
	}
	if published != 0 {
		return h.DeleteAsset(ctx, actor, r, perm, published, id)
	}
	a, err := draftAssetOf(d, id)
	if err != nil {
		return err
	}
	if err := h.drafts.DeleteReleaseDraftAsset(ctx, d.ID, a.ID); err != nil {
		return err
	}
	h.removeUnused(ctx, a.SHA256)
	return nil
}

// draftFileInUse reports whether a draft's asset names the private file
// digest.
func (h *Repos) draftFileInUse(ctx context.Context, digest string) (bool, error) {
	if h.drafts == nil {
		return false, nil
	}
	return h.drafts.ReleaseDraftFileInUse(ctx, digest)
}
