package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// ReleaseDraft is a draft release kept on this node until it is published
// (migration 00071). PublishedID is the chain (or private store) release
// it was published as; 0 while it is a draft.
type ReleaseDraft struct {
	ID          int64
	Repo        uint64
	TagName     string
	Target      string
	Title       string
	Note        string
	Prerelease  bool
	Author      string
	CreatedNS   int64
	UpdatedNS   int64
	PublishedID uint64
	Assets      []ReleaseDraftAsset
}

// ReleaseDraftAsset is a file of a draft, in the node's private files by
// its SHA-256.
type ReleaseDraftAsset struct {
	ID        int64
	Draft     int64
	Name      string
	Size      int64
	SHA256    string
	Uploader  string
	CreatedNS int64
}

// ErrNoReleaseDraft is a draft (or draft asset) that does not exist.
var ErrNoReleaseDraft = errors.New("no such release draft")

const releaseDraftColumns = `id, repo_id, tag_name, target, title, note, prerelease, author, created_ns, updated_ns, published_id`

func scanReleaseDraft(row interface{ Scan(...any) error }) (ReleaseDraft, error) {
	var d ReleaseDraft
	var repo, published int64
	err := row.Scan(&d.ID, &repo, &d.TagName, &d.Target, &d.Title, &d.Note, &d.Prerelease, &d.Author, &d.CreatedNS, &d.UpdatedNS, &published)
	d.Repo, d.PublishedID = uint64(repo), uint64(published)
	return d, err
}

// AddReleaseDraft stores d and returns its id; ErrDuplicate when another
// draft of the repository has its tag.
func (s *Store) AddReleaseDraft(ctx context.Context, d ReleaseDraft) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO release_drafts (repo_id, tag_name, target, title, note, prerelease, author, created_ns, updated_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (repo_id, tag_name) WHERE published_id = 0 DO NOTHING RETURNING id`,
		int64(d.Repo), d.TagName, d.Target, d.Title, d.Note, d.Prerelease, d.Author, d.CreatedNS).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrDuplicate
	}
	if err != nil {
		return 0, fmt.Errorf("insert release draft: %w", err)
	}
	return id, nil
}

// UpdateReleaseDraft writes d's fields over draft d.ID of d.Repo;
// ErrDuplicate when another draft has its tag, ErrNoReleaseDraft when it
// is gone.
func (s *Store) UpdateReleaseDraft(ctx context.Context, d ReleaseDraft) error {
	if other, err := s.ReleaseDraftByTag(ctx, d.Repo, d.TagName); err == nil && other.ID != d.ID {
		return ErrDuplicate
	} else if err != nil && !errors.Is(err, ErrNoReleaseDraft) {
		return err
	}
	ok, err := s.affected(s.db.ExecContext(ctx, `UPDATE release_drafts SET tag_name = $1, target = $2, title = $3, note = $4,
		prerelease = $5, updated_ns = $6 WHERE id = $7 AND repo_id = $8 AND published_id = 0`,
		d.TagName, d.Target, d.Title, d.Note, d.Prerelease, d.UpdatedNS, d.ID, int64(d.Repo)))
	if err != nil {
		return fmt.Errorf("update release draft %d: %w", d.ID, err)
	}
	if !ok {
		return ErrNoReleaseDraft
	}
	return nil
}

// MarkReleaseDraftPublished records that draft id was published as
// release: from then on its id names that release, and its tag is free.
func (s *Store) MarkReleaseDraftPublished(ctx context.Context, id int64, release uint64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE release_drafts SET published_id = $1 WHERE id = $2`, int64(release), id)
	if err != nil {
		return fmt.Errorf("mark release draft %d published: %w", id, err)
	}
	return nil
}

// DeleteReleaseDraft deletes draft id and its asset rows.
func (s *Store) DeleteReleaseDraft(ctx context.Context, id int64) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM release_draft_assets WHERE draft_id = $1`, id); err != nil {
		return fmt.Errorf("delete the assets of release draft %d: %w", id, err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM release_drafts WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete release draft %d: %w", id, err)
	}
	return nil
}

// ReleaseDrafts lists repo's unpublished drafts, newest first, with their
// assets.
func (s *Store) ReleaseDrafts(ctx context.Context, repo uint64) ([]ReleaseDraft, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+releaseDraftColumns+` FROM release_drafts
		WHERE repo_id = $1 AND published_id = 0 ORDER BY id DESC`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("list release drafts: %w", err)
	}
	defer rows.Close()
	out := []ReleaseDraft{}
	for rows.Next() {
		d, err := scanReleaseDraft(rows)
		if err != nil {
			return nil, fmt.Errorf("list release drafts: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list release drafts: %w", err)
	}
	rows.Close()
	for i := range out {
		if out[i].Assets, err = s.ReleaseDraftAssets(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ReleaseDraft reads repo's draft id, published or not, with its assets.
func (s *Store) ReleaseDraft(ctx context.Context, repo uint64, id int64) (ReleaseDraft, error) {
	return s.releaseDraftWhere(ctx, `repo_id = $1 AND id = $2`, int64(repo), id)
}

// ReleaseDraftByTag reads repo's unpublished draft of tag.
func (s *Store) ReleaseDraftByTag(ctx context.Context, repo uint64, tag string) (ReleaseDraft, error) {
	if !validText(tag) {
		return ReleaseDraft{}, ErrNoReleaseDraft // PostgreSQL refuses to compare such text
	}
	return s.releaseDraftWhere(ctx, `repo_id = $1 AND tag_name = $2 AND published_id = 0`, int64(repo), tag)
}

func (s *Store) releaseDraftWhere(ctx context.Context, where string, args ...any) (ReleaseDraft, error) {
	d, err := scanReleaseDraft(s.db.QueryRowContext(ctx, `SELECT `+releaseDraftColumns+` FROM release_drafts WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return ReleaseDraft{}, ErrNoReleaseDraft
	}
	if err != nil {
		return ReleaseDraft{}, fmt.Errorf("read release draft: %w", err)
	}
	if d.Assets, err = s.ReleaseDraftAssets(ctx, d.ID); err != nil {
		return ReleaseDraft{}, err
	}
	return d, nil
}

// ReleaseDraftAssets lists draft's assets in the order they were added.
func (s *Store) ReleaseDraftAssets(ctx context.Context, draft int64) ([]ReleaseDraftAsset, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, draft_id, name, size, sha256, uploader, created_ns
		FROM release_draft_assets WHERE draft_id = $1 ORDER BY id`, draft)
	if err != nil {
		return nil, fmt.Errorf("list assets of release draft %d: %w", draft, err)
	}
	defer rows.Close()
	out := []ReleaseDraftAsset{}
	for rows.Next() {
		var a ReleaseDraftAsset
		if err := rows.Scan(&a.ID, &a.Draft, &a.Name, &a.Size, &a.SHA256, &a.Uploader, &a.CreatedNS); err != nil {
			return nil, fmt.Errorf("list assets of release draft %d: %w", draft, err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// AddReleaseDraftAsset records a file of draft a.Draft and returns its id.
func (s *Store) AddReleaseDraftAsset(ctx context.Context, a ReleaseDraftAsset) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO release_draft_assets (draft_id, name, size, sha256, uploader, created_ns)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, a.Draft, a.Name, a.Size, a.SHA256, a.Uploader, a.CreatedNS).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert release draft asset: %w", err)
	}
	return id, nil
}

// RenameReleaseDraftAsset renames asset id of draft.
func (s *Store) RenameReleaseDraftAsset(ctx context.Context, draft, id int64, name string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE release_draft_assets SET name = $1 WHERE id = $2 AND draft_id = $3`, name, id, draft)
	if err != nil {
		return fmt.Errorf("rename release draft asset %d: %w", id, err)
	}
	return nil
}

// DeleteReleaseDraftAsset deletes asset id of draft.
func (s *Store) DeleteReleaseDraftAsset(ctx context.Context, draft, id int64) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM release_draft_assets WHERE id = $1 AND draft_id = $2`, id, draft)
	if err != nil {
		return fmt.Errorf("delete release draft asset %d: %w", id, err)
	}
	return nil
}

// ReleaseDraftFileInUse reports whether a draft's asset names the private
// file with digest.
func (s *Store) ReleaseDraftFileInUse(ctx context.Context, digest string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM release_draft_assets WHERE sha256 = $1 LIMIT 1`, digest).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up drafts' uses of private file %s: %w", digest, err)
	}
	return true, nil
}

// validText is text PostgreSQL can compare: valid UTF-8 without NUL.
func validText(s string) bool {
	return strings.ToValidUTF8(s, "") == s && !strings.ContainsRune(s, 0)
}
