package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Release is a projected release with its assets.
type Release struct {
	ID         uint64
	Repo       uint64
	TagName    string
	Target     string
	Title      string
	Note       string
	Draft      bool
	Prerelease bool
	Publisher  string
	CreatedNS  int64
	UpdatedNS  int64
	Assets     []Asset
	// Signer and Delegation: as a repository's.
	Signer     string
	Delegation string
}

// Asset is a release asset; Downloads is how often this node served it.
type Asset struct {
	ID        uint64
	Release   uint64
	Name      string
	Size      int64
	CID       string
	SHA256    string
	Uploader  string
	CreatedNS int64
	Downloads int64
}

// LFSObject is a repository's recorded Git LFS object.
type LFSObject struct {
	OID  string
	Size int64
	CID  string
}

const releaseColumns = `id, repo_id, tag_name, target, title, note, draft, prerelease, publisher, created_time_ns, updated_time_ns, signer, delegation`

func scanRelease(s interface{ Scan(...any) error }) (Release, error) {
	var r Release
	var id, repo int64
	err := s.Scan(&id, &repo, &r.TagName, &r.Target, &r.Title, &r.Note, &r.Draft, &r.Prerelease, &r.Publisher, &r.CreatedNS, &r.UpdatedNS, &r.Signer, &r.Delegation)
	r.ID, r.Repo = uint64(id), uint64(repo)
	return r, err
}

// ReleaseFilter narrows a repository's releases.
type ReleaseFilter struct {
	Drafts      bool // list drafts too (for writers)
	Prereleases bool // list pre-releases too
}

// ReleasesFrom lists repo's releases, newest first, with their assets,
// from the offset-th on and at most limit of them (0: the total only): the
// API pages them after the node's draft releases.
func (ix *Index) ReleasesFrom(ctx context.Context, repo uint64, f ReleaseFilter, offset, limit int) ([]Release, int64, error) {
	where := `repo_id = $1`
	if !f.Drafts {
		where += ` AND draft = FALSE`
	}
	if !f.Prereleases {
		where += ` AND prerelease = FALSE`
	}
	var total int64
	if err := ix.queryRow(ctx, `SELECT COUNT(*) FROM forge_releases WHERE `+where, int64(repo)).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count releases: %w", err)
	}
	rows, err := ix.query(ctx, `SELECT `+releaseColumns+` FROM forge_releases WHERE `+where+`
		ORDER BY id DESC LIMIT $2 OFFSET $3`, int64(repo), limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list releases: %w", err)
	}
	defer rows.Close()
	var out []Release
	for rows.Next() {
		r, err := scanRelease(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("list releases: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list releases: %w", err)
	}
	for i := range out {
		if out[i].Assets, err = ix.ReleaseAssets(ctx, out[i].ID); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// ErrNoRelease is a release (or asset) that does not exist.
var ErrNoRelease = errors.New("no such release")

// ReleaseByID is repo's release id; ErrNoRelease when it has none.
func (ix *Index) ReleaseByID(ctx context.Context, repo, id uint64) (Release, error) {
	return ix.releaseWhere(ctx, `repo_id = $1 AND id = $2`, int64(repo), int64(id))
}

// ReleaseByTag is repo's release of tag.
func (ix *Index) ReleaseByTag(ctx context.Context, repo uint64, tag string) (Release, error) {
	if !utf8.ValidString(tag) {
		// The chain takes no such tag, and PostgreSQL would refuse to
		// compare it (a 500 for a URL's %ff).
		return Release{}, ErrNoRelease
	}
	return ix.releaseWhere(ctx, `repo_id = $1 AND tag_name = $2`, int64(repo), tag)
}

// LatestRelease is repo's newest release that is neither a draft nor a
// pre-release, as Gitea's /releases/latest.
func (ix *Index) LatestRelease(ctx context.Context, repo uint64) (Release, error) {
	return ix.releaseWhere(ctx, `repo_id = $1 AND draft = FALSE AND prerelease = FALSE ORDER BY id DESC LIMIT 1`, int64(repo))
}

func (ix *Index) releaseWhere(ctx context.Context, where string, args ...any) (Release, error) {
	r, err := scanRelease(ix.queryRow(ctx, `SELECT `+releaseColumns+` FROM forge_releases WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return Release{}, ErrNoRelease
	}
	if err != nil {
		return Release{}, fmt.Errorf("read release: %w", err)
	}
	if r.Assets, err = ix.ReleaseAssets(ctx, r.ID); err != nil {
		return Release{}, err
	}
	return r, nil
}

// ReleaseAssets lists a release's assets in the order they were added.
func (ix *Index) ReleaseAssets(ctx context.Context, release uint64) ([]Asset, error) {
	rows, err := ix.query(ctx, `SELECT a.id, a.release_id, a.name, a.size, a.cid, a.sha256, a.uploader, a.created_time_ns,
		COALESCE(d.count, 0) FROM forge_release_assets a LEFT JOIN release_asset_downloads d ON d.asset_id = a.id
		WHERE a.release_id = $1 ORDER BY a.id`, int64(release))
	if err != nil {
		return nil, fmt.Errorf("list assets of release %d: %w", release, err)
	}
	defer rows.Close()
	out := []Asset{}
	for rows.Next() {
		var a Asset
		var id, rel int64
		if err := rows.Scan(&id, &rel, &a.Name, &a.Size, &a.CID, &a.SHA256, &a.Uploader, &a.CreatedNS, &a.Downloads); err != nil {
			return nil, fmt.Errorf("list assets of release %d: %w", release, err)
		}
		a.ID, a.Release = uint64(id), uint64(rel)
		out = append(out, a)
	}
	return out, rows.Err()
}

// CountDownload adds one to the times this node served asset id. It is
// node-local: each node counts what it served.
func (ix *Index) CountDownload(ctx context.Context, id uint64) error {
	_, err := ix.db.ExecContext(ctx, `INSERT INTO release_asset_downloads (asset_id, count) VALUES ($1, 1)
		ON CONFLICT (asset_id) DO UPDATE SET count = release_asset_downloads.count + 1`, int64(id))
	if err != nil {
		return fmt.Errorf("count a download of asset %d: %w", id, err)
	}
	ix.changed("release_asset_downloads")
	return nil
}

// LFSObjects reads repo's recorded LFS objects among oids; those it has
// not recorded are not in the answer.
func (ix *Index) LFSObjects(ctx context.Context, repo uint64, oids []string) (map[string]LFSObject, error) {
	out := map[string]LFSObject{}
	for _, oid := range oids {
		var o LFSObject
		err := ix.queryRow(ctx, `SELECT oid, size, cid FROM forge_lfs_objects WHERE repo_id = $1 AND oid = $2`,
			int64(repo), oid).Scan(&o.OID, &o.Size, &o.CID)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read LFS object %s: %w", oid, err)
		}
		out[oid] = o
	}
	return out, nil
}

// Blobs lists the CIDs of repo's release assets and LFS objects, the
// UnixFS files a replica fetches besides the git data.
func (ix *Index) Blobs(ctx context.Context, repo uint64) ([]string, error) {
	// A private repository's files have no CID: they never leave the node.
	rows, err := ix.query(ctx, `SELECT cid FROM forge_release_assets WHERE repo_id = $1 AND cid <> ''
		UNION SELECT cid FROM forge_lfs_objects WHERE repo_id = $1 AND cid <> '' ORDER BY cid`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("list blobs of repository %d: %w", repo, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("list blobs of repository %d: %w", repo, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// PrivateFileInUse reports whether a release asset or LFS object kept in
// the node's private files (recorded without a CID) has the digest.
func (ix *Index) PrivateFileInUse(ctx context.Context, digest string) (bool, error) {
	var one int
	err := ix.queryRow(ctx, `SELECT 1 FROM forge_release_assets WHERE sha256 = $1 AND cid = ''
		UNION ALL SELECT 1 FROM forge_lfs_objects WHERE oid = $1 AND cid = '' LIMIT 1`, digest).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up uses of private file %s: %w", digest, err)
	}
	return true, nil
}
