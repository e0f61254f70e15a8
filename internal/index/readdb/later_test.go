package readdb

import (
	"context"
	"testing"
)

// laterRead is the cached n of a_items' row id, read with its scope told
// after the read (ScopesLater): in the given scopes, or never (nil).
func (f scopeFixture) laterRead(t *testing.T, key string, id int64, scopes []Scope, reads *int) int64 {
	t.Helper()
	v, err := Remember(context.Background(), f.db, key, func(ctx context.Context) (int64, error) {
		*reads++
		lctx, l := ScopesLater(ctx, "a_items")
		var n int64
		if err := f.db.QueryRow(lctx, `SELECT n FROM a_items WHERE id = $1`, id).Scan(&n); err != nil {
			return 0, err
		}
		if scopes != nil {
			l.In(scopes...)
		}
		return n, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A read whose scope is told after it (Later.In) is dropped by a write in
// that scope and by one in no scope, not by one in another scope; one
// never told depends on the whole table; one told no scope only on the
// writes in none.
func TestScopesToldLater(t *testing.T) {
	f := newScopeFixture(t)
	var told, untold, none int
	f.laterRead(t, "told", 1, []Scope{f.row[1]}, &told)
	f.laterRead(t, "untold", 1, nil, &untold)
	f.laterRead(t, "none", 1, []Scope{}, &none)

	f.bumpRow(t, 2)
	if got := f.laterRead(t, "told", 1, []Scope{f.row[1]}, &told); got != 0 || told != 1 {
		t.Fatalf("row 1, its scope told later, after a write in row 2's: %d from %d reads, want 0 from the cache", got, told)
	}
	if f.laterRead(t, "untold", 1, nil, &untold); untold != 2 {
		t.Fatalf("row 1, its scope never told, after a write in row 2's: %d reads, want it read afresh", untold)
	}
	if f.laterRead(t, "none", 1, []Scope{}, &none); none != 1 {
		t.Fatalf("a read told no scope, after a scoped write: %d reads, want the cached answer", none)
	}

	f.bumpRow(t, 1)
	if got := f.laterRead(t, "told", 1, []Scope{f.row[1]}, &told); got != 1 || told != 2 {
		t.Fatalf("row 1, its scope told later, after a write in it: %d from %d reads, want 1 read afresh", got, told)
	}
	f.write(t, `UPDATE a_items SET n = n + 1 WHERE id = 2`)
	if f.laterRead(t, "none", 1, []Scope{}, &none); none != 2 {
		t.Fatalf("a read told no scope, after a write in none: %d reads, want it read afresh", none)
	}
}

// A read told several scopes is dropped by a write in any of them, not by
// one in another.
func TestScopesToldLaterTogether(t *testing.T) {
	f := newScopeFixture(t)
	third := NewScope(7, 3)
	if third == f.row[1] || third == f.row[2] {
		t.Fatal("the third scope shares a bucket with a row's: pick other keys")
	}
	both := []Scope{f.row[1], f.row[2]}
	reads := 0
	f.laterRead(t, "both", 1, both, &reads)
	f.writeIn(t, InScope(context.Background(), third), `INSERT INTO a_items (id, n) VALUES (3, 0)`)
	if got := f.laterRead(t, "both", 1, both, &reads); got != 0 || reads != 1 {
		t.Fatalf("a read told rows 1 and 2, after a write in a third scope: %d from %d reads, want 0 from the cache", got, reads)
	}
	f.bumpRow(t, 2)
	if f.laterRead(t, "both", 1, both, &reads); reads != 2 {
		t.Fatalf("a read told rows 1 and 2, after a write in row 2's: %d reads, want it read afresh", reads)
	}
}
