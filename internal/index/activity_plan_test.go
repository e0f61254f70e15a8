package index_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Creating an issue retitles its rows in the activity table. That UPDATE
// must find them by the issue's number through an index: read by the
// repository alone, it walked every activity row of the repository, and
// issue creation slowed as the repository's issues grew (issue 27:
// 124 issues/s over the first 3,300 of a bench-forge run, 71 over the
// last; 128 and 125 with the index, to 20,000).
func TestRetitlingAnIssuesActivityUsesAnIndex(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "index.db"))
	defer st.Close()
	// activityIssue's retitle (internal/index/activity.go).
	got := queryPlan(t, st.DB(), `UPDATE forge_activity SET title = $3 WHERE repo_id = $1 AND number = $2 AND title <> $3`, 1, 2, "t")
	if !strings.Contains(got, "forge_activity_number") {
		t.Fatalf("the retitle reads %q, want the index forge_activity_number", got)
	}
	t.Log("plan:", got)
}

// An issue list in Gitea's "recentupdate" order reads its page, and a deep
// page's first key, through an index in that order: sorting every open
// issue in a temporary B-tree took about 20 ms for page 1 of 7,500.
func TestRecentlyUpdatedIssuesAreReadInIndexOrder(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "index.db"))
	defer st.Close()
	// readdb.SeekPage's first key for Issues with Sort "recentupdate", for
	// one kind (the API's type=issues) and for both.
	for _, c := range []struct {
		where, index string
		args         []any
	}{
		{"i.repo_id = $1 AND i.is_pull = $2 AND i.state = $3", "forge_issues_updated", []any{1, false, "open", 3000}},
		{"i.repo_id = $1 AND i.state = $2", "forge_issues_state_updated", []any{1, "open", 3000}},
	} {
		got := queryPlan(t, st.DB(), `SELECT i.updated_time_ns, i.number FROM forge_issues i WHERE `+c.where+`
			ORDER BY i.updated_time_ns DESC, i.number DESC LIMIT 1 OFFSET $`+fmt.Sprint(len(c.args)), c.args...)
		if !strings.Contains(got, c.index) || strings.Contains(got, "TEMP B-TREE") {
			t.Fatalf("the page where %s reads %q, want the index %s and no sort", c.where, got, c.index)
		}
		t.Log("plan:", got)
	}
}

// queryPlan is SQLite's plan for q, its steps joined by " | ".
func queryPlan(t *testing.T, db *sql.DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, " | ")
}
