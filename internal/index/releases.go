package index

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/index/readdb"
)

// Releases, their assets and Git LFS objects: written from release.* and
// repo.lfs changes, read by the API and by replicas (which fetch the
// blocks these rows name).

func writeRelease(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	rel := c.change.Release
	if rel == nil {
		return nil
	}
	if rel.Deleted {
		if _, err := tx.ExecContext(ctx, `DELETE FROM forge_release_assets WHERE release_id = $1`, int64(rel.ID)); err != nil {
			return fmt.Errorf("delete release %d: %w", rel.ID, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM forge_releases WHERE id = $1`, int64(rel.ID)); err != nil {
			return fmt.Errorf("delete release %d: %w", rel.ID, err)
		}
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forge_releases (id, repo_id, tag_name, target, title, note, draft, prerelease,
		publisher, created_height, created_time_ns, updated_time_ns, signer, delegation)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13)
		ON CONFLICT (id) DO UPDATE SET tag_name = excluded.tag_name, target = excluded.target, title = excluded.title,
		note = excluded.note, draft = excluded.draft, prerelease = excluded.prerelease, updated_time_ns = excluded.updated_time_ns`,
		int64(rel.ID), int64(rel.Repo), rel.TagName, rel.Target, rel.Title, rel.Note, rel.Draft, rel.Prerelease,
		rel.Publisher.Hex(), int64(rel.CreatedHeight), c.timeNS, c.change.Signer, c.change.Delegation)
	if err != nil {
		return fmt.Errorf("write release %d: %w", rel.ID, err)
	}
	// Assets keep their rows (and the time they were added); those the
	// release no longer lists go.
	keep := []string{"0"}
	for _, a := range rel.Assets {
		_, err := tx.ExecContext(ctx, `INSERT INTO forge_release_assets (id, repo_id, release_id, name, size, cid, sha256, uploader, created_time_ns)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
			int64(a.ID), int64(rel.Repo), int64(rel.ID), a.Name, a.Size, a.CID, a.SHA256, a.Uploader.Hex(), c.timeNS)
		if err != nil {
			return fmt.Errorf("write asset %d of release %d: %w", a.ID, rel.ID, err)
		}
		keep = append(keep, strconv.FormatUint(a.ID, 10))
	}
	// The ids are integers formatted here, never text from a user.
	_, err = tx.ExecContext(ctx, `DELETE FROM forge_release_assets WHERE release_id = $1 AND id NOT IN (`+strings.Join(keep, ",")+`)`, int64(rel.ID))
	if err != nil {
		return fmt.Errorf("drop deleted assets of release %d: %w", rel.ID, err)
	}
	return nil
}

func writeLFS(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
	for _, o := range c.change.LFS {
		_, err := tx.ExecContext(ctx, `INSERT INTO forge_lfs_objects (repo_id, oid, size, cid, height) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (repo_id, oid) DO NOTHING`, int64(o.Repo), o.OID, o.Size, o.CID, c.height)
		if err != nil {
			return fmt.Errorf("write LFS object %s of repository %d: %w", o.OID, o.Repo, err)
		}
	}
	return nil
}
