package index_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/dforge/dforge/internal/index"
)

// A deep page of the newest or oldest issues jumps over whole blocks of
// 1,024 issue numbers by their counters (migration 00088) and seeks
// inside one: every page, for every kind and state and both orders, holds
// what OFFSET gives, with the same total, in a repository of 2,600 issues
// (three blocks), also after issues close across the blocks.
func TestDeepIssuePagesJumpByBlocks(t *testing.T) {
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		defer st.Close()
		seedIssues(t, st, 2600)
		ix := index.New(quiet, st, nil)
		exec := writer(t, st, ix, "forge_issues")
		reference := func(f index.IssueFilter, p index.Page) ([]uint64, int64) {
			t.Helper()
			where, args := "repo_id = 1", []any{}
			if f.IsPull != nil {
				args = append(args, *f.IsPull)
				where += fmt.Sprintf(" AND is_pull = $%d", len(args))
			}
			if f.State != "" {
				args = append(args, f.State)
				where += fmt.Sprintf(" AND state = $%d", len(args))
			}
			dir := "DESC"
			if f.Sort == "oldest" {
				dir = "ASC"
			}
			var total int64
			if err := st.DB().QueryRowContext(ctx, "SELECT COUNT(*) FROM forge_issues WHERE "+where, args...).Scan(&total); err != nil {
				t.Fatal(err)
			}
			rows, err := st.DB().QueryContext(ctx, fmt.Sprintf("SELECT number FROM forge_issues WHERE %s ORDER BY number %s LIMIT %d OFFSET %d",
				where, dir, p.Limit, (p.Number-1)*p.Limit), args...)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var numbers []uint64
			for rows.Next() {
				var n uint64
				if err := rows.Scan(&n); err != nil {
					t.Fatal(err)
				}
				numbers = append(numbers, n)
			}
			return numbers, total
		}
		check := func(step string) {
			t.Helper()
			yes, no := true, false
			for _, kind := range []*bool{nil, &yes, &no} {
				for _, state := range []string{"", "open", "closed"} {
					for _, sort := range []string{"newest", "oldest"} {
						f := index.IssueFilter{IsPull: kind, State: state, Sort: sort}
						for _, p := range []index.Page{{Number: 2, Limit: 50}, {Number: 20, Limit: 50}, {Number: 21, Limit: 50},
							{Number: 25, Limit: 41}, {Number: 40, Limit: 50}, {Number: 52, Limit: 50}, {Number: 146, Limit: 7}, {Number: 400, Limit: 7}} {
							want, wantTotal := reference(f, p)
							got, total, err := ix.Issues(ctx, 1, f, p)
							if err != nil {
								t.Fatal(err)
							}
							var numbers []uint64
							for _, is := range got {
								numbers = append(numbers, is.Number)
							}
							if total != wantTotal || !reflect.DeepEqual(numbers, want) {
								t.Fatalf("%s: %s %q %s page %d/%d: %v of %d, want %v of %d", step, kindName(kind), state, sort, p.Number, p.Limit, numbers, total, want, wantTotal)
							}
						}
					}
				}
			}
		}
		check("seeded")
		exec(`UPDATE forge_issues SET state = 'closed' WHERE repo_id = 1 AND number % 5 = 0`)
		check("every fifth closed")
		if got, want := counters(t, st, "SELECT repo_id, is_pull, state, block, issues FROM forge_issue_counts ORDER BY repo_id, is_pull, state, block"),
			counters(t, st, `SELECT repo_id, is_pull, state, number / 1024, COUNT(*) FROM forge_issues GROUP BY repo_id, is_pull, state, number / 1024
				ORDER BY repo_id, is_pull, state, number / 1024`); !reflect.DeepEqual(got, want) {
			t.Fatalf("counters %v, want the rows' counts by block %v", got, want)
		}
		// The seek starts from the counters: ten issues too many in the
		// newest block move a deep page of all the issues by ten.
		exec(`UPDATE forge_issue_counts SET issues = issues + 10 WHERE repo_id = 1 AND is_pull = FALSE AND state = 'open' AND block = 2`)
		f, p := index.IssueFilter{}, index.Page{Number: 20, Limit: 50}
		want, _ := reference(f, p)
		got, _, err := ix.Issues(ctx, 1, f, p)
		if err != nil || len(got) == 0 || len(want) == 0 || got[0].Number != want[0]+10 {
			t.Fatalf("a page after a counter 10 too high starts at %v (%v), want 10 numbers above %v", got, err, want)
		}
	})
}
