// Package orglabels keeps organizations' labels, Gitea's
// /orgs/{org}/labels.
//
// Labels on chain belong to one repository each (label.create names its
// repository, and an issue's labels are that repository's). An
// organization's labels would need a new chain module, an upgrade and a
// rule for applying them across repositories; what Gitea's clients do with
// them through this API is list and manage the set. So the set is
// node-local: kept in this node's SQL, readable by anyone (organizations
// are public), managed by the organization's owners, and not applied to
// issues (an issue takes its repository's labels, on chain).
package orglabels

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Label is one label of an organization.
type Label struct {
	ID          int64
	Org         uint64
	Name        string
	Color       string // "rrggbb", no '#'
	Description string
	Exclusive   bool
}

// Service keeps the organizations' labels.
type Service struct{ db *sql.DB }

// New returns the organization labels of st.
func New(st *store.Store) *Service { return &Service{db: st.DB()} }

// Edit is a change of a label; nil fields stay as they are.
type Edit struct {
	Name, Color, Description *string
	Exclusive                *bool
}

func mayManage(owner bool) error {
	if !owner {
		return usererr.Deniedf("only the organization's owners manage its labels")
	}
	return nil
}

// check holds l to the rules of repositories' labels on chain.
func check(l *Label) error {
	l.Name = strings.TrimSpace(l.Name)
	if l.Name == "" || len(l.Name) > chainforge.MaxLabelName || !utf8.ValidString(l.Name) || strings.ContainsAny(l.Name, "\r\n\x00") {
		return usererr.BadFieldf("name", "name must be 1 to %d bytes on one line", chainforge.MaxLabelName)
	}
	c := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(l.Color), "#"))
	if len(c) != 6 || strings.Trim(c, "0123456789abcdef") != "" {
		return usererr.BadFieldf("color", "color must be #rrggbb")
	}
	l.Color = c
	if len(l.Description) > chainforge.MaxLabelDesc || !utf8.ValidString(l.Description) {
		return usererr.BadFieldf("description", "description must be valid UTF-8 of at most %d bytes", chainforge.MaxLabelDesc)
	}
	return nil
}

func clash(name string) error {
	return usererr.Unprocessablef("name", "label_exists", "the organization already has a label named %q", name)
}

// Create adds l to organization org, when owner (the caller is one of its
// owners).
func (s *Service) Create(ctx context.Context, owner bool, org uint64, l Label) (Label, error) {
	if err := mayManage(owner); err != nil {
		return Label{}, err
	}
	if err := check(&l); err != nil {
		return Label{}, err
	}
	l.Org = org
	err := s.db.QueryRowContext(ctx, `INSERT INTO org_labels (org_id, name, name_key, color, description, exclusive) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (org_id, name_key) DO NOTHING RETURNING id`, int64(org), l.Name, strings.ToLower(l.Name), l.Color, l.Description, l.Exclusive).Scan(&l.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return Label{}, clash(l.Name)
	}
	if err != nil {
		return Label{}, fmt.Errorf("insert org label: %w", err)
	}
	return l, nil
}

const columns = `id, org_id, name, color, description, exclusive`

func scan(row interface{ Scan(...any) error }) (Label, error) {
	var l Label
	var org int64
	err := row.Scan(&l.ID, &org, &l.Name, &l.Color, &l.Description, &l.Exclusive)
	l.Org = uint64(org)
	return l, err
}

// List returns org's labels by name, limit from offset, and the total.
func (s *Service) List(ctx context.Context, org uint64, limit, offset int) ([]Label, int64, error) {
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM org_labels WHERE org_id = $1`, int64(org)).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count org labels: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+columns+` FROM org_labels WHERE org_id = $1 ORDER BY name_key, id LIMIT $2 OFFSET $3`, int64(org), limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list org labels: %w", err)
	}
	defer rows.Close()
	out := []Label{}
	for rows.Next() {
		l, err := scan(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan org label: %w", err)
		}
		out = append(out, l)
	}
	return out, total, rows.Err()
}

// Get returns org's label id.
func (s *Service) Get(ctx context.Context, org uint64, id int64) (Label, error) {
	l, err := scan(s.db.QueryRowContext(ctx, `SELECT `+columns+` FROM org_labels WHERE org_id = $1 AND id = $2`, int64(org), id))
	if errors.Is(err, sql.ErrNoRows) {
		return Label{}, usererr.Missingf("the organization has no label %d", id)
	}
	if err != nil {
		return Label{}, fmt.Errorf("read org label: %w", err)
	}
	return l, nil
}

// Update applies e to org's label id.
func (s *Service) Update(ctx context.Context, owner bool, org uint64, id int64, e Edit) (Label, error) {
	if err := mayManage(owner); err != nil {
		return Label{}, err
	}
	l, err := s.Get(ctx, org, id)
	if err != nil {
		return Label{}, err
	}
	for _, f := range []struct {
		to   *string
		from *string
	}{{&l.Name, e.Name}, {&l.Color, e.Color}, {&l.Description, e.Description}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	if e.Exclusive != nil {
		l.Exclusive = *e.Exclusive
	}
	if err := check(&l); err != nil {
		return Label{}, err
	}
	var other int64
	err = s.db.QueryRowContext(ctx, `SELECT id FROM org_labels WHERE org_id = $1 AND name_key = $2 AND id <> $3`, int64(org), strings.ToLower(l.Name), id).Scan(&other)
	if err == nil {
		return Label{}, clash(l.Name)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Label{}, fmt.Errorf("check org label name: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE org_labels SET name = $1, name_key = $2, color = $3, description = $4, exclusive = $5 WHERE id = $6`,
		l.Name, strings.ToLower(l.Name), l.Color, l.Description, l.Exclusive, id); err != nil {
		// A label of that name made meanwhile breaks the unique key.
		if s.db.QueryRowContext(ctx, `SELECT id FROM org_labels WHERE org_id = $1 AND name_key = $2 AND id <> $3`, int64(org), strings.ToLower(l.Name), id).Scan(&other) == nil {
			return Label{}, clash(l.Name)
		}
		return Label{}, fmt.Errorf("update org label: %w", err)
	}
	return l, nil
}

// Delete removes org's label id.
func (s *Service) Delete(ctx context.Context, owner bool, org uint64, id int64) error {
	if err := mayManage(owner); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, `DELETE FROM org_labels WHERE org_id = $1 AND id = $2`, int64(org), id)
	if err != nil {
		return fmt.Errorf("delete org label: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return usererr.Missingf("the organization has no label %d", id)
	}
	return nil
}
