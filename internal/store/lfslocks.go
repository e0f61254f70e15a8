package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// LFSLock is a Git LFS file lock (migration 00070): one path of one
// repository, held by one account.
type LFSLock struct {
	ID           int64
	RepoID       string
	Path         string
	OwnerAddress string // lower-case hex
	OwnerName    string
	LockedAt     time.Time
}

// LFSLockFilter selects a repository's locks, oldest first: by path or
// id when set, from the id After on, at most Limit.
type LFSLockFilter struct {
	RepoID string
	Path   string
	ID     int64
	After  int64
	Limit  int
}

const lfsLockColumns = `id, repo_id, path, owner_address, owner_name, locked_at`

func scanLFSLock(row interface{ Scan(...any) error }) (LFSLock, error) {
	var l LFSLock
	var locked int64
	err := row.Scan(&l.ID, &l.RepoID, &l.Path, &l.OwnerAddress, &l.OwnerName, &locked)
	l.LockedAt = time.UnixMilli(locked).UTC()
	return l, err
}

// AddLFSLock stores l and returns it with its id. When the path is locked
// already it returns that lock and ErrDuplicate.
func (s *Store) AddLFSLock(ctx context.Context, l LFSLock) (LFSLock, error) {
	err := s.db.QueryRowContext(ctx, `INSERT INTO lfs_locks (repo_id, path, owner_address, owner_name, locked_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (repo_id, path) DO NOTHING RETURNING id`,
		l.RepoID, l.Path, l.OwnerAddress, l.OwnerName, l.LockedAt.UnixMilli()).Scan(&l.ID)
	if errors.Is(err, sql.ErrNoRows) {
		held, err := scanLFSLock(s.db.QueryRowContext(ctx, `SELECT `+lfsLockColumns+` FROM lfs_locks WHERE repo_id = $1 AND path = $2`, l.RepoID, l.Path))
		if err != nil {
			return LFSLock{}, fmt.Errorf("read the lock held: %w", err)
		}
		return held, ErrDuplicate
	}
	if err != nil {
		return LFSLock{}, fmt.Errorf("insert lfs lock: %w", err)
	}
	return l, nil
}

// LFSLocks lists the locks f selects.
func (s *Store) LFSLocks(ctx context.Context, f LFSLockFilter) ([]LFSLock, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+lfsLockColumns+` FROM lfs_locks
		WHERE repo_id = $1 AND ($2 = '' OR path = $2) AND (CAST($3 AS BIGINT) = 0 OR id = CAST($3 AS BIGINT)) AND id >= CAST($4 AS BIGINT)
		ORDER BY id LIMIT $5`, f.RepoID, f.Path, f.ID, f.After, f.Limit)
	if err != nil {
		return nil, fmt.Errorf("query lfs locks: %w", err)
	}
	defer rows.Close()
	out := []LFSLock{}
	for rows.Next() {
		l, err := scanLFSLock(rows)
		if err != nil {
			return nil, fmt.Errorf("scan lfs lock: %w", err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read lfs locks: %w", err)
	}
	return out, nil
}

// LFSLock is lock id of repository repoID (false: none).
func (s *Store) LFSLock(ctx context.Context, repoID string, id int64) (LFSLock, bool, error) {
	l, err := scanLFSLock(s.db.QueryRowContext(ctx, `SELECT `+lfsLockColumns+` FROM lfs_locks WHERE repo_id = $1 AND id = $2`, repoID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return LFSLock{}, false, nil
	}
	if err != nil {
		return LFSLock{}, false, fmt.Errorf("read lfs lock: %w", err)
	}
	return l, true, nil
}

// DeleteLFSLock removes lock id of repoID; false when it was not there.
func (s *Store) DeleteLFSLock(ctx context.Context, repoID string, id int64) (bool, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM lfs_locks WHERE repo_id = $1 AND id = $2`, repoID, id)
	if err != nil {
		return false, fmt.Errorf("delete lfs lock: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
