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
				var got []int64
				for page := 1; page <= len(want)/limit+2; page++ {
					list, total, err := ix.Notifications(ctx, c.f, index.Page{Number: page, Limit: limit})
					if err != nil || total != int64(len(want)) {
						t.Fatalf("%s, page %d of %d: total %d, COUNT(*) %d (%v)", c.what, page, limit, total, len(want), err)
					}
					for _, n := range list {
						got = append(got, n.ID)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s by pages of %d:\n%v\nORDER BY gives\n%v", c.what, limit, got, want)
				}
			}
		}
	})
}
