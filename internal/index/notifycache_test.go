package index_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/readdb"
)

// A user's notifications and badge are kept in the read cache per user
// (readdb.UserScope): a block that notifies someone else, or another
// user's marking read, leaves them cached; one that notifies the user, a
// change of their read state, or a change to an issue their list shows is
// read afresh.
func TestNotificationAnswersMoveOnPerUser(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		alice, bob, carol := newWallet().addr, newWallet().addr, newWallet().addr
		for readdb.UserScope(bob.Hex()) == readdb.UserScope(carol.Hex()) {
			carol = newWallet().addr
		}
		ix, act := actingIndex(t, dsn)
		act(alice, "repo.create", map[string]any{"name": "x"})
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "bob's"})
		act(carol, "issue.create", map[string]any{"repo": 1, "title": "carol's"})
		act(alice, "issue.comment", map[string]any{"repo": 1, "number": 2, "body": "seen"})

		list := func(user common.Address) ([]index.Notification, int64) {
			t.Helper()
			before := index.Reads(ix)
			got, total, err := ix.Notifications(ctx, index.NotificationFilter{User: user}, index.Page{Number: 1, Limit: 20})
			if err != nil || int64(len(got)) != total {
				t.Fatalf("%s's notifications: %+v (total %d), %v", user.Hex(), got, total, err)
			}
			return got, index.Reads(ix) - before
		}
		unread := func(user common.Address) (int64, int64) {
			t.Helper()
			before := index.Reads(ix)
			n, err := ix.CountNotifications(ctx, index.NotificationFilter{User: user, Statuses: []string{"unread"}})
			if err != nil {
				t.Fatal(err)
			}
			return n, index.Reads(ix) - before
		}
		// A read that overlaps a block's projection is not kept: read
		// until the answers come from the cache.
		for try := 0; ; try++ {
			_, a := list(bob)
			_, b := list(carol)
			_, c := unread(carol)
			if a+b+c == 0 {
				break
			}
			if try == 20 {
				t.Fatal("bob's and carol's answers were never kept")
			}
		}

		act(alice, "issue.comment", map[string]any{"repo": 1, "number": 1, "body": "thanks"})
		if got, reads := list(carol); reads != 0 || len(got) != 1 {
			t.Fatalf("carol's list after bob was notified: %d threads from %d reads of SQL, want 1 from the cache", len(got), reads)
		}
		if n, reads := unread(carol); reads != 0 || n != 1 {
			t.Fatalf("carol's badge after bob was notified: %d from %d reads of SQL, want 1 from the cache", n, reads)
		}
		got, reads := list(bob)
		if reads == 0 || len(got) != 1 || got[0].Number != 1 || !got[0].Unread {
			t.Fatalf("bob's list after he was notified: %+v from %d reads of SQL, want #1 read afresh", got, reads)
		}

		if _, err := ix.MarkNotifications(ctx, index.NotificationFilter{User: bob}, "read"); err != nil {
			t.Fatal(err)
		}
		if _, reads := list(carol); reads != 0 {
			t.Fatalf("carol's list after bob marked his read: %d reads of SQL, want the cached answer", reads)
		}
		if got, reads := list(bob); reads == 0 || got[0].Unread {
			t.Fatalf("bob's list after he marked it read: %+v from %d reads of SQL, want it read afresh", got, reads)
		}

		// Carol closing and reopening #2 notifies no one she would hear of
		// (her closing earns her a reward's thread; reopening nothing), but
		// changes the issue her thread shows.
		thread := func(got []index.Notification) index.Notification {
			t.Helper()
			for _, n := range got {
				if n.Repo == 1 && n.Number == 2 {
					return n
				}
			}
			t.Fatalf("carol's list has no thread of #2: %+v", got)
			return index.Notification{}
		}
		act(carol, "issue.close", map[string]any{"repo": 1, "number": 2, "reason": "completed"})
		if got, _ := list(carol); thread(got).State != "closed" {
			t.Fatalf("carol's thread after #2 was closed: %+v, want it closed", thread(got))
		}
		act(carol, "issue.reopen", map[string]any{"repo": 1, "number": 2})
		if got, reads := list(carol); reads == 0 || thread(got).State != "open" {
			t.Fatalf("carol's thread after #2 was reopened: %+v from %d reads of SQL, want it open, read afresh", thread(got), reads)
		}
	})
}
