package webhook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/usererr"
)

const hookColumns = `id, repo_id, owner, url, http_method, content_type, secret, events, branch_filter,
	authorization_header, active, created_ns, updated_ns`

// scopeWhere selects the hooks of s: $1 is the repository, $2 the owner.
const scopeWhere = `repo_id = $1 AND owner = $2`

func scopeArgs(s Scope) []any {
	owner := ""
	if s.RepoID == 0 {
		owner = strings.ToLower(s.Owner.Hex())
	}
	return []any{int64(s.RepoID), owner}
}

type scanner interface{ Scan(...any) error }

func scanHook(row scanner) (Hook, error) {
	var h Hook
	var repo, created, updated int64
	var owner, events string
	err := row.Scan(&h.ID, &repo, &owner, &h.URL, &h.Method, &h.ContentType, &h.Secret, &events, &h.BranchFilter,
		&h.AuthHeader, &h.Active, &created, &updated)
	if err != nil {
		return h, err
	}
	h.Scope = Scope{RepoID: uint64(repo)}
	if owner != "" {
		h.Scope.Owner = common.HexToAddress(owner)
	}
	h.Events = splitEvents(events)
	h.Created, h.Updated = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	return h, nil
}

func splitEvents(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

// List is the hooks of s, oldest first, one page (page from 1).
func (s *Service) List(ctx context.Context, sc Scope, page, limit int) ([]Hook, int64, error) {
	var total int64
	args := scopeArgs(sc)
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhooks WHERE `+scopeWhere, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count hooks: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+hookColumns+` FROM webhooks WHERE `+scopeWhere+` ORDER BY id LIMIT $3 OFFSET $4`,
		append(args, limit, (page-1)*limit)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list hooks: %w", err)
	}
	defer rows.Close()
	out := []Hook{}
	for rows.Next() {
		h, err := scanHook(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("read hook: %w", err)
		}
		out = append(out, h)
	}
	return out, total, rows.Err()
}

// Get is hook id of s; another scope's hook is not found.
func (s *Service) Get(ctx context.Context, sc Scope, id int64) (Hook, error) {
	h, err := scanHook(s.db.QueryRowContext(ctx, `SELECT `+hookColumns+` FROM webhooks WHERE `+scopeWhere+` AND id = $3`,
		append(scopeArgs(sc), id)...))
	if errors.Is(err, sql.ErrNoRows) {
		return Hook{}, usererr.Missingf("webhook %d does not exist", id)
	}
	if err != nil {
		return Hook{}, fmt.Errorf("read hook %d: %w", id, err)
	}
	return h, nil
}

// Create adds a hook to s; a URL and a content type are required, and the
// events default to push (Gitea's default).
func (s *Service) Create(ctx context.Context, sc Scope, in Input) (Hook, error) {
	h := Hook{Scope: sc, Method: "POST", ContentType: "json", Events: []string{"push"}, Active: true}
	if in.URL == nil || *in.URL == "" {
		return Hook{}, usererr.BadFieldf("config.url", "config.url is required")
	}
	if in.ContentType == nil || *in.ContentType == "" {
		return Hook{}, usererr.BadFieldf("config.content_type", "config.content_type is required: json or form")
	}
	if err := in.apply(&h); err != nil {
		return Hook{}, err
	}
	if len(h.Events) == 0 {
		h.Events = []string{"push"}
	}
	// Before the row exists: a block projected meanwhile must look for it.
	s.hooksExist.Store(true)
	now := s.now().UnixNano()
	args := scopeArgs(sc)
	err := s.db.QueryRowContext(ctx, `INSERT INTO webhooks (repo_id, owner, url, http_method, content_type, secret, events,
		branch_filter, authorization_header, active, created_ns, updated_ns) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
		RETURNING id`, args[0], args[1], h.URL, h.Method, h.ContentType, h.Secret, strings.Join(h.Events, ","),
		h.BranchFilter, h.AuthHeader, h.Active, now).Scan(&h.ID)
	if err != nil {
		return Hook{}, fmt.Errorf("insert hook: %w", err)
	}
	h.Created, h.Updated = time.Unix(0, now).UTC(), time.Unix(0, now).UTC()
	return h, nil
}

// Edit changes the settings in names; the rest stay.
func (s *Service) Edit(ctx context.Context, sc Scope, id int64, in Input) (Hook, error) {
	h, err := s.Get(ctx, sc, id)
	if err != nil {
		return Hook{}, err
	}
	if err := in.apply(&h); err != nil {
		return Hook{}, err
	}
	if len(h.Events) == 0 {
		h.Events = []string{"push"}
	}
	now := s.now().UnixNano()
	_, err = s.db.ExecContext(ctx, `UPDATE webhooks SET url = $1, http_method = $2, content_type = $3, secret = $4, events = $5,
		branch_filter = $6, authorization_header = $7, active = $8, updated_ns = $9 WHERE id = $10`,
		h.URL, h.Method, h.ContentType, h.Secret, strings.Join(h.Events, ","), h.BranchFilter, h.AuthHeader, h.Active, now, id)
	if err != nil {
		return Hook{}, fmt.Errorf("update hook %d: %w", id, err)
	}
	h.Updated = time.Unix(0, now).UTC()
	return h, nil
}

// Delete removes the hook and its deliveries, pending ones included.
func (s *Service) Delete(ctx context.Context, sc Scope, id int64) error {
	if _, err := s.Get(ctx, sc, id); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE hook_id = $1`, id); err != nil {
		return fmt.Errorf("delete deliveries of hook %d: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM webhooks WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete hook %d: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// hooksFor are the active hooks of a repository and of its owner, read
// in the projecting transaction.
func hooksFor(ctx context.Context, tx interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, repo uint64, owner common.Address) ([]Hook, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+hookColumns+` FROM webhooks WHERE active = $1 AND
		((repo_id = $2 AND owner = '') OR (repo_id = 0 AND owner = $3)) ORDER BY id`,
		true, int64(repo), strings.ToLower(owner.Hex()))
	if err != nil {
		return nil, fmt.Errorf("find hooks of repository %d: %w", repo, err)
	}
	defer rows.Close()
	var out []Hook
	for rows.Next() {
		h, err := scanHook(rows)
		if err != nil {
			return nil, fmt.Errorf("read hook: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}
