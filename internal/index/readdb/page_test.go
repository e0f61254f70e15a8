package readdb

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"testing"
)

// TestSeekPageMatchesOffset holds SeekPage to ListPage (OFFSET) over 1,200
// rows whose first sort key repeats a lot, in both directions, with and
// without a filter, through a join, for the first pages of several sizes,
// a dozen spread between, the last ones and one past the end.
func TestSeekPageMatchesOffset(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	raw := st.DB()
	for _, q := range []string{
		`CREATE TABLE seek_items (grp INTEGER NOT NULL, id INTEGER NOT NULL, score INTEGER NOT NULL, owner INTEGER NOT NULL, PRIMARY KEY (grp, id))`,
		`CREATE INDEX seek_items_score ON seek_items (grp, score, id)`,
		`CREATE TABLE seek_owners (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
		`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1200)
			INSERT INTO seek_items (grp, id, score, owner) SELECT i % 2, i, (i * 7) % 13, i % 5 FROM s`,
		`INSERT INTO seek_owners (id, name) VALUES (0, 'a'), (1, 'b'), (2, 'c'), (3, 'd')`, // owner 4 has no row: the LEFT JOIN keeps it
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db := New(st)
	type row struct {
		id, score int64
		name      sql.NullString
	}
	read := func(seek bool, where string, args []any, order Order, p Page) ([]row, int64) {
		t.Helper()
		var out []row
		scan := func(rows *sql.Rows) error {
			var r row
			out = append(out, r)
			return rows.Scan(&out[len(out)-1].id, &out[len(out)-1].score, &out[len(out)-1].name)
		}
		cols, from := "s.id, s.score, o.name", "seek_items s LEFT JOIN seek_owners o ON o.id = s.owner"
		var total int64
		var err error
		if seek {
			total, err = db.SeekPage(ctx, cols, from, "seek_items s", where, order, args, p, scan)
		} else {
			total, err = db.ListPage(ctx, cols, from, "seek_items s", where, order.SQL(), args, p, scan)
		}
		if err != nil {
			t.Fatal(err)
		}
		return out, total
	}
	filters := []struct {
		where string
		args  []any
	}{
		{"", nil},
		{"s.grp = $1", []any{1}},
		{"s.grp = $1 AND s.owner <> $2", []any{0, 3}},
	}
	orders := []Order{
		{Cols: []string{"s.score", "s.grp", "s.id"}, Desc: true},
		{Cols: []string{"s.score", "s.grp", "s.id"}},
		{Cols: []string{"s.grp", "s.id"}, Desc: true},
	}
	compared := 0
	for _, f := range filters {
		for _, o := range orders {
			for _, limit := range []int{1, 7, 50, 500} {
				_, all := read(false, f.where, f.args, o, Page{Number: 1, Limit: limit})
				last := int(all+int64(limit)-1) / limit
				between := max(1, last/12)
				for number := 1; number <= last+1; number++ {
					if number > 6 && number%between != 0 && number < last-2 {
						continue // the first pages, a dozen spread in between, the last and one past it
					}
					p := Page{Number: number, Limit: limit}
					want, wantTotal := read(false, f.where, f.args, o, p)
					got, total := read(true, f.where, f.args, o, p)
					name := fmt.Sprintf("where %q order %s page %d of %d", f.where, o.SQL(), number, limit)
					if !reflect.DeepEqual(got, want) || total != wantTotal {
						t.Fatalf("%s: seek gives %d rows (total %d), OFFSET %d (total %d): %v against %v", name, len(got), total, len(want), wantTotal, got, want)
					}
					compared++
				}
			}
		}
	}
	if compared < 250 {
		t.Fatalf("compared %d pages", compared)
	}
}

// TestPageAfterMatchesOffset reads lists page after page with PageAfter,
// each page from the last row of the one before, and holds every page and
// total to ListPage's (OFFSET), in both directions, with and without a
// filter, to the page past the end.
func TestPageAfterMatchesOffset(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	for _, q := range []string{
		`CREATE TABLE after_items (grp INTEGER NOT NULL, id INTEGER NOT NULL, score INTEGER NOT NULL, PRIMARY KEY (grp, id))`,
		`CREATE INDEX after_items_score ON after_items (score, grp, id)`,
		`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 1000)
			INSERT INTO after_items (grp, id, score) SELECT i % 3, i, (i * 7) % 13 FROM s`,
	} {
		if _, err := st.DB().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db := New(st)
	const cols, from = "s.score, s.grp, s.id", "after_items s"
	read := func(after []any, where string, args []any, order Order, p Page) ([][3]int64, int64) {
		t.Helper()
		var out [][3]int64
		scan := func(rows *sql.Rows) error {
			var r [3]int64
			err := rows.Scan(&r[0], &r[1], &r[2])
			out = append(out, r)
			return err
		}
		var total int64
		var err error
		if after != nil {
			total, err = db.PageAfter(ctx, cols, from, from, where, order, args, after, p, nil, scan)
		} else {
			total, err = db.ListPage(ctx, cols, from, from, where, order.SQL(), args, p, scan)
		}
		if err != nil {
			t.Fatal(err)
		}
		return out, total
	}
	compared := 0
	for _, f := range []struct {
		where string
		args  []any
	}{{"", nil}, {"s.grp <> $1", []any{1}}} {
		for _, desc := range []bool{true, false} {
			order := Order{Cols: []string{"s.score", "s.grp", "s.id"}, Desc: desc}
			for _, limit := range []int{1, 7, 50} {
				var last [3]int64
				for number := 1; ; number++ {
					p := Page{Number: number, Limit: limit}
					want, wantTotal := read(nil, f.where, f.args, order, p)
					got, total := want, wantTotal
					if number > 1 {
						got, total = read([]any{last[0], last[1], last[2]}, f.where, f.args, order, p)
					}
					if !reflect.DeepEqual(got, want) || total != wantTotal {
						t.Fatalf("where %q order %s page %d of %d: after %v gives %v (total %d), OFFSET %v (total %d)",
							f.where, order.SQL(), number, limit, last, got, total, want, wantTotal)
					}
					compared++
					if len(want) < limit {
						break // the last page, or the one past it
					}
					last = want[limit-1]
				}
			}
		}
	}
	if compared < 1000 {
		t.Fatalf("compared %d pages", compared)
	}
}
