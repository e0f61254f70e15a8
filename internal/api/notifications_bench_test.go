package api_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/forgetest"
)

// BenchmarkNotifyList is `make bench-notify` (b): a page of the
// notification list for a user with 100,000 notifications: each of 50
// pages' first read, then 64 concurrent connections (p50, and p99 with a
// target of 50 ms), then the pages read again on one connection. The
// threads are transfers (no repository) or issues of 20 repositories,
// whose threads each carry their repository.
func BenchmarkNotifyList(b *testing.B) {
	for name, opts := range forgetest.Stores() {
		for _, subject := range []string{"transfers", "issues"} {
			b.Run(name+"/"+subject, func(b *testing.B) {
				n := forgetest.Start(b, opts...)
				alice := n.NewUser()
				seedNotifications(b, n, alice, subject == "issues")
				benchNotifyList(b, n, alice)
			})
		}
	}
}

// seedNotifications gives u 100,000 notifications: transfers, or with
// issues threads of issues in 20 repositories of theirs, each with a
// README.
func seedNotifications(b *testing.B, n *forgetest.Node, u *forgetest.User, issues bool) {
	repos := []int64{0}
	subject, reason := "Transfer", "transfer"
	if issues {
		repos, subject, reason = nil, "Issue", "subscribed"
		for i := range 20 {
			var r struct{ ID int64 }
			n.JSON("POST", "/api/v1/user/repos", u, map[string]any{"name": fmt.Sprintf("r%d", i), "description": "a repository", "auto_init": true}, http.StatusCreated, &r)
			repos = append(repos, r.ID)
		}
	}
	if issues {
		// Long after their last push, as almost every repository is: a
		// branch file changed within gitstore's settleAfter is listed
		// again on every read.
		time.Sleep(2500 * time.Millisecond)
	}
	ctx := context.Background()
	for i, repo := range repos {
		if _, err := n.Store.DB().ExecContext(ctx, `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < $5)
			INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor, comment_id, amount,
			unread, pinned, height, updated_ns) SELECT $1, 'n:' || CAST($2 AS BIGINT) || ':' || i, CAST($2 AS BIGINT), i, $3, $4, 'bench ' || i, $1, 0, i,
			i % 3 = 0, FALSE, i, (i * $6 + $7) * 1000 FROM s`,
			u.Address.Hex(), repo, subject, reason, 100000/len(repos), len(repos), i); err != nil {
			b.Fatal(err)
		}
	}
}

func benchNotifyList(b *testing.B, n *forgetest.Node, alice *forgetest.User) {
	client := loadClient()
	get := func(i int) (time.Duration, error) {
		return timedGet(client, fmt.Sprintf("%s/api/v1/notifications?page=%d&limit=20", n.URL, 1+i%50), alice.Token)
	}
	underLoad(b, 50, get)
	readAgain(b, 150, get)
}

// BenchmarkNotifyBadge is `make bench-notify` (c): from sending a comment
// to the commented issue's author's badge stream carrying the new count.
// It covers the whole path: the transaction, its block, the projection and
// the server-sent event (target < 1 s).
func BenchmarkNotifyBadge(b *testing.B) {
	n := forgetest.Start(b)
	alice, bob := n.NewUser(), n.NewUser()
	base := "/api/v1/repos/" + alice.Name() + "/app"
	call := func(u *forgetest.User, method, path string, body any, want int) {
		if res := n.Call(method, path, u, body); res.Status != want {
			b.Fatalf("%s %s: %d %s", method, path, res.Status, res.Body)
		}
	}
	call(alice, "POST", "/api/v1/user/repos", map[string]any{"name": "app"}, http.StatusCreated)
	call(alice, "POST", base+"/issues", map[string]any{"title": "Live"}, http.StatusCreated)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", n.URL+"/api/v1/notifications/stream", nil)
	req.Header.Set("Authorization", "token "+alice.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	events := bufio.NewScanner(res.Body)
	next := func() string {
		for events.Scan() {
			if line := events.Text(); strings.HasPrefix(line, "data: ") {
				return line
			}
		}
		b.Fatalf("the stream ended: %v", events.Err())
		return ""
	}
	next() // the count at the start
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		call(bob, "POST", base+"/issues/1/comments", map[string]any{"body": "ping"}, http.StatusCreated)
		next()
		lat = append(lat, time.Since(start))
		b.StopTimer()
		call(alice, "PUT", "/api/v1/notifications", nil, http.StatusResetContent)
		next() // back to 0
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
}
