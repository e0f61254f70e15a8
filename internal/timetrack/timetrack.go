// Package timetrack keeps the time people track on issues, as Gitea's
// /repos/{owner}/{repo}/times and /issues/{index}/times.
//
// Tracked time is a person's own bookkeeping, so it is node-local: never
// on chain, kept in this node's SQL and shown on this node only. The rules
// are Gitea's defaults (only contributors track time): the repository's
// writers add time and read everyone's; anyone else reads only their own;
// a time is deleted by the one who tracked it or by the repository's
// admins.
package timetrack

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// MaxSeconds bounds one entry: a year.
const MaxSeconds = 366 * 24 * 3600

// Time is one entry of tracked time.
type Time struct {
	ID      int64
	Repo    uint64
	Issue   uint64 // the issue's number
	User    common.Address
	Seconds int64
	Created time.Time
}

// Service keeps the tracked times.
type Service struct {
	db  *sql.DB
	now func() time.Time
}

// New returns the tracked times of st.
func New(st *store.Store) *Service { return &Service{db: st.DB(), now: time.Now} }

func key(a common.Address) string { return strings.ToLower(a.Hex()) }

// Add records seconds that user spent on issue number of repo, at created
// (zero: now), when perm (user's on repo) lets them track time there.
func (s *Service) Add(ctx context.Context, perm chainforge.Perm, repo, number uint64, user common.Address, seconds int64, created time.Time) (Time, error) {
	if perm < chainforge.PermWrite {
		return Time{}, usererr.Deniedf("only the repository's contributors (write access) may track time on its issues")
	}
	if seconds <= 0 || seconds > MaxSeconds {
		return Time{}, usererr.BadFieldf("time", "time must be 1 to %d seconds", MaxSeconds)
	}
	if created.IsZero() {
		created = s.now()
	}
	t := Time{Repo: repo, Issue: number, User: user, Seconds: seconds, Created: created.UTC().Truncate(time.Millisecond)}
	err := s.db.QueryRowContext(ctx, `INSERT INTO tracked_times (repo_id, issue_number, user_address, seconds, created_ms)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, int64(repo), int64(number), key(user), seconds, t.Created.UnixMilli()).Scan(&t.ID)
	if err != nil {
		return Time{}, fmt.Errorf("insert tracked time: %w", err)
	}
	return t, nil
}

// Filter picks the times List returns.
type Filter struct {
	Issue         uint64          // 0: every issue of the repository
	User          *common.Address // nil: everyone's the viewer may read
	Since, Before time.Time       // zero: unbounded
}

// List returns the times of repo that viewer (with perm there) may read:
// a writer reads everyone's, anyone else only their own (asking for
// someone else's is 403). Oldest first, limit from offset, and the total.
func (s *Service) List(ctx context.Context, perm chainforge.Perm, viewer common.Address, repo uint64, f Filter, limit, offset int) ([]Time, int64, error) {
	if perm < chainforge.PermWrite {
		if f.User != nil && *f.User != viewer {
			return nil, 0, usererr.Deniedf("only the repository's contributors may read others' tracked time")
		}
		f.User = &viewer
	}
	where := `repo_id = $1 AND (CAST($2 AS BIGINT) = 0 OR issue_number = $2) AND ($3 = '' OR user_address = $3) AND created_ms >= $4 AND created_ms < $5`
	user := ""
	if f.User != nil {
		user = key(*f.User)
	}
	since, before := int64(0), int64(1)<<62
	if !f.Since.IsZero() {
		since = f.Since.UnixMilli()
	}
	if !f.Before.IsZero() {
		before = f.Before.UnixMilli()
	}
	args := []any{int64(repo), int64(f.Issue), user, since, before}
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM tracked_times WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count tracked times: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, repo_id, issue_number, user_address, seconds, created_ms FROM tracked_times
		WHERE `+where+` ORDER BY id LIMIT $6 OFFSET $7`, append(args, limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list tracked times: %w", err)
	}
	defer rows.Close()
	out := []Time{}
	for rows.Next() {
		var t Time
		var repo, number, created int64
		var addr string
		if err := rows.Scan(&t.ID, &repo, &number, &addr, &t.Seconds, &created); err != nil {
			return nil, 0, fmt.Errorf("scan tracked time: %w", err)
		}
		t.Repo, t.Issue, t.User, t.Created = uint64(repo), uint64(number), common.HexToAddress(addr), time.UnixMilli(created).UTC()
		out = append(out, t)
	}
	return out, total, rows.Err()
}

// Reset deletes user's own times on issue number of repo (Gitea's DELETE
// /issues/{index}/times); none is a 404, as in Gitea.
func (s *Service) Reset(ctx context.Context, perm chainforge.Perm, repo, number uint64, user common.Address) error {
	if perm < chainforge.PermWrite {
		return usererr.Deniedf("only the repository's contributors (write access) may track time on its issues")
	}
	res, err := s.db.ExecContext(ctx, `DELETE FROM tracked_times WHERE repo_id = $1 AND issue_number = $2 AND user_address = $3`,
		int64(repo), int64(number), key(user))
	if err != nil {
		return fmt.Errorf("reset tracked time: %w", err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return usererr.Missingf("you have tracked no time on issue #%d", number)
	}
	return nil
}

// Delete removes time id of issue number of repo: its own tracker or the
// repository's admins may.
func (s *Service) Delete(ctx context.Context, perm chainforge.Perm, repo, number uint64, user common.Address, id int64) error {
	var owner string
	err := s.db.QueryRowContext(ctx, `SELECT user_address FROM tracked_times WHERE id = $1 AND repo_id = $2 AND issue_number = $3`,
		id, int64(repo), int64(number)).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && perm < chainforge.PermWrite && owner != key(user)) {
		return usererr.Missingf("issue #%d has no tracked time %d", number, id)
	}
	if err != nil {
		return fmt.Errorf("read tracked time: %w", err)
	}
	if owner != key(user) && perm < chainforge.PermMaintain {
		return usererr.Deniedf("only who tracked the time or the repository's admins may delete it")
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM tracked_times WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete tracked time: %w", err)
	}
	return nil
}
