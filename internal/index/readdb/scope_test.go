package readdb

import (
	"context"
	"fmt"
	"testing"
)

// scopeFixture is cacheFixture with a second row in a_items, and a scope
// for each of its two rows.
type scopeFixture struct {
	cacheFixture
	row map[int64]Scope
}

func newScopeFixture(t *testing.T) scopeFixture {
	t.Helper()
	f := scopeFixture{newCacheFixture(t), map[int64]Scope{1: NewScope(7, 1), 2: NewScope(7, 2)}}
	if f.row[1] == f.row[2] {
		t.Fatal("the two rows' scopes share a bucket: pick other keys")
	}
	if NewScope(7, 1) != f.row[1] {
		t.Fatal("NewScope of equal keys differs")
	}
	if _, err := f.raw.Exec(`INSERT INTO a_items (id, n) VALUES (2, 0)`); err != nil {
		t.Fatal(err)
	}
	return f
}

// readRow is the cached n of a_items' row id, read in that row's scope;
// reads counts the reads that reach SQL.
func (f scopeFixture) readRow(t *testing.T, id int64, reads *int) int64 {
	t.Helper()
	ctx := InScope(context.Background(), f.row[id])
	v, err := Remember(ctx, f.db, Key("row", "", id), func(ctx context.Context) (int64, error) {
		*reads++
		var n int64
		err := f.db.QueryRow(ctx, `SELECT n FROM a_items WHERE id = $1`, id).Scan(&n)
		return n, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// readSum is the cached sum of a_items, read in no scope.
func (f scopeFixture) readSum(t *testing.T, reads *int) int64 {
	t.Helper()
	v, err := Remember(context.Background(), f.db, Key("sum", ""), func(ctx context.Context) (int64, error) {
		*reads++
		var n int64
		err := f.db.QueryRow(ctx, `SELECT SUM(n) FROM a_items`).Scan(&n)
		return n, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (f scopeFixture) bumpRow(t *testing.T, id int64) {
	t.Helper()
	f.writeIn(t, InScope(context.Background(), f.row[id]), `UPDATE a_items SET n = n + 1 WHERE id = `+map[int64]string{1: "1", 2: "2"}[id])
}

func TestScopedWriteMovesOnlyItsScopeAndWholeReads(t *testing.T) {
	f := newScopeFixture(t)
	var one, two, sum int
	f.readRow(t, 1, &one)
	f.readRow(t, 2, &two)
	f.readSum(t, &sum)
	f.bumpRow(t, 1)

	if got := f.readRow(t, 2, &two); got != 0 || two != 1 {
		t.Fatalf("row 2 after a write in row 1's scope: %d from %d reads of SQL, want 0 from the cache", got, two)
	}
	if got := f.readRow(t, 1, &one); got != 1 || one != 2 {
		t.Fatalf("row 1 after a write in its scope: %d from %d reads of SQL, want 1 read afresh", got, one)
	}
	if got := f.readSum(t, &sum); got != 1 || sum != 2 {
		t.Fatalf("the whole table's sum after a scoped write: %d from %d reads of SQL, want 1 read afresh", got, sum)
	}
}

func TestUnscopedWriteMovesEveryScope(t *testing.T) {
	f := newScopeFixture(t)
	var one, two int
	f.readRow(t, 1, &one)
	f.readRow(t, 2, &two)
	f.write(t, `UPDATE a_items SET n = n + 5 WHERE id = 2`) // says no scope

	if got := f.readRow(t, 2, &two); got != 5 || two != 2 {
		t.Fatalf("row 2 after an unscoped write: %d from %d reads of SQL, want 5 read afresh", got, two)
	}
	if f.readRow(t, 1, &one); one != 2 {
		t.Fatalf("row 1 after an unscoped write to its table: %d reads of SQL, want it read afresh", one)
	}
	f.write(t, `UPDATE b_items SET n = n + 1 WHERE id = 1`)
	if f.readRow(t, 1, &one); one != 2 {
		t.Fatalf("row 1 after a write to another table: %d reads of SQL, want the cached answer", one)
	}
}

// A read that steps out of its scope (Unscoped) depends on the whole table
// for that part; an answer kept inside another carries its scope's
// generations to the outer one.
func TestUnscopedPartAndNestedScopes(t *testing.T) {
	f := newScopeFixture(t)
	outerReads := 0
	outer := func() int64 {
		ctx := InScope(context.Background(), f.row[1])
		v, err := Remember(ctx, f.db, "row 1 and the sum", func(ctx context.Context) (int64, error) {
			outerReads++
			var own, sum int64
			if err := f.db.QueryRow(ctx, `SELECT n FROM a_items WHERE id = 1`).Scan(&own); err != nil {
				return 0, err
			}
			err := f.db.QueryRow(Unscoped(ctx), `SELECT SUM(n) FROM a_items`).Scan(&sum)
			return own*100 + sum, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	outer()
	f.bumpRow(t, 2)
	if got := outer(); got != 1 || outerReads != 2 {
		t.Fatalf("after a write in another scope, an answer that read the whole table: %d, built %d times; want 1, built afresh", got, outerReads)
	}

	var inner int
	f.readRow(t, 2, &inner) // cached in row 2's scope before the outer read uses it
	nestedReads := 0
	nested := func() int64 {
		v, err := Remember(context.Background(), f.db, "around row 2", func(ctx context.Context) (int64, error) {
			nestedReads++
			return Remember(InScope(ctx, f.row[2]), f.db, Key("row", "", int64(2)), func(ctx context.Context) (int64, error) {
				t.Fatal("row 2 read from SQL: want it from the cache")
				return 0, nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	nested()
	f.bumpRow(t, 1)
	nested()
	if nestedReads != 1 {
		t.Fatalf("an answer around row 2's after a write in row 1's scope: built %d times, want once", nestedReads)
	}
	f.bumpRow(t, 2)
	var fresh int
	if got := f.readRow(t, 2, &fresh); got != 2 || fresh != 1 {
		t.Fatalf("row 2 after a second write in its scope: %d from %d reads, want 2 read afresh", got, fresh)
	}
	if got := nested(); got != 2 || nestedReads != 2 {
		t.Fatalf("the answer around row 2's after a write in its scope: %d, built %d times; want 2, built afresh", got, nestedReads)
	}
}

// A comment's trigger writes its thread's counter in the comment's scope
// (scopedCounters): a thread's cached total survives a comment on another
// thread and is read afresh after one on its own; the repository's total,
// read in no scope, after either.
func TestCommentCountersMoveWithTheirThreadsScope(t *testing.T) {
	f := newScopeFixture(t) // the scopes of threads 1 and 2 of repository 7
	count := func(number int64, reads *int) int64 {
		t.Helper()
		ctx := context.Background()
		if number != 0 {
			ctx = InScope(ctx, f.row[number])
		}
		v, err := Remember(ctx, f.db, Key("comments", "", number), func(ctx context.Context) (int64, error) {
			*reads++
			var n int64
			err := f.db.QueryRow(ctx, `SELECT COALESCE(SUM(comments), 0) FROM forge_comment_counts WHERE repo_id = 7 AND number = $1`, number).Scan(&n)
			return n, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	comment := func(id, number int64) {
		t.Helper()
		f.writeIn(t, InScope(context.Background(), f.row[number]), fmt.Sprintf(
			`INSERT INTO forge_comments (id, repo_id, number, author, body, height, time_ns) VALUES (%d, 7, %d, 'a', 'c', 1, 1)`, id, number))
	}
	var one, two, repo int
	count(1, &one)
	count(2, &two)
	count(0, &repo)

	comment(1, 1)
	if got := count(2, &two); got != 0 || two != 1 {
		t.Fatalf("thread 2 after a comment on thread 1: %d from %d reads of SQL, want 0 from the cache", got, two)
	}
	if got := count(1, &one); got != 1 || one != 2 {
		t.Fatalf("thread 1 after its comment: %d from %d reads of SQL, want 1 read afresh", got, one)
	}
	if got := count(0, &repo); got != 1 || repo != 2 {
		t.Fatalf("the repository after a comment: %d from %d reads of SQL, want 1 read afresh", got, repo)
	}

	comment(2, 2)
	if got := count(1, &one); got != 1 || one != 2 {
		t.Fatalf("thread 1 after a comment on thread 2: %d from %d reads of SQL, want 1 from the cache", got, one)
	}
	if got, got0 := count(2, &two), count(0, &repo); got != 1 || two != 2 || got0 != 2 || repo != 3 {
		t.Fatalf("thread 2 and the repository after its comment: %d and %d from %d and %d reads of SQL, want 1 and 2 read afresh", got, got0, two, repo)
	}
}
