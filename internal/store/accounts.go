package store

import (
	"context"
	"fmt"
)

// The admin console's reads and revocations over every account of the
// node (the user-facing ones in auth.go are scoped to one user).

// Users lists the node's accounts, oldest first, and how many there are.
func (s *Store) Users(ctx context.Context, limit, offset int) ([]User, int64, error) {
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count users: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+userColumns+` `+userFrom+` ORDER BY u.id LIMIT $1 OFFSET $2`, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("query users: %w", err)
	}
	defer rows.Close()
	out := []User{}
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan user: %w", err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read users: %w", err)
	}
	return out, total, nil
}

// RevokeAnySession deletes a session whoever holds it; false when there
// is none with that id.
func (s *Store) RevokeAnySession(ctx context.Context, id int64) (bool, error) {
	defer s.creds.forget()
	return s.affected(s.db.ExecContext(ctx, `DELETE FROM sessions WHERE id = $1`, id))
}

// RevokeAnyAccessToken deletes an access token whoever holds it; false
// when there is none with that id.
func (s *Store) RevokeAnyAccessToken(ctx context.Context, id int64) (bool, error) {
	defer s.creds.forget()
	return s.affected(s.db.ExecContext(ctx, `DELETE FROM access_tokens WHERE id = $1`, id))
}
