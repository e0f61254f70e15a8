package index

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
	"github.com/dforge/dforge/internal/store"
)

// BenchmarkNotifyWatchers is `make bench-notify` (a): the projection of a
// comment on an issue whose repository has 1,000 watchers, the comment row
// and every watcher's notification, in one transaction as a block's
// projection writes it. Target: under 100 ms.
func BenchmarkNotifyWatchers(b *testing.B) {
	onEachBenchStore(b, benchNotifyWatchers)
}

func benchNotifyWatchers(b *testing.B, name string, st *store.Store) {
	ctx := context.Background()
	db := st.DB()
	owner := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	commenter := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	setup := forgeChange{height: 1, timeNS: 1, change: forge.Change{Action: "repo.create", Actor: owner, Height: 1,
		Repos: []forge.Repo{{ID: 1, Owner: owner, Name: "app", DefaultBranch: "main", CreatedHeight: 1}}}}
	issue := forgeChange{height: 2, timeNS: 2, change: forge.Change{Action: "issue.create", Actor: owner, Height: 2,
		Issue: &forge.Issue{Repo: 1, Number: 1, Author: owner, Title: "Crash", State: "open", CreatedHeight: 2, UpdatedHeight: 2}}}
	if err := inTx(ctx, db, func(tx *readdb.WriteTx) error { return writeForge(ctx, tx, []forgeChange{setup, issue}) }); err != nil {
		b.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
		INSERT INTO forge_watches (repo_id, user_address, height, time_ns) SELECT 1, 'watcher' || i, 1, 1 FROM s`); err != nil {
		b.Fatal(err)
	}
	next := 0 // comments so far: b.Run calls the body more than once
	b.Run(name, func(b *testing.B) { commentOnWatched(b, db, owner, commenter, &next) })
	var n int64
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM notifications WHERE unread = TRUE`).Scan(&n); err != nil || n != 1001 {
		b.Fatalf("notifications after the comments: %d (want 1,000 watchers and the author) %v", n, err)
	}
}

func commentOnWatched(b *testing.B, db *sql.DB, owner, commenter common.Address, next *int) {
	ctx := context.Background()
	var worst time.Duration
	b.ResetTimer()
	for range b.N {
		*next++
		i := *next
		id := uint64(i)
		// As the chain's event carries it: the comment and its issue.
		c := forgeChange{height: int64(3 + i), timeNS: int64(3 + i), change: forge.Change{Action: "issue.comment", Actor: commenter, Height: uint64(3 + i),
			Comment: &forge.Comment{ID: id, Repo: 1, Number: 1, Author: commenter, Body: "Same here."},
			Issue:   &forge.Issue{Repo: 1, Number: 1, Author: owner, Title: "Crash", State: "open", Comments: id, CreatedHeight: 2, UpdatedHeight: uint64(3 + i)}}}
		start := time.Now()
		if err := inTx(ctx, db, func(tx *readdb.WriteTx) error { return writeForge(ctx, tx, []forgeChange{c}) }); err != nil {
			b.Fatal(err)
		}
		worst = max(worst, time.Since(start))
	}
	b.StopTimer()
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}

func inTx(ctx context.Context, db *sql.DB, fn func(*readdb.WriteTx) error) error {
	raw, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	tx := readdb.NewWriteTx(raw)
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// BenchmarkNotificationPages is `make bench-pages`' notification list: a
// user's 100,000 threads by pages of 20, the first page and page 2,500,
// read alone (the threads before it skipped by OFFSET over the index) and
// read after page 2,499 is kept (from right after its last thread, as a
// client reading page after page does). The read cache is moved on before
// each timed read, and page 2,499 is read again after that.
func BenchmarkNotificationPages(b *testing.B) {
	onEachBenchStore(b, benchNotificationPages)
}

func benchNotificationPages(b *testing.B, name string, st *store.Store) {
	ctx := context.Background()
	ix := quietIndex(st)
	user := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	seedThreads(ctx, b, st, user, 0)
	f := NotificationFilter{User: user}
	for _, c := range []struct {
		name   string
		page   int
		before bool // the page before is kept
	}{
		{"page-1", 1, false},
		{"page-2500-alone", 2500, false},
		{"page-2500-after-2499", 2500, true},
	} {
		b.Run(name+"/"+c.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				ix.changed("notifications") // past the read cache: every read is the query
				if c.before {
					if _, _, err := ix.Notifications(ctx, f, Page{Number: c.page - 1, Limit: 20}); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				list, _, err := ix.Notifications(ctx, f, Page{Number: c.page, Limit: 20})
				if err != nil || len(list) != 20 {
					b.Fatalf("page %d: %d threads, %v", c.page, len(list), err)
				}
			}
		})
	}
}

// seedThreads gives user 100,000 threads, one updated each microsecond and
// every third unread: transfers when repos is 0, else issues spread evenly
// over repositories 1 to repos.
func seedThreads(ctx context.Context, b *testing.B, st *store.Store, user common.Address, repos int) {
	subject, reason := "Transfer", "transfer"
	if repos > 0 {
		subject, reason = "Issue", "subscribed"
	}
	if _, err := st.DB().ExecContext(ctx, `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 100000)
		INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor, comment_id,
			amount, unread, pinned, height, updated_ns)
		SELECT $1, $2 || ':' || i, CASE WHEN $3 = 0 THEN 0 ELSE 1 + i % $3 END, i, $2, $4, 'A thread', '', 0, 0,
			i % 3 = 0, FALSE, i / 10 + 1, i * 1000
		FROM s`, user.Hex(), subject, repos, reason); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkNotificationRepoPages is `make bench-pages`' repository filter
// of the notification list (Gitea's GET /repos/{o}/{r}/notifications): a
// user's 100,000 threads in 20 repositories, the first page and page 100
// of one repository's 5,000, with the index on the user's threads by
// repository (migration 00090) and, in the same run, without it as before.
// The read cache is moved on before each timed read. PostgreSQL's tables
// are vacuumed first, as autovacuum does on a node, so that its index-only
// scans need not visit the rows.
func BenchmarkNotificationRepoPages(b *testing.B) {
	onEachBenchStore(b, benchNotificationRepoPages)
}

func benchNotificationRepoPages(b *testing.B, name string, st *store.Store) {
	ctx := context.Background()
	ix := quietIndex(st)
	user := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	seedThreads(ctx, b, st, user, 20)
	vacuum := func() {
		if st.Dialect() == store.Postgres {
			if _, err := st.DB().ExecContext(ctx, `VACUUM ANALYZE notifications`); err != nil {
				b.Fatal(err)
			}
		}
	}
	vacuum()
	for _, index := range []string{"by-repo", "before"} {
		if index == "before" {
			if _, err := st.DB().ExecContext(ctx, `DROP INDEX notifications_repo`); err != nil {
				b.Fatal(err)
			}
			vacuum()
		}
		for _, page := range []int{1, 100} {
			b.Run(fmt.Sprintf("%s/%s/page-%d", name, index, page), func(b *testing.B) {
				for range b.N {
					b.StopTimer()
					ix.changed("notifications")
					b.StartTimer()
					list, total, err := ix.Notifications(ctx, NotificationFilter{User: user, Repo: 7}, Page{Number: page, Limit: 20})
					if err != nil || len(list) != 20 || total != 5000 {
						b.Fatalf("page %d of repository 7: %d threads of %d, %v", page, len(list), total, err)
					}
				}
			})
		}
	}
}

// BenchmarkNotificationsAmongUsers is `make bench-notify` (d): 500 users,
// each the author of an issue of one repository with one thread about it.
// Each round a block comments on one user's issue (notifying that user),
// then 20 other users read their first page and unread badge, as open
// notification pages and header bells do after every block. "per-user"
// is the read cache as it is (readdb.UserScope: the block drops only the
// notified user's answers); "whole-table" moves every user's on, as each
// write of notifications did before. Reads of SQL per round are reported.
func BenchmarkNotificationsAmongUsers(b *testing.B) {
	onEachBenchStore(b, benchNotificationsAmongUsers)
}

func benchNotificationsAmongUsers(b *testing.B, name string, st *store.Store) {
	const users, readers = 500, 20
	ctx := context.Background()
	ix := quietIndex(st)
	owner := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	user := func(i int) common.Address { return common.BigToAddress(big.NewInt(int64(0x1000 + i%users))) }
	setup := []forgeChange{{height: 1, timeNS: 1, change: forge.Change{Action: "repo.create", Actor: owner, Height: 1,
		Repos: []forge.Repo{{ID: 1, Owner: owner, Name: "app", DefaultBranch: "main", CreatedHeight: 1}}}}}
	for i := range users {
		setup = append(setup, forgeChange{height: 2, timeNS: 2, change: forge.Change{Action: "issue.create", Actor: user(i), Height: 2,
			Issue: &forge.Issue{Repo: 1, Number: uint64(i + 1), Author: user(i), Title: "Crash", State: "open", CreatedHeight: 2, UpdatedHeight: 2}}})
	}
	if err := ix.inTx(ctx, func(tx *readdb.WriteTx) error { return writeForge(ctx, tx, setup) }); err != nil {
		b.Fatal(err)
	}
	comments := 0
	comment := func(i int) {
		comments++
		c := forgeChange{height: int64(2 + comments), timeNS: int64(2 + comments), change: forge.Change{Action: "issue.comment", Actor: owner, Height: uint64(2 + comments),
			Comment: &forge.Comment{ID: uint64(comments), Repo: 1, Number: uint64(i%users + 1), Author: owner, Body: "Fixed?"},
			Issue:   &forge.Issue{Repo: 1, Number: uint64(i%users + 1), Author: user(i), Title: "Crash", State: "open", Comments: 1, CreatedHeight: 2, UpdatedHeight: uint64(2 + comments)}}}
		if err := ix.inTx(ctx, func(tx *readdb.WriteTx) error { return writeForge(ctx, tx, []forgeChange{c}) }); err != nil {
			b.Fatal(err)
		}
	}
	for i := range users {
		comment(i)
	}
	read := func(u common.Address) {
		list, _, err := ix.Notifications(ctx, NotificationFilter{User: u}, Page{Number: 1, Limit: 20})
		if err != nil || len(list) != 1 {
			b.Fatalf("%s's notifications: %d threads, %v", u.Hex(), len(list), err)
		}
		if _, err := ix.CountNotifications(ctx, NotificationFilter{User: u, Statuses: []string{"unread"}}); err != nil {
			b.Fatal(err)
		}
	}
	for _, whole := range []bool{false, true} {
		mode := map[bool]string{false: "per-user", true: "whole-table"}[whole]
		b.Run(name+"/"+mode, func(b *testing.B) {
			for i := range users {
				read(user(i)) // every reader's answers kept before the first round
			}
			reads := ix.rd.Reads()
			b.ResetTimer()
			for round := range b.N {
				b.StopTimer()
				comment(round * 7)
				if whole {
					ix.changed("notifications", "notification_counts")
				}
				b.StartTimer()
				for r := 1; r <= readers; r++ {
					read(user(round*7 + r))
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(ix.rd.Reads()-reads)/float64(b.N), "sql-reads/round")
		})
	}
}
