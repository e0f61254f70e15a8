package index_test

import (
	"context"
	"database/sql"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
)

// TestIssueCountersFollowEveryWrite holds forge_issue_counts, which the
// schema's triggers keep, to a GROUP BY over forge_issues after each kind
// of write the projection and the private store make (a new issue, a close
// and a reopen through the projection's upsert, an edit that changes no
// counted column, a deleted repository), and holds the lists' totals,
// which now come from the counters, to a COUNT(*) of the same list.
func TestIssueCountersFollowEveryWrite(t *testing.T) {
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		defer st.Close()
		seedIssues(t, st, 240)
		ix := index.New(quiet, st, nil)
		exec := writer(t, st, ix, "forge_issues")
		// upsert writes issue number of repo in state as writeIssue does.
		upsert := func(repo, number int64, pull bool, state, title string) {
			t.Helper()
			exec(`INSERT INTO forge_issues (repo_id, number, is_pull, author, title, body, state, state_reason, comments,
				created_height, created_time_ns, updated_height, updated_time_ns)
				VALUES ($1, $2, $3, $4, $5, '', $6, '', 0, 1, 1, 1, 1)
				ON CONFLICT (repo_id, number) DO UPDATE SET title = excluded.title, state = excluded.state`,
				repo, number, pull, named.Hex(), title, state)
		}
		check := func(step string) {
			t.Helper()
			if got, want := counters(t, st, "SELECT repo_id, is_pull, state, issues FROM forge_issue_counts ORDER BY repo_id, is_pull, state"),
				counters(t, st, `SELECT repo_id, is_pull, state, COUNT(*) FROM forge_issues GROUP BY repo_id, is_pull, state
					ORDER BY repo_id, is_pull, state`); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: counters %v, want the rows' counts %v", step, got, want)
			}
			yes, no := true, false
			for _, kind := range []*bool{nil, &yes, &no} {
				for _, state := range []string{"", "open", "closed"} {
					f := index.IssueFilter{IsPull: kind, State: state}
					p := index.Page{Number: 2, Limit: 7} // a full page past the first: its total is not the page's
					_, counted, err := index.IssuesAt(ctx, ix, 1, f, p, index.PageSeek)
					if err != nil {
						t.Fatal(err)
					}
					_, rows, err := index.IssuesAt(ctx, ix, 1, f, p, index.PageSeekCounting)
					if err != nil {
						t.Fatal(err)
					}
					if counted != rows {
						t.Errorf("%s: total of %s %q from the counters is %d, COUNT(*) says %d", step, kindName(kind), state, counted, rows)
					}
				}
			}
		}
		check("seeded")
		upsert(1, 1000, false, "open", "new issue")
		upsert(1, 1001, true, "open", "new pull request")
		check("opened")
		upsert(1, 1000, false, "closed", "new issue")
		upsert(1, 1, false, "closed", "Issue 1") // open in the seed
		check("closed")
		upsert(1, 1000, false, "open", "new issue")
		upsert(1, 1001, true, "open", "renamed") // changes no counted column
		check("reopened and edited")
		exec(`DELETE FROM forge_issues WHERE repo_id = $1`, 2)
		check("repository 2 deleted")
		if got := counters(t, st, "SELECT repo_id, is_pull, state, issues FROM forge_issue_counts WHERE repo_id = 2"); len(got) != 0 {
			t.Errorf("a deleted repository keeps counters %v; a fresh projection would hold none", got)
		}
	})
}

// writer runs a statement that writes table in st and moves ix's read
// cache on, as the projection's transaction does after writing.
func writer(t *testing.T, st *store.Store, ix *index.Index, table string) func(q string, args ...any) {
	return func(q string, args ...any) {
		t.Helper()
		if _, err := st.DB().ExecContext(context.Background(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		index.Changed(ix, table)
	}
}

// counters reads q's rows, each as its columns' text joined by "/".
func counters(t *testing.T, st *store.Store, q string) []string {
	t.Helper()
	rows, err := st.DB().Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out []string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = v.String
		}
		out = append(out, strings.Join(parts, "/"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func kindName(pull *bool) string {
	switch {
	case pull == nil:
		return "issues and pull requests"
	case *pull:
		return "pull requests"
	}
	return "issues"
}

// TestCommentCountersFollowEveryWrite holds forge_comment_counts, which
// the schema's triggers keep, to a GROUP BY over forge_comments after each
// kind of write (new comments, a deletion by the forge, a deleted
// repository), and holds the thread's and the repository's totals, which
// come from the counters, to a COUNT(*) of the same list.
func TestCommentCountersFollowEveryWrite(t *testing.T) {
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, nil)
		db := st.DB()
		exec := writer(t, st, ix, "forge_comments")
		id := int64(0)
		comment := func(repo, number int64) {
			t.Helper()
			id++
			exec(`INSERT INTO forge_comments (id, repo_id, number, author, body, height, time_ns) VALUES ($1, $2, $3, $4, 'c', 1, $1)`,
				id, repo, number, named.Hex())
		}
		const thread = 30
		for range thread {
			comment(1, 1)
		}
		for range 5 {
			comment(1, 2)
			comment(2, 1)
		}
		check := func(step string) {
			t.Helper()
			if got, want := counters(t, st, "SELECT repo_id, number, comments FROM forge_comment_counts ORDER BY repo_id, number"),
				counters(t, st, `SELECT repo_id, number, COUNT(*) FROM forge_comments WHERE NOT deleted GROUP BY repo_id, number
					UNION ALL SELECT repo_id, 0, COUNT(*) FROM forge_comments WHERE NOT deleted GROUP BY repo_id ORDER BY 1, 2`); !slices.Equal(got, want) {
				t.Fatalf("%s: counters %v, want the rows' counts %v", step, got, want)
			}
			var rows int64
			if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM forge_comments WHERE repo_id = 1 AND number = 1 AND NOT deleted`).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			p := index.Page{Number: 2, Limit: 7} // a full page past the first: its total is not the page's
			if _, total, err := ix.Comments(ctx, 1, 1, p); err != nil || total != rows {
				t.Errorf("%s: the thread's total is %d, COUNT(*) says %d (%v)", step, total, rows, err)
			}
			if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM forge_comments WHERE repo_id = 1 AND NOT deleted`).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if _, total, err := ix.RepoComments(ctx, 1, index.CommentFilter{}, p); err != nil || total != rows {
				t.Errorf("%s: the repository's total is %d, COUNT(*) says %d (%v)", step, total, rows, err)
			}
		}
		check("written")
		comment(1, 1)
		check("one more")
		exec(`UPDATE forge_comments SET deleted = TRUE, body = '' WHERE id IN (3, 4)`)
		exec(`UPDATE forge_comments SET body = 'edited' WHERE id = 5`) // changes no counted column
		check("two deleted, one edited")
		exec(`DELETE FROM forge_comments WHERE repo_id = $1`, 2)
		check("repository 2 deleted")
		if got := counters(t, st, "SELECT repo_id, number, comments FROM forge_comment_counts WHERE repo_id = 2"); len(got) != 0 {
			t.Errorf("a deleted repository keeps counters %v; a fresh projection would hold none", got)
		}
	})
}
