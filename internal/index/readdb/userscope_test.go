package readdb

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// Two accounts whose user scopes fall in different buckets.
const (
	userA = "0x00000000000000000000000000000000000000Aa"
	userB = "0x00000000000000000000000000000000000000Bb"
)

// userFixture is cacheFixture with a notification thread for each of
// userA and userB.
type userFixture struct {
	cacheFixture
	threads int
}

func newUserFixture(t *testing.T) *userFixture {
	t.Helper()
	if UserScope(userA) == UserScope(userB) {
		t.Fatal("the two accounts' scopes share a bucket: pick other addresses")
	}
	if UserScope(strings.ToLower(userA)) != UserScope(userA) {
		t.Fatal("UserScope differs with the address's case")
	}
	f := &userFixture{cacheFixture: newCacheFixture(t)}
	f.notify(t, context.Background(), userA)
	f.notify(t, context.Background(), userB)
	return f
}

// notify writes a new thread for each user in one statement through
// ExecForUsers, as the projection does; ctx's scope, if any, is the
// caller's (an issue's, say).
func (f *userFixture) notify(t *testing.T, ctx context.Context, users ...string) {
	t.Helper()
	var values []string
	for _, u := range users {
		f.threads++
		values = append(values, fmt.Sprintf(`('%s', 'thread:%d', 0, 0, 'Issue', 'mention', 't', 'a', 0, 0, TRUE, FALSE, 1, %d)`, u, f.threads, f.threads))
	}
	f.inTx(t, ctx, func(tx *WriteTx) bool {
		n, err := tx.ExecForUsers(ctx, `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
			comment_id, amount, unread, pinned, height, updated_ns) VALUES `+strings.Join(values, ", ")+` RETURNING user_address`)
		if err != nil || n != int64(len(users)) {
			t.Fatalf("notify %v: %d rows, %v", users, n, err)
		}
		return true
	})
}

// threadsOf is the cached number of user's unread threads (from the
// counters the table's triggers keep) and b_items' n, read in user's scope;
// reads counts the reads that reach SQL.
func (f *userFixture) threadsOf(t *testing.T, user string, reads *int) (int64, int64) {
	t.Helper()
	ctx := InScope(context.Background(), UserScope(user))
	v, err := Remember(ctx, f.db, Key("threads", "", user), func(ctx context.Context) ([2]int64, error) {
		*reads++
		var threads, b int64
		if err := f.db.QueryRow(ctx, `SELECT COALESCE(SUM(threads), 0) FROM notification_counts WHERE user_address = $1 AND unread`, user).Scan(&threads); err != nil {
			return [2]int64{}, err
		}
		err := f.db.QueryRow(ctx, `SELECT n FROM b_items WHERE id = 1`).Scan(&b)
		return [2]int64{threads, b}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v[0], v[1]
}

// A new thread for one user drops that user's answers only, whatever scope
// the statement ran in; a change of read state said for one user
// (ChangedIn) likewise.
func TestAUserScopedWriteMovesOnlyThoseUsers(t *testing.T) {
	f := newUserFixture(t)
	var a, b int
	f.threadsOf(t, userA, &a)
	f.threadsOf(t, userB, &b)

	// The scope of the caller is not the users'.
	f.notify(t, InScope(context.Background(), NewScope(7, 1)), userB)
	if got, _ := f.threadsOf(t, userA, &a); got != 1 || a != 1 {
		t.Fatalf("A after a thread for B: %d from %d reads of SQL, want 1 from the cache", got, a)
	}
	if got, _ := f.threadsOf(t, userB, &b); got != 2 || b != 2 {
		t.Fatalf("B after a thread for B: %d from %d reads of SQL, want 2 read afresh", got, b)
	}

	f.notify(t, context.Background(), userA, userB)
	if got, _ := f.threadsOf(t, userA, &a); got != 2 || a != 2 {
		t.Fatalf("A after a statement that wrote both: %d from %d reads of SQL, want 2 read afresh", got, a)
	}
	if got, _ := f.threadsOf(t, userB, &b); got != 3 || b != 3 {
		t.Fatalf("B after a statement that wrote both: %d from %d reads of SQL, want 3 read afresh", got, b)
	}

	if _, err := f.raw.Exec(`UPDATE notifications SET unread = FALSE WHERE user_address = $1`, userA); err != nil {
		t.Fatal(err)
	}
	f.db.ChangedIn(UserScope(userA), "notifications", "notification_counts")
	if got, _ := f.threadsOf(t, userB, &b); got != 3 || b != 3 {
		t.Fatalf("B after A's threads were marked read: %d from %d reads of SQL, want 3 from the cache", got, b)
	}
	if got, _ := f.threadsOf(t, userA, &a); got != 0 || a != 3 {
		t.Fatalf("A after A's threads were marked read: %d from %d reads of SQL, want 0 read afresh", got, a)
	}
}

// A user's scope covers only the users' tables: what a read in it reads of
// any other table depends on that whole table, so a write there in an
// issue's scope drops it; and a write of the users' tables that says no
// user (the reset's delete) drops every user's answers.
func TestAUserScopeCoversOnlyTheUsersTables(t *testing.T) {
	f := newUserFixture(t)
	var a, b int
	f.threadsOf(t, userA, &a)
	f.threadsOf(t, userB, &b)

	f.writeIn(t, InScope(context.Background(), NewScope(7, 1)), `UPDATE b_items SET n = n + 1 WHERE id = 1`)
	if _, got := f.threadsOf(t, userA, &a); got != 1 || a != 2 {
		t.Fatalf("A after a scoped write of b_items: b = %d from %d reads of SQL, want 1 read afresh", got, a)
	}

	f.writeIn(t, InScope(context.Background(), NewScope(7, 1)), `UPDATE notifications SET title = 'x' WHERE user_address = '`+userB+`'`)
	f.threadsOf(t, userA, &a)
	f.threadsOf(t, userB, &b)
	if a != 3 || b != 2 {
		t.Fatalf("after a write of the threads in an issue's scope: A read %d and B %d times, want both read afresh (3, 2)", a, b)
	}
	f.write(t, `DELETE FROM notifications`)
	if got, _ := f.threadsOf(t, userA, &a); got != 0 || a != 4 {
		t.Fatalf("A after every thread was deleted: %d from %d reads of SQL, want 0 read afresh", got, a)
	}
}

// ExecForUsers refuses what it cannot note per user: a statement of
// another table, or one that does not return the accounts it wrote.
func TestExecForUsersRefusesWhatItCannotNote(t *testing.T) {
	f := newUserFixture(t)
	raw, err := f.raw.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Rollback()
	tx := f.db.WriteTx(raw)
	for _, q := range []string{
		`UPDATE b_items SET n = 2 RETURNING id`,
		`UPDATE notifications SET unread = FALSE`,
	} {
		if _, err := tx.ExecForUsers(context.Background(), q); err == nil {
			t.Errorf("ExecForUsers(%q) ran, want it refused", q)
		}
	}
	var unread int
	if err := raw.QueryRow(`SELECT COUNT(*) FROM notifications WHERE unread`).Scan(&unread); err != nil || unread != 2 {
		t.Fatalf("unread threads after the refusals: %d (%v), want 2", unread, err)
	}
}
