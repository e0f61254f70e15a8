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
	// State is the issue's or pull request's state now: open, closed or
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

// notificationColumns are a thread's own and its issue's or pull
// request's state now (notificationJoins); a reward's outcome is read
// apart (withRewards).
const notificationColumns = `n.id, n.repo_id, n.number, n.subject_type, n.reason, n.title, n.actor, n.comment_id, n.amount,
	n.unread, n.pinned, n.height, n.updated_ns, CASE WHEN p.merged THEN 'merged' ELSE COALESCE(i.state, '') END`

// notificationJoins join each thread's issue and pull request for its
// state. A kept answer depends on them in the scopes of the issues its
// threads name (threadScopes), not on every issue.
const notificationJoins = `
	LEFT JOIN forge_issues i ON i.repo_id = n.repo_id AND i.number = n.number AND n.repo_id <> 0
	LEFT JOIN forge_pulls p ON p.repo_id = n.repo_id AND p.number = n.number AND n.repo_id <> 0`

func scanNotification(row scanner) (Notification, error) {
	var n Notification
	var repo, number, comment int64
	err := row.Scan(&n.ID, &repo, &number, &n.SubjectType, &n.Reason, &n.Title, &n.Actor, &comment, &n.Amount,
		&n.Unread, &n.Pinned, &n.Height, &n.UpdatedNS, &n.State)
	n.Repo, n.Number, n.CommentID = uint64(repo), uint64(number), uint64(comment)
	return n, err
}

// joinedIssues is ctx with its reads of the joined issues and pull
// requests noted by threadScopes once the threads are read.
func joinedIssues(ctx context.Context) (context.Context, *readdb.Later) {
	return readdb.ScopesLater(ctx, "forge_issues", "forge_pulls")
}

// threadScopes notes the reads left to l in the scopes of the issues list
// names: the only rows of forge_issues and forge_pulls the joins can
// reach. So a kept page is read again after a change to one of its
// issues, not after a comment on any issue.
func threadScopes(l *readdb.Later, list []Notification) {
	var scopes []readdb.Scope
	for _, n := range list {
		if n.Repo != 0 {
			scopes = append(scopes, issueScope(n.Repo, n.Number))
		}
	}
	l.In(scopes...)
}

// withRewards gives each reward thread of list its outcome. Only a page
// with a reward reads chain_rewards, so only such a page is read again
// when a block mints one.
func (ix *Index) withRewards(ctx context.Context, list []Notification) error {
	var args sqlArgs
	var pairs []string
	at := map[[2]int64][]int{}
	for i, n := range list {
		if n.SubjectType != "Reward" {
			continue
		}
		k := [2]int64{n.Height, int64(n.Number)}
		if at[k] == nil {
			pairs = append(pairs, "(height = "+args.Add(n.Height)+" AND seq = "+args.Add(int64(n.Number))+")")
		}
		at[k] = append(at[k], i)
	}
	if len(pairs) == 0 {
		return nil
	}
	rows, err := ix.query(ctx, `SELECT height, seq, kind, withheld, reason FROM chain_rewards WHERE `+strings.Join(pairs, " OR "), args...)
	if err != nil {
		return fmt.Errorf("read notifications' rewards: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k [2]int64
		var note RewardNote
		if err := rows.Scan(&k[0], &k[1], &note.Kind, &note.Withheld, &note.Reason); err != nil {
			return fmt.Errorf("read notifications' rewards: %w", err)
		}
		for _, i := range at[k] {
			r := note
			list[i].Reward = &r
		}
	}
	return rows.Err()
}

// Notifications lists a user's threads, newest first, and their total.
func (ix *Index) Notifications(ctx context.Context, f NotificationFilter, p Page) ([]Notification, int64, error) {
	// A user's list is read again and again (a page left open, the
	// dashboard). It is kept in the user's scope: it changes only with a
	// block that notifies the user or a change of their read state
	// (notifyRead), not with everyone else's notifications.
	ctx = userScope(ctx, f.User)
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
	// Where the page before ended depends on the threads alone, not on
	// the issues it showed.
	if last, ok := lastKept[Notification](ctx, ix, p, func(p Page) string { return notificationsKey(f, p) }, "notifications"); ok {
		where += " AND " + notificationOrder.After([]string{args.Add(last.UpdatedNS), args.Add(last.ID)})
		offset = 0
	}
	n := len(args)
	// The page's ids first, from the index alone (the rows its OFFSET
	// skips are never read from the table), then those rows in full.
	q := `SELECT ` + notificationColumns + ` FROM (SELECT n.id FROM notifications n WHERE ` + where +
		fmt.Sprintf(` ORDER BY %s LIMIT $%d OFFSET $%d) pg`, notificationOrder.SQL(), n+1, n+2) +
		` JOIN notifications n ON n.id = pg.id` + notificationJoins + ` ORDER BY ` + notificationOrder.SQL()
	jctx, later := joinedIssues(ctx)
	rows, err := ix.query(jctx, q, append(args, p.Limit, offset)...)
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
	threadScopes(later, out)
	if err := ix.withRewards(ctx, out); err != nil {
		return nil, 0, err
	}
	if p.Number == 1 && len(out) < p.Limit {
		return out, int64(len(out)), nil
	}
	total, err := ix.countNotifications(ctx, f)
	return out, total, err
}

// CountNotifications counts a user's threads f picks. A filter on the
// columns notification_counts keeps (status, subject type, reason,
// repository, and so visibility) sums a few counter rows (migrations 00026
// and 00091); one on a time counts the threads in that range of the index.
func (ix *Index) CountNotifications(ctx context.Context, f NotificationFilter) (int64, error) {
	ctx = userScope(ctx, f.User)
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

// countable: every condition of f is on a column the counters keep. A
// time is not: a thread's time moves with each new event on it.
func (f NotificationFilter) countable() bool {
	return f.SinceNS == 0 && f.BeforeNS == 0
}

// userScope is ctx with its reads of notifications and their counters
// declared to read only user's rows (readdb.UserScope).
func userScope(ctx context.Context, user common.Address) context.Context {
	return readdb.InScope(ctx, readdb.UserScope(user.Hex()))
}

// ErrNoNotification: the user has no thread of that id.
var ErrNoNotification = errors.New("no such notification")

// NotificationByID is one of user's threads; another user's is
// ErrNoNotification, as one that does not exist.
func (ix *Index) NotificationByID(ctx context.Context, user common.Address, id int64) (Notification, error) {
	n, err := scanNotification(ix.queryRow(ctx, `SELECT `+notificationColumns+` FROM notifications n`+notificationJoins+
		` WHERE n.id = $1 AND n.user_address = $2`, id, user.Hex()))
	if errors.Is(err, sql.ErrNoRows) {
		return n, ErrNoNotification
	}
	if err != nil {
		return n, fmt.Errorf("read notification %d: %w", id, err)
	}
	list := []Notification{n}
	if err := ix.withRewards(ctx, list); err != nil {
		return n, err
	}
	return list[0], nil
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
	ix.notifyRead(f.User)
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
	if _, err := tx.ExecContext(ctx, `INSERT INTO notification_counts (user_address, repo_id, subject_type, reason, unread, pinned, threads)
		SELECT user_address, repo_id, subject_type, reason, unread, pinned, COUNT(*) FROM notifications WHERE user_address = $1
		GROUP BY user_address, repo_id, subject_type, reason, unread, pinned`, user.Hex()); err != nil {
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
	ix.notifyRead(user)
	return ix.NotificationByID(ctx, user, id)
}

// notifyRead wakes the badge streams after a change of user's read state
// (a new block wakes them through setHeight), and moves the read cache on
// for the user's notifications and counts: the change has been written, so
// no answer read from them before it is used again. Its callers write only
// those tables, and only user's rows of them.
func (ix *Index) notifyRead(user common.Address) {
	ix.rd.ChangedIn(readdb.UserScope(user.Hex()), "notifications", "notification_counts")
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
