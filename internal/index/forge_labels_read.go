package index

import (
	"context"
	"fmt"
)

// A repository's labels.

// Label is a repository label.
type Label struct {
	ID          uint64 `json:"id"`
	Name        string `json:"name"`
	Color       string `json:"color"`
	Description string `json:"description"`
	Exclusive   bool   `json:"exclusive"`
	// Signer is the key that signed its creation and Delegation the
	// delegate it acted under ("" when the owner signed; both "" before
	// the own-keys rules).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

// Labels lists a repository's labels by name.
func (ix *Index) Labels(ctx context.Context, repo uint64) ([]Label, error) {
	rows, err := ix.query(ctx, `SELECT id, name, color, description, exclusive, signer, delegation FROM forge_labels WHERE repo_id = $1 ORDER BY name, id`, int64(repo))
	if err != nil {
		return nil, fmt.Errorf("list labels: %w", err)
	}
	defer rows.Close()
	out := []Label{}
	for rows.Next() {
		var l Label
		if err := rows.Scan(&l.ID, &l.Name, &l.Color, &l.Description, &l.Exclusive, &l.Signer, &l.Delegation); err != nil {
			return nil, fmt.Errorf("list labels: %w", err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list labels: %w", err)
	}
	return out, nil
}
