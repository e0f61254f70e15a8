package index_test

import (
	"context"
	"testing"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/readdb"
)

// A projection transaction moves on only the cached answers that read a
// table it wrote (readdb/cache.go): an issue list stays cached across a
// write to the nodes, is read afresh after a write to the issues, and a
// reset drops everything.
func TestProjectionWriteMovesOnlyItsReads(t *testing.T) {
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		seedIssues(t, st, 60)
		ix := index.New(quiet, st, nil)
		list := func() ([]index.Issue, int64) {
			t.Helper()
			before := index.Reads(ix)
			got, _, err := ix.Issues(ctx, 1, index.IssueFilter{}, index.Page{Number: 1, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			return got, index.Reads(ix) - before
		}
		write := func(q string, args ...any) {
			t.Helper()
			err := index.WriteInTx(ctx, ix, func(tx *readdb.WriteTx) error {
				_, err := tx.ExecContext(ctx, q, args...)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if _, reads := list(); reads == 0 {
			t.Fatal("the first list read nothing")
		}
		write(`INSERT INTO chain_nodes (operator, url, peer_id, addrs, height) VALUES ($1, 'https://n', 'p', '[]', 1)`, named.Hex())
		if _, reads := list(); reads != 0 {
			t.Fatalf("after a write to the nodes the list read %d times from SQL, want it cached", reads)
		}
		write(`UPDATE forge_issues SET title = 'Renamed' WHERE repo_id = 1 AND number = 60`)
		got, reads := list()
		if reads == 0 || got[0].Number != 60 || got[0].Title != "Renamed" {
			t.Fatalf("after a write to the issues: #%d %q from %d reads, want #60 \"Renamed\" read afresh", got[0].Number, got[0].Title, reads)
		}
		if err := index.Reset(ctx, ix); err != nil {
			t.Fatal(err)
		}
		if _, reads := list(); reads == 0 {
			t.Fatal("after a reset the list came from the cache")
		}
	})
}

// Every order of the issue list pages as one long page slices: the deep
// pages that seek (readdb.SeekPage) give what OFFSET gives, ties in the
// sort key included (comments and update times repeat).
func TestIssuePagesInEveryOrder(t *testing.T) {
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		seedIssues(t, st, 300)
		ix := index.New(quiet, st, nil)
		if _, err := st.DB().ExecContext(ctx, `UPDATE forge_issues SET updated_time_ns = number % 7`); err != nil {
			t.Fatal(err)
		}
		for _, sort := range index.IssueSorts {
			for _, f := range []index.IssueFilter{{Sort: sort}, {Sort: sort, State: "open"}, {Sort: sort, State: "closed", IsPull: new(false)}} {
				all, wantTotal, err := ix.Issues(ctx, 1, f, index.Page{Number: 1, Limit: 1000})
				if err != nil {
					t.Fatal(err)
				}
				for number := 1; (number-1)*7 <= len(all); number++ {
					got, total, err := ix.Issues(ctx, 1, f, index.Page{Number: number, Limit: 7})
					if err != nil {
						t.Fatal(err)
					}
					want := all[min((number-1)*7, len(all)):min(number*7, len(all))]
					if total != wantTotal || len(got) != len(want) {
						t.Fatalf("%+v page %d: %d of %d, want %d of %d", f, number, len(got), total, len(want), wantTotal)
					}
					for i := range got {
						if got[i].Number != want[i].Number {
							t.Fatalf("%+v page %d row %d: #%d, want #%d", f, number, i, got[i].Number, want[i].Number)
						}
					}
				}
			}
		}
	})
}
