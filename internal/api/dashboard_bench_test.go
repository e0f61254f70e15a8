package api_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/forgetest"
)

// BenchmarkDashboard is `make bench-dashboard`: GET /user/dashboard for a
// user of a node with 500 repositories, 10,000 issues and pull requests,
// 30,000 commit statuses and 100,000 notifications of other users, under
// 64 concurrent connections; reports p50 and p99 (target p99 < 50 ms).
// The data is written straight into the projection's tables (thousands of
// chain transactions would take minutes and measure the chain instead).
func BenchmarkDashboard(b *testing.B) {
	for name, opts := range forgetest.Stores() {
		b.Run(name, func(b *testing.B) {
			n := forgetest.Start(b, opts...)
			alice, bob := n.NewUser(), n.NewUser()
			seedDashboard(b, n, alice.Address.Hex(), bob.Address.Hex())
			client := loadClient()
			// The first request also fills the read cache of the projection.
			underLoad(b, 50, func(int) (time.Duration, error) {
				return timedGet(client, n.URL+"/api/v1/user/dashboard", alice.Token)
			})
		})
	}
}

// seedDashboard writes the bench's node: bob owns repositories 1..450 and
// alice 451..500 (ids from 10^6, clear of the chain's), alice collaborates
// on 20 of bob's; of the 10,000 issues (one in four a pull request) alice
// is assigned 33, asked to review 25 and opened 20; every pull request's
// head has three statuses; 100,000 notifications belong to 1,000 other
// accounts and 300 to alice.
func seedDashboard(b *testing.B, n *forgetest.Node, alice, bob string) {
	b.Helper()
	const seq = `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < %d) `
	stmts := []string{
		fmt.Sprintf(seq, 500) + `INSERT INTO forge_repos (id, owner, name, lower_name, description, default_branch, protected_branches, private,
			fork_of, stars, forks, watchers, open_issues, open_pulls, created_height, created_time_ns, updated_height, updated_time_ns)
			SELECT 1000000 + i, CASE WHEN i > 450 THEN $1 ELSE $2 END, 'bench' || i, 'bench' || i, 'Bench repository', 'main', '[]', FALSE,
			NULL, 0, 0, 0, 20, 5, i, i * 1000, i, i * 1000 FROM s`,
		fmt.Sprintf(seq, 20) + `INSERT INTO forge_collaborators (repo_id, user_address, permission)
			SELECT 1000000 + i * 20, $1, 'write' FROM s WHERE $2 <> ''`,
		fmt.Sprintf(seq, 10000) + `INSERT INTO forge_issues (repo_id, number, is_pull, author, title, body, state, state_reason, comments,
			created_height, created_time_ns, updated_height, updated_time_ns)
			SELECT 1000001 + i % 450, i, i % 4 = 0, CASE WHEN i % 500 = 0 THEN $1 ELSE $2 END, 'Bench issue ' || i, 'Body of ' || i,
			CASE WHEN i % 7 = 0 THEN 'closed' ELSE 'open' END, '', 0, i, i * 1000, i, i * 1000 FROM s`,
		fmt.Sprintf(seq, 2500) + `INSERT INTO forge_pulls (repo_id, number, head_repo_id, head_branch, base_branch, head_sha, base_sha,
			merged, merge_sha, merge_style, merged_by)
			SELECT 1000001 + (i * 4) % 450, i * 4, 1000001 + (i * 4) % 450, 'b' || i, 'main', 'head' || i, 'base' || i, FALSE, '', '', ''
			FROM s WHERE $1 <> $2`,
		fmt.Sprintf(seq, 10000) + `INSERT INTO forge_issue_assignees (repo_id, number, assignee)
			SELECT 1000001 + i % 450, i, CASE WHEN i % 300 = 0 THEN $1 ELSE $2 END FROM s WHERE i % 2 = 0 OR i % 300 = 0`,
		fmt.Sprintf(seq, 2500) + `INSERT INTO forge_review_requests (review_id, repo_id, number, reviewer, height, time_ns)
			SELECT i, 1000001 + (i * 4) % 450, i * 4, CASE WHEN i % 100 = 0 THEN $1 ELSE $2 END, i, i * 1000 FROM s`,
		fmt.Sprintf(seq, 30000) + `INSERT INTO forge_commit_statuses (id, repo_id, sha, context, state, description, target_url, creator, height, time_ns)
			SELECT i, 1000001 + (((i - 1) / 3 + 1) * 4) % 450, 'head' || ((i - 1) / 3 + 1) % 2500, 'ci' || i % 3,
			CASE WHEN i % 11 = 0 THEN 'failure' ELSE 'success' END, '', '', $2, i, i * 1000 FROM s WHERE $1 <> ''`,
		fmt.Sprintf(seq, 100000) + `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
			comment_id, amount, unread, pinned, height, updated_ns)
			SELECT '0x' || (1000 + i % 1000), 'bench:' || i, 1000001 + i % 450, i % 10000, 'Issue',
			'subscribed', 'Bench issue', $2, 0, 0, TRUE, FALSE, i, i * 1000 FROM s WHERE $1 <> ''`,
		fmt.Sprintf(seq, 300) + `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
			comment_id, amount, unread, pinned, height, updated_ns)
			SELECT $1, 'issue:' || (1000001 + (i * 31) % 450) || ':' || (i * 31), 1000001 + (i * 31) % 450, i * 31, 'Issue',
			'assign', 'Bench issue ' || (i * 31), $2, 0, 0, i % 2 = 0, FALSE, i, i * 1000 FROM s`,
	}
	ctx := context.Background()
	for _, q := range stmts {
		if _, err := n.Store.DB().ExecContext(ctx, q, alice, bob); err != nil {
			b.Fatalf("seed: %v\n%s", err, q)
		}
	}
	// Each repository's git directory, as a hosted repository has one (a
	// missing one would make every read look for it under other owners).
	for i := 1; i <= 500; i++ {
		owner := bob
		if i > 450 {
			owner = alice
		}
		dir, err := n.GitStore.Path(strings.ToLower(owner), strconv.Itoa(1000000+i))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "refs", "heads"), 0o755); err != nil {
			b.Fatal(err)
		}
		for name, body := range map[string]string{"HEAD": "ref: refs/heads/main\n", "refs/heads/main": strings.Repeat("1", 40) + "\n"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	// PostgreSQL plans by its statistics: gather them, as autovacuum would.
	if _, err := n.Store.DB().ExecContext(ctx, "ANALYZE"); err != nil {
		b.Fatalf("analyze: %v", err)
	}
}
