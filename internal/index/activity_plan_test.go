package index_test

import (
	"context"
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
	q := `EXPLAIN QUERY PLAN UPDATE forge_activity SET title = $3 WHERE repo_id = $1 AND number = $2 AND title <> $3`
	rows, err := st.DB().QueryContext(context.Background(), q, 1, 2, "t")
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
	got := strings.Join(plan, " | ")
	if !strings.Contains(got, "forge_activity_number") {
		t.Fatalf("the retitle reads %q, want the index forge_activity_number", got)
	}
	t.Log("plan:", got)
}
