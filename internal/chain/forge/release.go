package forge

import (
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ipfs/go-cid"
	"github.com/multiformats/go-multihash"
)

// Releases and their assets, and a repository's Git LFS objects: large
// files kept as UnixFS files in the node's blockstore, named here by CID so
// every node can fetch them from the node that took them (over bitswap) and
// serve them. The chain holds the metadata only; the bytes never go on
// chain. Private repositories' releases live in the node's private store
// like the rest of their record.

// Bounds of a release and its assets.
const (
	MaxReleaseTag  = 255
	MaxAssetName   = 255
	MaxAssets      = 100            // per release
	MaxAssetSize   = 2 << 30        // bytes; a node may take less
	MaxLFSObjects  = 100            // per repo.lfs action
	MaxLFSSize     = int64(1) << 40 // bytes an LFS object may claim
	maxBlobCIDText = 100
)

// Release is a repository's release: a tag with notes and assets. A draft
// is shown to writers only.
type Release struct {
	ID            uint64         `json:"id"`
	Repo          uint64         `json:"repo"`
	TagName       string         `json:"tagName"`
	Target        string         `json:"target"`
	Title         string         `json:"title"`
	Note          string         `json:"note"`
	Draft         bool           `json:"draft"`
	Prerelease    bool           `json:"prerelease"`
	Publisher     common.Address `json:"publisher"`
	Assets        []Asset        `json:"assets"`
	CreatedHeight uint64         `json:"createdHeight"`
	UpdatedHeight uint64         `json:"updatedHeight"`
	Deleted       bool           `json:"deleted,omitempty"`
}

// Asset is a file attached to a release: a UnixFS file by its root CID,
// with the SHA-256 of its bytes.
type Asset struct {
	ID            uint64         `json:"id"`
	Name          string         `json:"name"`
	Size          int64          `json:"size"`
	CID           string         `json:"cid"`
	SHA256        string         `json:"sha256"`
	Uploader      common.Address `json:"uploader"`
	CreatedHeight uint64         `json:"createdHeight"`
}

// LFSObject is a Git LFS object of a repository: its oid (the SHA-256 of
// its bytes), its size and the root of its UnixFS file.
type LFSObject struct {
	Repo uint64 `json:"repo"`
	OID  string `json:"oid"`
	Size int64  `json:"size"`
	CID  string `json:"cid"`
}

// ReleaseCreate creates a release of a tag. The tag is the node's to make
// (a repo.push) when it does not exist yet; the chain records the release.
type ReleaseCreate struct {
	Repo       uint64 `json:"repo"`
	TagName    string `json:"tagName"`
	Target     string `json:"target"`
	Title      string `json:"title"`
	Note       string `json:"note" text:"body"`
	Draft      bool   `json:"draft"`
	Prerelease bool   `json:"prerelease"`
}

// ReleaseEdit changes the fields it sets.
type ReleaseEdit struct {
	Repo       uint64  `json:"repo"`
	ID         uint64  `json:"id"`
	TagName    *string `json:"tagName,omitempty"`
	Target     *string `json:"target,omitempty"`
	Title      *string `json:"title,omitempty"`
	Note       *string `json:"note,omitempty" text:"body"`
	Draft      *bool   `json:"draft,omitempty"`
	Prerelease *bool   `json:"prerelease,omitempty"`
}

// ReleaseDelete deletes a release (not its tag, as in Gitea).
type ReleaseDelete struct {
	Repo uint64 `json:"repo"`
	ID   uint64 `json:"id"`
}

// AssetAdd attaches a stored file to a release.
type AssetAdd struct {
	Repo    uint64 `json:"repo"`
	Release uint64 `json:"release"`
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	CID     string `json:"cid"`
	SHA256  string `json:"sha256"`
}

// AssetEdit renames an asset.
type AssetEdit struct {
	Repo    uint64 `json:"repo"`
	Release uint64 `json:"release"`
	ID      uint64 `json:"id"`
	Name    string `json:"name"`
}

// AssetDelete removes an asset from its release.
type AssetDelete struct {
	Repo    uint64 `json:"repo"`
	Release uint64 `json:"release"`
	ID      uint64 `json:"id"`
}

// RepoLFS records Git LFS objects a writer uploaded.
type RepoLFS struct {
	Repo    uint64      `json:"repo"`
	Objects []LFSObject `json:"objects"`
}

func (ReleaseCreate) ActionName() string { return "release.create" }
func (ReleaseEdit) ActionName() string   { return "release.edit" }
func (ReleaseDelete) ActionName() string { return "release.delete" }
func (AssetAdd) ActionName() string      { return "release.asset.add" }
func (AssetEdit) ActionName() string     { return "release.asset.edit" }
func (AssetDelete) ActionName() string   { return "release.asset.delete" }
func (RepoLFS) ActionName() string       { return "repo.lfs" }

func releaseKey(id uint64) []byte { return key([]byte("release"), u64(id)) }
func releaseTagKey(repo uint64, tag string) []byte {
	return key([]byte("releasetag"), u64(repo), []byte(tag))
}
func lfsKey(repo uint64, oid string) []byte { return key([]byte("lfs"), u64(repo), []byte(oid)) }

func releaseCreate(s *session, payload []byte) error {
	var p ReleaseCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "creating a release of")
	if err != nil {
		return err
	}
	rel := Release{Repo: r.ID, TagName: p.TagName, Target: p.Target, Title: p.Title, Note: p.Note, Draft: p.Draft,
		Prerelease: p.Prerelease, Publisher: s.actor, Assets: []Asset{}, CreatedHeight: s.env.Height}
	if err := validateRelease(rel); err != nil {
		return err
	}
	if err := s.claimTag(r.ID, rel.TagName, 0); err != nil {
		return err
	}
	if rel.ID, err = s.nextID("release"); err != nil {
		return err
	}
	if err := s.putID(releaseTagKey(r.ID, rel.TagName), rel.ID); err != nil {
		return err
	}
	return s.saveRelease(&rel)
}

func releaseEdit(s *session, payload []byte) error {
	var p ReleaseEdit
	if err := decode(payload, &p); err != nil {
		return err
	}
	rel, err := s.writableRelease(p.Repo, p.ID, "editing a release of")
	if err != nil {
		return err
	}
	oldTag := rel.TagName
	setIf(&rel.TagName, p.TagName)
	setIf(&rel.Target, p.Target)
	setIf(&rel.Title, p.Title)
	setIf(&rel.Note, p.Note)
	setIf(&rel.Draft, p.Draft)
	setIf(&rel.Prerelease, p.Prerelease)
	if err := validateRelease(*rel); err != nil {
		return err
	}
	if rel.TagName != oldTag {
		if err := s.claimTag(rel.Repo, rel.TagName, rel.ID); err != nil {
			return err
		}
		if err := s.kv.Set(releaseTagKey(rel.Repo, oldTag), none); err != nil {
			return err
		}
		if err := s.putID(releaseTagKey(rel.Repo, rel.TagName), rel.ID); err != nil {
			return err
		}
	}
	return s.saveRelease(rel)
}

func releaseDelete(s *session, payload []byte) error {
	var p ReleaseDelete
	if err := decode(payload, &p); err != nil {
		return err
	}
	rel, err := s.writableRelease(p.Repo, p.ID, "deleting a release of")
	if err != nil {
		return err
	}
	if err := s.kv.Set(releaseTagKey(rel.Repo, rel.TagName), none); err != nil {
		return err
	}
	rel.Deleted = true
	return s.saveRelease(rel)
}

func assetAdd(s *session, payload []byte) error {
	var p AssetAdd
	if err := decode(payload, &p); err != nil {
		return err
	}
	rel, err := s.writableRelease(p.Repo, p.Release, "uploading an asset to a release of")
	if err != nil {
		return err
	}
	if len(rel.Assets) >= MaxAssets {
		return invalid("release", "has %d assets already; the most is %d", len(rel.Assets), MaxAssets)
	}
	if err := validateAssetName(p.Name); err != nil {
		return err
	}
	if p.Size < 0 || p.Size > MaxAssetSize {
		return invalid("size", "must be 0 to %d bytes", int64(MaxAssetSize))
	}
	if err := s.validateFileCID("cid", p.CID); err != nil {
		return err
	}
	if err := validateSHA256("sha256", p.SHA256); err != nil {
		return err
	}
	if hasAssetName(rel.Assets, p.Name, 0) {
		return conflict("release %d has an asset named %q already", rel.ID, p.Name)
	}
	id, err := s.nextID("asset")
	if err != nil {
		return err
	}
	rel.Assets = append(rel.Assets, Asset{ID: id, Name: p.Name, Size: p.Size, CID: p.CID, SHA256: p.SHA256,
		Uploader: s.actor, CreatedHeight: s.env.Height})
	return s.saveRelease(rel)
}

func assetEdit(s *session, payload []byte) error {
	var p AssetEdit
	if err := decode(payload, &p); err != nil {
		return err
	}
	rel, err := s.writableRelease(p.Repo, p.Release, "editing an asset of a release of")
	if err != nil {
		return err
	}
	i := assetIndex(rel.Assets, p.ID)
	if i < 0 {
		return notFound("release %d has no asset %d", rel.ID, p.ID)
	}
	if err := validateAssetName(p.Name); err != nil {
		return err
	}
	if hasAssetName(rel.Assets, p.Name, p.ID) {
		return conflict("release %d has an asset named %q already", rel.ID, p.Name)
	}
	rel.Assets[i].Name = p.Name
	return s.saveRelease(rel)
}

func assetDelete(s *session, payload []byte) error {
	var p AssetDelete
	if err := decode(payload, &p); err != nil {
		return err
	}
	rel, err := s.writableRelease(p.Repo, p.Release, "deleting an asset of a release of")
	if err != nil {
		return err
	}
	i := assetIndex(rel.Assets, p.ID)
	if i < 0 {
		return notFound("release %d has no asset %d", rel.ID, p.ID)
	}
	rel.Assets = append(rel.Assets[:i], rel.Assets[i+1:]...)
	return s.saveRelease(rel)
}

// repoLFS records LFS objects. An oid recorded before keeps its first
// record: the same bytes make the same CID, so a second upload adds nothing.
func repoLFS(s *session, payload []byte) error {
	var p RepoLFS
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermWrite, "uploading LFS objects to")
	if err != nil {
		return err
	}
	if len(p.Objects) == 0 || len(p.Objects) > MaxLFSObjects {
		return invalid("objects", "must list 1 to %d objects", MaxLFSObjects)
	}
	for _, o := range p.Objects {
		if err := validateSHA256("objects.oid", o.OID); err != nil {
			return err
		}
		if o.Size < 0 || o.Size > MaxLFSSize {
			return invalid("objects.size", "must be 0 to %d bytes", MaxLFSSize)
		}
		if err := s.validateFileCID("objects.cid", o.CID); err != nil {
			return err
		}
		if o.Repo != 0 && o.Repo != r.ID {
			return invalid("objects.repo", "must be the action's repository or left out")
		}
		var have LFSObject
		ok, err := s.getJSON(lfsKey(r.ID, o.OID), &have)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		o.Repo = r.ID
		if err := s.putJSON(lfsKey(r.ID, o.OID), o); err != nil {
			return err
		}
		s.change.LFS = append(s.change.LFS, o)
	}
	// Saved, so the repository reads as changed: a replica fetches them.
	return s.saveRepo(r)
}

// writableRelease loads release id of repository repo for a writer.
func (s *session) writableRelease(repo, id uint64, what string) (*Release, error) {
	r, _, err := s.access(repo, PermWrite, what)
	if err != nil {
		return nil, err
	}
	var rel Release
	ok, err := s.getJSON(releaseKey(id), &rel)
	if err != nil {
		return nil, err
	}
	if !ok || rel.Deleted || rel.Repo != r.ID {
		return nil, notFound("repository %d has no release %d", repo, id)
	}
	return &rel, nil
}

// claimTag refuses a tag another release of the repository has.
func (s *session) claimTag(repo uint64, tag string, self uint64) error {
	id, err := s.getID(releaseTagKey(repo, tag))
	if err != nil {
		return err
	}
	if id != 0 && id != self {
		return conflict("tag %q has a release already", tag)
	}
	return nil
}

func (s *session) putID(k []byte, id uint64) error { return s.kv.Set(k, u64(id)) }

// saveRelease writes rel and records it in the change; the repository is
// saved too, so a replica sees it changed and fetches new assets.
func (s *session) saveRelease(rel *Release) error {
	rel.UpdatedHeight = s.env.Height
	if err := s.putJSON(releaseKey(rel.ID), rel); err != nil {
		return err
	}
	s.change.Release = rel
	r, err := s.repo(rel.Repo)
	if err != nil {
		return err
	}
	return s.saveRepo(r)
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func validateRelease(rel Release) error {
	if rel.TagName == "" || len(rel.TagName) > MaxReleaseTag {
		return invalid("tagName", "must be a tag name of 1 to %d bytes", MaxReleaseTag)
	}
	if err := ValidateRefName("tagName", "tags/"+rel.TagName); err != nil {
		return err
	}
	if rel.Target != "" {
		if err := ValidateBranch("target", rel.Target); err != nil {
			return err
		}
	}
	if !utf8.ValidString(rel.Title) || utf8.RuneCountInString(rel.Title) > MaxTitle {
		return invalid("title", "must be at most %d characters", MaxTitle)
	}
	return validateText("note", rel.Note, MaxBody)
}

// CheckRelease holds a new release's fields to the rules release.create
// applies without state, so a node can keep a draft it will be able to
// publish. It changes no rule: it is the same check.
func CheckRelease(p ReleaseCreate) error {
	return validateRelease(Release{TagName: p.TagName, Target: p.Target, Title: p.Title, Note: p.Note})
}

// CheckAssetName is release.asset.add's rule for an asset's name.
func CheckAssetName(name string) error { return validateAssetName(name) }

func validateAssetName(name string) error {
	if strings.TrimSpace(name) == "" || len(name) > MaxAssetName || strings.ContainsAny(name, "/\\") || name == "." || name == ".." {
		return invalid("name", "must be a file name of 1 to %d bytes, without / or \\", MaxAssetName)
	}
	return nil
}

// validateFileCID checks a file's CID: on chain a file is a public UnixFS
// file named by its CID; a private store's files are kept off the
// blockstore (the gateway would serve them), so they have none.
func (s *session) validateFileCID(field, c string) error {
	if s.env.Private {
		if c != "" {
			return invalid(field, "must be empty: a private repository's files are not IPFS blocks")
		}
		return nil
	}
	return validateBlobCID(field, c)
}

// validateBlobCID accepts the root of a UnixFS file as a node makes it:
// CIDv1 in base32, dag-pb or raw, sha2-256.
func validateBlobCID(field, s string) error {
	const want = "must be the CIDv1 (base32) of a UnixFS file (dag-pb or raw, sha2-256)"
	if len(s) > maxBlobCIDText {
		return invalid(field, "%s", want)
	}
	c, err := cid.Decode(s)
	if err != nil || c.Version() != 1 || (c.Type() != cid.DagProtobuf && c.Type() != cid.Raw) || c.String() != s {
		return invalid(field, "%s", want)
	}
	if p := c.Prefix(); p.MhType != multihash.SHA2_256 || p.MhLength != 32 {
		return invalid(field, "%s", want)
	}
	return nil
}

func validateSHA256(field, s string) error {
	if len(s) != 64 || strings.Trim(s, "0123456789abcdef") != "" {
		return invalid(field, "must be a SHA-256: 64 lower-case hex digits")
	}
	return nil
}

func assetIndex(assets []Asset, id uint64) int {
	for i, a := range assets {
		if a.ID == id {
			return i
		}
	}
	return -1
}

func hasAssetName(assets []Asset, name string, except uint64) bool {
	for _, a := range assets {
		if a.ID != except && strings.EqualFold(a.Name, name) {
			return true
		}
	}
	return false
}
