package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index/readdb"
	"github.com/dforge/dforge/internal/store"
)

// Notification is one thread of a user's notifications.
type Notification struct {
	ID          int64
	Repo        uint64 // 0 for a transfer
	Number      uint64
	SubjectType string // Issue, Pull or Transfer
	Reason      string
	Title       string
	Actor       string
	CommentID   uint64
	Amount      int64
	Unread      bool
	Pinned      bool
	Height      int64
	UpdatedNS   int64
	// State is the or pull request's state now: open, closed or
	// merged ("" for a transfer).
	State string
	// Reward is a Reward thread's outcome; nil for other subjects.
	Reward *RewardNote
}

// RewardNote is what a reward thread tells: the kind of contribution,
// and what was withheld and why (rewards.Reason*; "" when nothing was).
type RewardNote struct {
	Kind     string
	Withheld int64
	Reason   string
}

// NotificationFilter picks a user's notifications. Statuses are unread,
// read and pinned (none: all); HideReasons are reasons the user's
// preferences turn off.
type NotificationFilter struct {
	User          common.Address
	Statuses      []string
	SubjectTypes  []string
	Repo          uint64 // 0: any
	SinceNS       int64  // 0: no bound
	BeforeNS      int64  // 0: no bound
	HideReasons   []string
	Participating bool // not merely watching
	// PublicOnly leaves out threads of private repositories (a public-only
	// token's view).
	PublicOnly bool
}

func (f NotificationFilter) where(args *sqlArgs) string {
	conds := []string{"n.user_address = " + args.Add(f.User.Hex())}
	if len(f.Statuses) > 0 {
		var any []string
		for _, s := range f.Statuses {
			switch s {
			case "unread":
				any = append(any, "n.unread = TRUE")
			case "read":
				any = append(any, "(n.unread = FALSE AND n.pinned = FALSE)")
			case "pinned":
				any = append(any, "n.pinned = TRUE")
			}
		}
		if len(any) > 0 {
			conds = append(conds, "("+strings.Join(any, " OR ")+")")
		}
	}
	if len(f.SubjectTypes) > 0 {
		conds = append(conds, "n.subject_type IN ("+args.List(f.SubjectTypes)+")")
	}
	if f.Repo != 0 {
		conds = append(conds, "n.repo_id = "+args.Add(int64(f.Repo)))
	}
	if f.SinceNS != 0 {
		conds = append(conds, "n.updated_ns >= "+args.Add(f.SinceNS))
	}
	if f.BeforeNS != 0 {
		conds = append(conds, "n.updated_ns < "+args.Add(f.BeforeNS))
	}
	if len(f.HideReasons) > 0 {
		conds = append(conds, "n.reason NOT IN ("+args.List(f.HideReasons)+")")
	}
	if f.Participating {
		conds = append(conds, "n.reason <> 'subscribed'")
	}
	if f.PublicOnly {
		conds = append(conds, "NOT EXISTS (SELECT 1 FROM forge_repos pr WHERE pr.id = n.repo_id AND pr.private = TRUE)")
	}
	return strings.Join(conds, " AND ")
}

const notificationColumns = `n.id, n.repo_id, n.number, n.subject_type, n.reason, n.title, n.actor, n.comment_id, n.amount,
	n.unread, n.pinned, n.height, n.updated_ns, CASE WHEN p.merged THEN 'merged' ELSE COALESCE(i.state, '') END,
	w.kind, w.withheld, w.reason`

// notificationJoins join each thread's issue and pull request for its state.
const notificationJoins = `
	LEFT JOIN forge_issues i ON i.repo_id = n.repo_id AND i.number = n.number AND n.repo_id <> 0
	LEFT JOIN forge_pulls p ON p.repo_id = n.repo_id AND p.number = n.number AND n.repo_id <> 0
	LEFT JOIN chain_rewards w ON w.height = n.height AND w.seq = n.number AND n.subject_type = 'Reward'`

const notificationFrom = `notifications n` + notificationJoins

func scanNotification(row scanner) (Notification, error) {
	var n Notification
	var repo, number, comment int64
	var kind, reason sql.NullString
	var withheld sql.NullInt64
	err := row.Scan(&n.ID, &repo, &number, &n.SubjectType, &n.Reason, &n.Title, &n.Actor, &comment, &n.Amount,
		&n.Unread, &n.Pinned, &n.Height, &n.UpdatedNS, &n.State, &kind, &withheld, &reason)
	n.Repo, n.Number, n.CommentID = uint64(repo), uint64(number), uint64(comment)
	if kind.Valid {
		n.Reward = &RewardNote{Kind: kind.String, Withheld: withheld.Int64, Reason: reason.String}
	}
	return n, err
}

// Notifications lists a user's threads, newest first, and their total.
// Read state changes outside the projection, so nothing here is cached.
func (ix *Index) Notifications(ctx context.Context, f NotificationFilter, p Page) ([]Notification, int64, error) {
	// A user's list is read again and again (a page left open, the
	// dashboard); it changes only with a block or a change of read state,
	// both of which move the read cache's generation (notifyRead).
	return rememberPage(ctx, ix, notificationsKey(f, p), func(ctx context.Context) ([]Notification, int64, error) {
		return ix.readNotifications(ctx, f, p)
	}, func(list []Notification) int64 { return int64(len(list)) * 384 })
}

func notificationsKey(f NotificationFilter, p Page) string {
	return readKey("notifications", "", f.key(), p.Number, p.Limit)
}

// notificationOrder is the list's order, newest first; a thread's id
// tells threads updated at the same time apart.
var notificationOrder = readdb.Order{Cols: []string{"n.updated_ns", "n.id"}, Desc: true}

// key is f as a read cache key.
func (f NotificationFilter) key() string {
	return fmt.Sprintf("%s|%v|%v|%d|%d|%d|%v|%t|%t", f.User.Hex(), f.Statuses, f.SubjectTypes, f.Repo, f.SinceNS, f.BeforeNS,
		f.HideReasons, f.Participating, f.PublicOnly)
}

func (ix *Index) readNotifications(ctx context.Context, f NotificationFilter, p Page) ([]Notification, int64, error) {
	var args sqlArgs
	where := f.where(&args)
	offset := p.Offset()
	// A page whose page before is kept starts after that page's last
	// thread: read from there through the index (readdb.Order.After),
	// not by stepping over every thread before it.
	if last, ok := lastKept[Notification](ctx, ix, p, func(p Page) string { return notificationsKey(f, p) }); ok {
		where += " AND " + notificationOrder.After([]string{args.Add(last.UpdatedNS), args.Add(last.ID)})
		offset = 0
	}
	n := len(args)
	// The page's ids first, from the index alone (the rows its OFFSET
	// skips are never read from the table), then those rows in full.
	q := `SELECT ` + notificationColumns + ` FROM (SELECT n.id FROM notifications n WHERE ` + where +
		fmt.Sprintf(` ORDER BY %s LIMIT $%d OFFSET $%d) pg`, notificationOrder.SQL(), n+1, n+2) +
		` JOIN notifications n ON n.id = pg.id` + notificationJoins + ` ORDER BY ` + notificationOrder.SQL()
	rows, err := ix.query(ctx, q, append(args, p.Limit, offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("read notifications: %w", err)
	}
	defer rows.Close()
	out := []Notification{}
	for rows.Next() {
		nt, err := scanNotification(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("read notifications: %w", err)
		}
		out = append(out, nt)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read notifications: %w", err)
	}
	if p.Number == 1 && len(out) < p.Limit {
		return out, int64(len(out)), nil
	}
	total, err := ix.countNotifications(ctx, f)
	return out, total, err
}

// CountNotifications counts a user's threads f picks. A filter on the
// columns notification_counts keeps (status, subject type, reason) sums a
// few counter rows (migration 00026); one on a repository, a time or
// visibility counts the threads themselves.
func (ix *Index) CountNotifications(ctx context.Context, f NotificationFilter) (int64, error) {
	return remember(ctx, ix, readKey("notification-count", "", f.key()), func(ctx context.Context) (int64, error) { return ix.countNotifications(ctx, f) })
}

func (ix *Index) countNotifications(ctx context.Context, f NotificationFilter) (int64, error) {
	var args sqlArgs
	var n int64
	from := `SELECT COUNT(*) FROM notifications n WHERE `
	if f.countable() {
		from = `SELECT COALESCE(SUM(n.threads), 0) FROM notification_counts n WHERE `
	}
	q := from + f.where(&args)
	if err := ix.queryRow(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count notifications: %w", err)
	}
	return n, nil
}

// countable: every condition of f is on a column the counters keep.
func (f NotificationFilter) countable() bool {
	return f.Repo == 0 && f.SinceNS == 0 && f.BeforeNS == 0 && !f.PublicOnly
}

// ErrNoNotification: the user has no thread of that id.
var ErrNoNotification = errors.New("no such notification")

// NotificationByID is one of user's threads; another user's is
// ErrNoNotification, as one that does not exist.
func (ix *Index) NotificationByID(ctx context.Context, user common.Address, id int64) (Notification, error) {
	n, err := scanNotification(ix.queryRow(ctx, `SELECT `+notificationColumns+` FROM `+notificationFrom+` WHERE n.id = $1 AND n.user_address = $2`, id, user.Hex()))
	if errors.Is(err, sql.ErrNoRows) {
		return n, ErrNoNotification
	}
	if err != nil {
		return n, fmt.Errorf("read notification %d: %w", id, err)
	}
	return n, nil
}

// statusSet is the SET clause that gives a thread a status.
func statusSet(status string) (string, error) {
	switch status {
	case "read":
		return "unread = FALSE, pinned = FALSE", nil
	case "unread":
		return "unread = TRUE, pinned = FALSE", nil
	case "pinned":
		return "unread = FALSE, pinned = TRUE", nil
	}
	return "", fmt.Errorf("unknown status %q", status)
}

// MarkNotifications gives every thread f picks the status, in one
// statement, and returns the ids it changed. On PostgreSQL the statement
// leaves the counters alone and the user is recounted at its end, in the
// same transaction (see migration 00026): one counter row updated once
// per thread would cost quadratic time there.
func (ix *Index) MarkNotifications(ctx context.Context, f NotificationFilter, status string) ([]int64, error) {
	set, err := statusSet(status)
	if err != nil {
		return nil, err
	}
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("mark notifications: %w", err)
	}
	defer tx.Rollback()
	recount := ix.dialect == store.Postgres
	if recount {
		if _, err := tx.ExecContext(ctx, `SET LOCAL dforge.recount = 'on'`); err != nil {
			return nil, fmt.Errorf("mark notifications: %w", err)
		}
	}
	var args sqlArgs
	ids, err := markedIDs(ctx, tx, `UPDATE notifications SET `+set+` WHERE id IN (SELECT n.id FROM notifications n WHERE `+
		f.where(&args)+`) RETURNING id`, args)
	if err != nil {
		return nil, err
	}
	if recount {
		if err := recountNotifications(ctx, tx, f.User); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("mark notifications: %w", err)
	}
	ix.notifyRead()
	return ids, nil
}

func markedIDs(ctx context.Context, tx *sql.Tx, q string, args []any) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("mark notifications: %w", err)
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("mark notifications: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("mark notifications: %w", err)
	}
	return ids, nil
}

// recountNotifications rewrites user's counters from their threads.
func recountNotifications(ctx context.Context, tx *sql.Tx, user common.Address) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM notification_counts WHERE user_address = $1`, user.Hex()); err != nil {
		return fmt.Errorf("recount notifications: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO notification_counts (user_address, subject_type, reason, unread, pinned, threads)
		SELECT user_address, subject_type, reason, unread, pinned, COUNT(*) FROM notifications WHERE user_address = $1
		GROUP BY user_address, subject_type, reason, unread, pinned`, user.Hex()); err != nil {
		return fmt.Errorf("recount notifications: %w", err)
	}
	return nil
}

// MarkNotification gives one of user's threads the status.
func (ix *Index) MarkNotification(ctx context.Context, user common.Address, id int64, status string) (Notification, error) {
	set, err := statusSet(status)
	if err != nil {
		return Notification{}, err
	}
	res, err := ix.db.ExecContext(ctx, `UPDATE notifications SET `+set+` WHERE id = $1 AND user_address = $2`, id, user.Hex())
	if err != nil {
		return Notification{}, fmt.Errorf("mark notification %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return Notification{}, ErrNoNotification
	}
	ix.notifyRead()
	return ix.NotificationByID(ctx, user, id)
}

// notifyRead wakes the badge streams after a change of read state (a new
// block wakes them through setHeight), and moves the read cache on for
// the notifications and their counts: the change has been written, so no
// answer read from them before it is used again. Its callers write only
// those tables.
func (ix *Index) notifyRead() {
	ix.changed("notifications", "notification_counts")
	ix.mu.Lock()
	ix.notify()
	ix.mu.Unlock()
}

// Changes returns a channel closed at the next projected block or change
// of read state: what a live view of notifications waits on.
func (ix *Index) Changes() <-chan struct{} {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.advanced
}

// Done is closed once Run has returned: the node is stopping.
func (ix *Index) Done() <-chan struct{} { return ix.done }
