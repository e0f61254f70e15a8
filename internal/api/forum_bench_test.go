package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/store"
)

// BenchmarkForumTopics is half of `make bench-forum`: a forum of 100,000
// topics (20 of them pinned) in five categories, and 64 concurrent
// connections asking for the lists people open: the first page of all
// topics, each category's first page, the category counts, page 2, and a
// title search; reports p50 and p99 (target p99 < 50 ms). The rows are
// written straight into the projection's tables, as bench-dashboard does.
func BenchmarkForumTopics(b *testing.B) {
	paths := []string{"/api/v1/forum/topics", "/api/v1/forum/topics?category=help", "/api/v1/forum/topics?category=general",
		"/api/v1/forum/topics?category=showcase", "/api/v1/forum/topics?category=development", "/api/v1/forum/topics?category=announcements",
		"/api/v1/forum/categories", "/api/v1/forum/topics?page=2", "/api/v1/forum/topics?q=topic%2099"}
	benchForum(b, paths, "forum_topics")
}

// BenchmarkForumPosts is the other half: a topic with 1,000 replies, its
// first page of replies (rendered Markdown included) under 64 concurrent
// connections; p50 and p99.
func BenchmarkForumPosts(b *testing.B) {
	benchForum(b, []string{"/api/v1/forum/topics/1/posts", "/api/v1/forum/topics/1"}, "forum_posts")
}

func benchForum(b *testing.B, paths []string, explain string) {
	for name, opts := range forgetest.Stores() {
		b.Run(name, func(b *testing.B) {
			n := forgetest.Start(b, opts...)
			seedForum(b, n)
			logForumPlans(b, n, explain)
			client := loadClient()
			underLoad(b, 2*len(paths), func(i int) (time.Duration, error) {
				return timedGet(client, n.URL+paths[(i+1)%len(paths)], "")
			})
		})
	}
}

// seedForum writes 100,000 topics (ids from 10^6 up, clear of the chain's;
// every 5,000th pinned; 1,000 authors) and 1,000 replies to topic 1.
func seedForum(b *testing.B, n *forgetest.Node) {
	b.Helper()
	const seq = `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < %d) `
	stmts := []string{
		fmt.Sprintf(seq, 100000) + `INSERT INTO forum_topics (id, category, title, lower_title, body, author, pinned, locked,
			answer_post_id, reply_count, revisions, created_height, created_time_ns, updated_height, updated_time_ns,
			last_post_height, last_post_time_ns)
			SELECT CASE WHEN i = 1 THEN 1 ELSE 1000000 + i END,
			CASE i % 5 WHEN 0 THEN 'general' WHEN 1 THEN 'help' WHEN 2 THEN 'showcase' WHEN 3 THEN 'development' ELSE 'announcements' END,
			'Bench topic ' || i, 'bench topic ' || i, 'Body of topic ' || i, '0x' || (1000 + i % 1000), i % 5000 = 0, FALSE,
			0, CASE WHEN i = 1 THEN 1000 ELSE i % 30 END, 0, i, i * 1000, i, i * 1000, i + (i * 7919) % 1000, (i + (i * 7919) % 1000) * 1000 FROM s`,
		fmt.Sprintf(seq, 1000) + `INSERT INTO forum_posts (id, topic_id, author, body, quote_id, revisions, created_height, created_time_ns,
			updated_height, updated_time_ns)
			SELECT i, 1, '0x' || (2000 + i % 50), 'A **reply**, number ' || i || E'\n\n> quoted text\n\n` + "`code`" + `', 0, 0, i, i * 1000, i, i * 1000 FROM s`,
	}
	ctx := context.Background()
	for _, q := range stmts {
		if n.Store.Dialect() == store.SQLite {
			q = strings.ReplaceAll(q, `E'\n\n> quoted text\n\n`, `char(10) || char(10) || '> quoted text' || char(10) || char(10) || '`)
		}
		if _, err := n.Store.DB().ExecContext(ctx, q); err != nil {
			b.Fatalf("seed: %v\n%s", err, q)
		}
	}
	if _, err := n.Store.DB().ExecContext(ctx, "ANALYZE"); err != nil {
		b.Fatalf("analyze: %v", err)
	}
}

// logForumPlans logs how the database reads the bench's lists, to show
// they walk an index (EXPLAIN), not a sort of every row.
func logForumPlans(b *testing.B, n *forgetest.Node, table string) {
	b.Helper()
	queries := map[string]string{
		"forum_topics": `SELECT t.id FROM forum_topics t WHERE t.category = 'help' ORDER BY t.pinned DESC, t.last_post_height DESC, t.id DESC LIMIT 20`,
		"forum_posts":  `SELECT p.id FROM forum_posts p WHERE p.topic_id = 1 ORDER BY p.id LIMIT 20`,
	}
	explain := "EXPLAIN "
	if n.Store.Dialect() == store.SQLite {
		explain = "EXPLAIN QUERY PLAN "
	}
	rows, err := n.Store.DB().QueryContext(context.Background(), explain+queries[table])
	if err != nil {
		b.Fatalf("explain: %v", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var plan []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatal(err)
		}
		plan = append(plan, fmt.Sprint(vals[len(vals)-1]))
	}
	b.Logf("plan of %s: %s", table, strings.Join(plan, " | "))
}
