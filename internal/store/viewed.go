package store

import (
	"context"
	"fmt"
)

// ViewedFiles are the files of pull request number of repo that reviewer
// (a lower-case wallet address) has marked viewed: path -> the version of
// the file's change the mark was made on.
func (s *Store) ViewedFiles(ctx context.Context, reviewer string, repo, number uint64) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, version FROM pull_viewed_files
		WHERE reviewer = $1 AND repo_id = $2 AND number = $3`, reviewer, int64(repo), int64(number))
	if err != nil {
		return nil, fmt.Errorf("query viewed files: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var path, version string
		if err := rows.Scan(&path, &version); err != nil {
			return nil, fmt.Errorf("scan viewed file: %w", err)
		}
		out[path] = version
	}
	return out, rows.Err()
}

// CountViewedFiles is how many files of the pull request reviewer has
// marked viewed.
func (s *Store) CountViewedFiles(ctx context.Context, reviewer string, repo, number uint64) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pull_viewed_files WHERE reviewer = $1 AND repo_id = $2 AND number = $3`,
		reviewer, int64(repo), int64(number)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count viewed files: %w", err)
	}
	return n, nil
}

// MarkViewed marks path viewed at version, replacing an earlier mark.
func (s *Store) MarkViewed(ctx context.Context, reviewer string, repo, number uint64, path, version string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO pull_viewed_files (reviewer, repo_id, number, path, version)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (reviewer, repo_id, number, path) DO UPDATE SET version = excluded.version`,
		reviewer, int64(repo), int64(number), path, version)
	if err != nil {
		return fmt.Errorf("mark file viewed: %w", err)
	}
	return nil
}

// UnmarkViewed takes reviewer's mark off path; no mark is no error.
func (s *Store) UnmarkViewed(ctx context.Context, reviewer string, repo, number uint64, path string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM pull_viewed_files WHERE reviewer = $1 AND repo_id = $2 AND number = $3 AND path = $4`,
		reviewer, int64(repo), int64(number), path)
	if err != nil {
		return fmt.Errorf("unmark file viewed: %w", err)
	}
	return nil
}
