package index_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
)

// The notification counters keep each repository apart (migration 00091):
// through new threads, a mark of one, a mark of many (which PostgreSQL
// recounts at its end), a thread made unread again and a repository's
// threads deleted, they equal the threads' own counts, and the totals of
// one repository's list and of a public-only token's list match COUNT(*)
// and come from the counters.
func TestNotificationCountersByRepository(t *testing.T) {
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, nil)
		exec := writer(t, st, ix, "notifications")
		addRepos(exec, map[int64]bool{1: false, 2: false, 3: true})
		reader := common.HexToAddress("0xbee")
		thread := 0
		notify := func(repo int64, kind, reason string) {
			t.Helper()
			thread++
			exec(`INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor, comment_id,
				amount, unread, pinned, height, updated_ns) VALUES ($1, $2, $3, $4, $5, $6, 't', $7, 0, 0, TRUE, FALSE, 1, $4)`,
				reader.Hex(), fmt.Sprintf("issue:%d", thread), repo, thread, kind, reason, named.Hex())
		}
		for i := range 9 {
			notify(int64(i%3+1), []string{"Issue", "Pull"}[i%2], []string{"subscribed", "mention", "author"}[i%3])
		}
		notify(1, "Issue", "subscribed")
		count := func(where string) int64 {
			t.Helper()
			var n int64
			if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM notifications n JOIN forge_repos r ON r.id = n.repo_id
				WHERE n.user_address = $1 AND `+where, reader.Hex()).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		cases := []struct {
			what  string
			f     index.NotificationFilter
			where string
		}{
			{"repository 1", index.NotificationFilter{Repo: 1}, "n.repo_id = 1"},
			{"repository 3's unread", index.NotificationFilter{Repo: 3, Statuses: []string{"unread"}}, "n.repo_id = 3 AND n.unread = TRUE"},
			{"the public ones", index.NotificationFilter{PublicOnly: true}, "r.private = FALSE"},
			{"the public pulls", index.NotificationFilter{PublicOnly: true, SubjectTypes: []string{"Pull"}}, "r.private = FALSE AND n.subject_type = 'Pull'"},
			{"the private repository's, public only", index.NotificationFilter{PublicOnly: true, Repo: 3}, "r.private = FALSE AND n.repo_id = 3"},
		}
		check := func(step string) {
			t.Helper()
			const by = "user_address, repo_id, subject_type, reason, unread, pinned"
			if got, want := counters(t, st, "SELECT "+by+", threads FROM notification_counts WHERE threads <> 0 ORDER BY "+by),
				counters(t, st, "SELECT "+by+", COUNT(*) FROM notifications GROUP BY "+by+" ORDER BY "+by); !slices.Equal(got, want) {
				t.Fatalf("%s: counters %v, want the threads' counts %v", step, got, want)
			}
			for _, c := range cases {
				c.f.User = reader
				_, total, err := ix.Notifications(ctx, c.f, index.Page{Number: 2, Limit: 1}) // past the first page: its total is not the page's
				if err != nil || total != count(c.where) {
					t.Errorf("%s: %s: total %d, COUNT(*) says %d (%v)", step, c.what, total, count(c.where), err)
				}
			}
		}
		check("notified")
		list, _, err := ix.Notifications(ctx, index.NotificationFilter{User: reader, Repo: 2}, index.Page{Number: 1, Limit: 10})
		if err != nil || len(list) != 3 {
			t.Fatalf("repository 2's threads: %+v %v", list, err)
		}
		if _, err := ix.MarkNotification(ctx, reader, list[0].ID, "pinned"); err != nil {
			t.Fatal(err)
		}
		check("one thread pinned")
		if _, err := ix.MarkNotifications(ctx, index.NotificationFilter{User: reader, Repo: 1}, "read"); err != nil {
			t.Fatal(err)
		}
		check("a repository's threads marked read")
		notify(1, "Issue", "subscribed")
		exec(`UPDATE notifications SET unread = TRUE WHERE thread = 'issue:1'`)
		check("a thread made unread again")
		exec(`DELETE FROM notifications WHERE repo_id = 2`)
		check("a repository's threads deleted")

		// The totals are the counters' sums: a counter moved by hand moves
		// them.
		exec(`UPDATE notification_counts SET threads = threads + 100 WHERE repo_id = 1 AND subject_type = 'Issue' AND reason = 'subscribed' AND unread = TRUE`)
		for _, c := range []struct {
			what string
			f    index.NotificationFilter
			want int64
		}{
			{"repository 1", index.NotificationFilter{Repo: 1}, 100 + count("n.repo_id = 1")},
			{"the public ones", index.NotificationFilter{PublicOnly: true}, 100 + count("r.private = FALSE")},
			{"repository 3", index.NotificationFilter{Repo: 3}, count("n.repo_id = 3")},
		} {
			c.f.User = reader
			if n, err := ix.CountNotifications(ctx, c.f); err != nil || n != c.want {
				t.Errorf("%s: total %d (%v), not its counters' %d", c.what, n, err, c.want)
			}
		}
	})
}
