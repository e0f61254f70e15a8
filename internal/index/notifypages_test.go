package index_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
)

// TestNotificationPagesFollowTheOrder: every page of a user's threads
// holds the threads the whole order gives at its place, ties in time
// included, and every total is COUNT(*)'s: for filters the counters
// answer and for those counted.
func TestNotificationPagesFollowTheOrder(t *testing.T) {
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, nil)
		exec := writer(t, st, ix, "notifications")
		bob, other := common.HexToAddress("0xb0b"), common.HexToAddress("0x0de")
		for i := range 40 {
			for _, user := range []common.Address{bob, other} {
				// Three threads share each time, so the id breaks ties.
				exec(`INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor, comment_id,
					amount, unread, pinned, height, updated_ns) VALUES ($1, $2, $3, $4, 'Issue', $5, $6, '', 0, 0, $7, $8, 1, $9)`,
					user.Hex(), fmt.Sprintf("issue:%d", i), 1+i%2, i, []string{"mention", "subscribed"}[i%2], fmt.Sprintf("thread %d", i),
					i%3 != 0, i%7 == 0, 1000+i/3)
			}
		}
		ids := func(where string) []int64 {
			t.Helper()
			rows, err := st.DB().QueryContext(ctx, `SELECT id FROM notifications n WHERE user_address = '`+bob.Hex()+`' AND `+where+` ORDER BY updated_ns DESC, id DESC`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []int64
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					t.Fatal(err)
				}
				out = append(out, id)
			}
			return out
		}
		for _, c := range []struct {
			what  string
			f     index.NotificationFilter
			where string
		}{
			{"all", index.NotificationFilter{User: bob}, "TRUE"},
			{"unread (counters)", index.NotificationFilter{User: bob, Statuses: []string{"unread"}}, "unread = TRUE"},
			{"read or pinned (counters)", index.NotificationFilter{User: bob, Statuses: []string{"read", "pinned"}}, "(unread = FALSE OR pinned = TRUE)"},
			{"one repository (counted)", index.NotificationFilter{User: bob, Repo: 2}, "repo_id = 2"},
			{"participating, since a time (counted)", index.NotificationFilter{User: bob, Participating: true, SinceNS: 1003}, "reason <> 'subscribed' AND updated_ns >= 1003"},
		} {
			want := ids(c.where)
			for _, limit := range []int{1, 3, 7} {
				// Page after page, each starts where the one before
				// ended (it is kept); each page alone, it skips by OFFSET.
				for _, cold := range []bool{false, true} {
					var got []int64
					for page := 1; page <= len(want)/limit+2; page++ {
						p := index.Page{Number: page, Limit: limit}
						if cold {
							index.Changed(ix, "notifications")
						}
						keyed := index.NotificationPageKeyed(ctx, ix, c.f, p)
						if keyed != (!cold && page > 1 && page-1 <= len(want)/limit) {
							t.Fatalf("%s, page %d of %d (cold %t): read after the page before: %t", c.what, page, limit, cold, keyed)
						}
						list, total, err := ix.Notifications(ctx, c.f, p)
						if err != nil || total != int64(len(want)) {
							t.Fatalf("%s, page %d of %d: total %d, COUNT(*) %d (%v)", c.what, page, limit, total, len(want), err)
						}
						for _, n := range list {
							got = append(got, n.ID)
						}
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s by pages of %d (cold %t):\n%v\nORDER BY gives\n%v", c.what, limit, cold, got, want)
					}
				}
			}
		}

		// A new thread moves every page on by one: a page read after it
		// does not start after the page before's last thread as it was.
		all := index.NotificationFilter{User: bob}
		if _, _, err := ix.Notifications(ctx, all, index.Page{Number: 1, Limit: 3}); err != nil {
			t.Fatal(err)
		}
		exec(`INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor, comment_id,
			amount, unread, pinned, height, updated_ns) VALUES ($1, 'issue:new', 1, 99, 'Issue', 'mention', 'new', '', 0, 0, TRUE, FALSE, 2, 5000)`, bob.Hex())
		p2 := index.Page{Number: 2, Limit: 3}
		if index.NotificationPageKeyed(ctx, ix, all, p2) {
			t.Fatal("page 2 would start after page 1 as it was before the new thread")
		}
		list, _, err := ix.Notifications(ctx, all, p2)
		if want := ids("TRUE")[3:6]; err != nil || len(list) != 3 || list[0].ID != want[0] || list[2].ID != want[2] {
			t.Fatalf("page 2 after a new thread: %+v (%v), want the ids %v", list, err, want)
		}
	})
}
