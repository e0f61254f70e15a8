package readdb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// cacheFixture is a store with two tables, a_items and b_items, each
// holding one counter row, and a DB reading them.
type cacheFixture struct {
	db  *DB
	raw *sql.DB
}

func newCacheFixture(t *testing.T) cacheFixture {
	t.Helper()
	st := openStore(t)
	for _, q := range []string{
		`CREATE TABLE a_items (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`,
		`CREATE TABLE b_items (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`,
		`INSERT INTO a_items (id, n) VALUES (1, 0)`,
		`INSERT INTO b_items (id, n) VALUES (1, 0)`,
	} {
		if _, err := st.DB().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return cacheFixture{db: New(st), raw: st.DB()}
}

// read is the cached counter of table, and counts the reads that reach SQL.
func (f cacheFixture) read(t *testing.T, table string, reads *int) int64 {
	t.Helper()
	v, err := Remember(context.Background(), f.db, Key("counter", table), func(ctx context.Context) (int64, error) {
		*reads++
		var n int64
		err := f.db.QueryRow(ctx, `SELECT n FROM `+table+` WHERE id = 1`).Scan(&n)
		return n, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// write runs stmts in one projection transaction and moves the cache on
// as the index does (ChangedBy once it has ended).
func (f cacheFixture) write(t *testing.T, stmts ...string) {
	t.Helper()
	f.writeIn(t, context.Background(), stmts...)
}

// writeIn is write with the statements run on ctx (in its scope, if any).
func (f cacheFixture) writeIn(t *testing.T, ctx context.Context, stmts ...string) {
	t.Helper()
	f.runTx(t, ctx, false, stmts...)
}

// failedWrite is write whose last statement fails: the transaction rolls
// back, as the index's does.
func (f cacheFixture) failedWrite(t *testing.T, stmts ...string) {
	t.Helper()
	f.runTx(t, context.Background(), true, stmts...)
}

func (f cacheFixture) runTx(t *testing.T, ctx context.Context, failLast bool, stmts ...string) {
	t.Helper()
	f.inTx(t, ctx, func(tx *WriteTx) bool {
		for i, q := range stmts {
			_, err := tx.ExecContext(ctx, q)
			if fails := failLast && i == len(stmts)-1; (err != nil) != fails {
				t.Fatalf("%s: %v", q, err)
			}
		}
		return !failLast
	})
}

// inTx runs fn in a projection transaction, committed when fn says so,
// and moves the cache on as the index does (ChangedBy once it has ended).
func (f cacheFixture) inTx(t *testing.T, ctx context.Context, fn func(*WriteTx) (commit bool)) {
	t.Helper()
	raw, err := f.raw.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx := f.db.WriteTx(raw)
	defer f.db.ChangedBy(tx)
	defer tx.Rollback()
	if !fn(tx) {
		return
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestWriteMovesOnlyItsTables(t *testing.T) {
	f := newCacheFixture(t)
	var aReads, bReads int
	f.read(t, "a_items", &aReads)
	f.read(t, "b_items", &bReads)
	f.write(t, `UPDATE a_items SET n = n + 1 WHERE id = 1`)

	if got := f.read(t, "b_items", &bReads); got != 0 || bReads != 1 {
		t.Fatalf("b after a write to a: %d from %d reads of SQL, want 0 from the one before (the cache)", got, bReads)
	}
	if got := f.read(t, "a_items", &aReads); got != 1 || aReads != 2 {
		t.Fatalf("a after a write to a: %d from %d reads of SQL, want 1 read afresh", got, aReads)
	}
	if got := f.read(t, "a_items", &aReads); got != 1 || aReads != 2 {
		t.Fatalf("a read again: %d from %d reads of SQL, want the cached 1", got, aReads)
	}
}

func TestUnknownWriteMovesEverything(t *testing.T) {
	for name, stmt := range map[string]string{
		"a statement WriteTx does not read": `WITH x AS (SELECT 1) UPDATE b_items SET n = n + 1`,
		"a schema change":                   `CREATE TABLE c_items (id INTEGER PRIMARY KEY)`,
	} {
		t.Run(name, func(t *testing.T) {
			f := newCacheFixture(t)
			var aReads, bReads int
			f.read(t, "a_items", &aReads)
			f.read(t, "b_items", &bReads)
			f.write(t, stmt)
			f.read(t, "a_items", &aReads)
			f.read(t, "b_items", &bReads)
			if aReads != 2 || bReads != 2 {
				t.Fatalf("reads of SQL after %q: a %d, b %d; want both read afresh", stmt, aReads, bReads)
			}
		})
	}
	t.Run("ChangedAll", func(t *testing.T) {
		f := newCacheFixture(t)
		var aReads int
		f.read(t, "a_items", &aReads)
		f.db.ChangedAll()
		f.read(t, "a_items", &aReads)
		if aReads != 2 {
			t.Fatalf("reads of SQL after ChangedAll: %d, want 2", aReads)
		}
	})
}

// An answer whose reads the cache cannot see (a snapshot, or none through
// the ctx it was given) depends on every write; an answer kept inside
// another makes the outer one depend on its tables, even when it comes
// from the cache.
func TestAnswersOfUnseenAndNestedReads(t *testing.T) {
	f := newCacheFixture(t)
	ctx := context.Background()
	snapshots := 0
	snapshot := func() {
		_, err := Remember(ctx, f.db, "snapshot", func(ctx context.Context) (int64, error) {
			snapshots++
			var n int64
			err := f.db.Snapshot(ctx, func(tx *sql.Tx) error {
				return tx.QueryRowContext(ctx, `SELECT n FROM b_items WHERE id = 1`).Scan(&n)
			})
			return n, err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	snapshot()
	f.write(t, `UPDATE a_items SET n = n + 1 WHERE id = 1`)
	snapshot()
	if snapshots != 2 {
		t.Fatalf("a snapshot's answer after a write elsewhere: read %d times, want afresh", snapshots)
	}

	var aReads, outerReads int
	f.read(t, "a_items", &aReads) // the inner answer, cached before the outer one reads it
	outer := func() int64 {
		v, err := Remember(ctx, f.db, "outer", func(ctx context.Context) (int64, error) {
			outerReads++
			return Remember(ctx, f.db, Key("counter", "a_items"), func(ctx context.Context) (int64, error) {
				var n int64
				err := f.db.QueryRow(ctx, `SELECT n FROM a_items WHERE id = 1`).Scan(&n)
				return n, err
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	outer()
	f.write(t, `UPDATE b_items SET n = n + 1 WHERE id = 1`)
	outer()
	if outerReads != 1 {
		t.Fatalf("outer answer after a write to b: built %d times, want once", outerReads)
	}
	f.write(t, `UPDATE a_items SET n = n + 1 WHERE id = 1`)
	if got := outer(); got != 2 || outerReads != 2 {
		t.Fatalf("outer answer after a write to a: %d, built %d times; want 2, built afresh", got, outerReads)
	}
}

// TestNoStaleAnswerAfterCommit races readers against a writer: once a
// write's ChangedBy has returned, no reader may get an answer older than
// it, while answers of the table it does not write stay cached.
func TestNoStaleAnswerAfterCommit(t *testing.T) {
	f := newCacheFixture(t)
	ctx := context.Background()
	var published atomic.Int64 // the counter's value once its write is visible
	var bReads atomic.Int64
	const writes = 200
	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				least := published.Load()
				got, err := Remember(ctx, f.db, Key("counter", "a_items"), func(ctx context.Context) (int64, error) {
					var n int64
					err := f.db.QueryRow(ctx, `SELECT n FROM a_items WHERE id = 1`).Scan(&n)
					return n, err
				})
				if err == nil && got < least {
					err = fmt.Errorf("read %d after the write of %d was visible", got, least)
				}
				if err == nil {
					_, err = Remember(ctx, f.db, Key("counter", "b_items"), func(ctx context.Context) (int64, error) {
						bReads.Add(1)
						var n int64
						err := f.db.QueryRow(ctx, `SELECT n FROM b_items WHERE id = 1`).Scan(&n)
						return n, err
					})
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := 1; i <= writes; i++ {
		f.write(t, `UPDATE a_items SET n = n + 1 WHERE id = 1`)
		published.Store(int64(i))
	}
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// b is read afresh only while a write finishes during its read, which
	// the readers cannot tell apart from one that changed it.
	if n := bReads.Load(); n > writes+4 {
		t.Fatalf("b read from SQL %d times across %d writes to a", n, writes)
	}
}

func TestSQLWords(t *testing.T) {
	got := sqlWords(`SELECT i.number, COALESCE(a.username, '') FROM forge_issues i
		LEFT JOIN chain_accounts a ON a.address = i.author, "Quoted_T" q -- comment_table
		WHERE i.repo_id = $1 AND i.title LIKE 'x forge_labels' /* hidden_table */ ORDER BY i.number DESC LIMIT 5`)
	for _, want := range []string{"forge_issues", "chain_accounts", "quoted_t", "number", "username"} {
		if !slices.Contains(got, want) {
			t.Errorf("words %v lack %s", got, want)
		}
	}
	for _, not := range []string{"select", "left", "comment_table", "forge_labels", "hidden_table", "5", "1"} {
		if slices.Contains(got, not) {
			t.Errorf("words %v hold %s", got, not)
		}
	}
}

func TestWrittenTable(t *testing.T) {
	for q, want := range map[string]string{
		`INSERT INTO forge_issues (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET a = 1`:    "forge_issues",
		`insert or replace into Chain_Blocks values (1)`:                                  "chain_blocks",
		`REPLACE INTO x_t VALUES (1)`:                                                     "x_t",
		`UPDATE forge_repos SET stars = stars + 1 WHERE id = (SELECT 1 FROM forge_stars)`: "forge_repos",
		`UPDATE OR IGNORE forge_repos SET stars = 0`:                                      "forge_repos",
		`DELETE FROM forge_labels WHERE id IN (SELECT id FROM x)`:                         "forge_labels",
		`  -- a comment
		DELETE FROM main.notifications`: "notifications",
		`SELECT COUNT(*) FROM webhooks`: "",
	} {
		got, ok := writtenTable(q)
		if !ok || got != want {
			t.Errorf("writtenTable(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
	for _, q := range []string{`WITH x AS (SELECT 1) DELETE FROM a`, `CREATE TABLE a (b)`, `SET LOCAL dforge.recount = 'on'`, `DELETE a`, ``} {
		if got, ok := writtenTable(q); ok {
			t.Errorf("writtenTable(%q) = %q, understood; want not understood", q, got)
		}
	}
}

// TestKeyNamesTypeAndValue: a key holds each argument's type and value,
// so two reads differ in key whenever their arguments differ in either
// (the string "1" against the number 1), and the types written without
// fmt read as fmt would write them.
func TestKeyNamesTypeAndValue(t *testing.T) {
	args := []any{"a b", int64(-7), uint64(7), 7, true, int32(7), []string{"x"}}
	want := "kind\x00SELECT 1"
	for _, a := range args {
		want += fmt.Sprintf("\x00%T:%v", a, a)
	}
	if got := Key("kind", "SELECT 1", args...); got != want {
		t.Fatalf("Key = %q, want %q", got, want)
	}
	seen := map[string]any{}
	for _, a := range []any{"1", int64(1), uint64(1), 1, true, "true"} {
		k := Key("kind", "SELECT 1", a)
		if prev, dup := seen[k]; dup {
			t.Fatalf("%T %v and %T %v share the key %q", prev, prev, a, a, k)
		}
		seen[k] = a
	}
}

// TestPeekGivesOnlyACurrentAnswer: Peek gives a kept answer while what it
// read is unchanged, nothing for a key never kept or after a write to its
// table, and an answer built on a peeked one (a page after a kept page)
// depends on what the peeked one read.
func TestPeekGivesOnlyACurrentAnswer(t *testing.T) {
	f := newCacheFixture(t)
	ctx := context.Background()
	if _, ok := Peek[int64](ctx, f.db, Key("counter", "a_items")); ok {
		t.Fatal("an answer for a key never read")
	}
	var aReads int
	f.read(t, "a_items", &aReads)
	if v, ok := Peek[int64](ctx, f.db, Key("counter", "a_items")); !ok || v != 0 {
		t.Fatalf("the kept answer: %d %t", v, ok)
	}
	if _, ok := Peek[string](ctx, f.db, Key("counter", "a_items")); ok {
		t.Fatal("an answer of another type")
	}
	// Built on the peeked a_items answer, reading only b_items itself.
	built := func() (int64, error) {
		return Remember(ctx, f.db, Key("built", ""), func(ctx context.Context) (int64, error) {
			a, ok := Peek[int64](ctx, f.db, Key("counter", "a_items"))
			var b int64
			err := f.db.QueryRow(ctx, `SELECT n FROM b_items WHERE id = 1`).Scan(&b)
			if !ok {
				a = -100
			}
			return a + b, err
		})
	}
	if v, err := built(); err != nil || v != 0 {
		t.Fatalf("built on the kept answer: %d %v", v, err)
	}
	f.write(t, `UPDATE a_items SET n = n + 1 WHERE id = 1`)
	if _, ok := Peek[int64](ctx, f.db, Key("counter", "a_items")); ok {
		t.Fatal("an answer whose table was written since")
	}
	if v, err := built(); err != nil || v != -100 {
		t.Fatalf("built on a stale answer after a write to its table: %d %v, want it read again (-100: nothing to peek)", v, err)
	}
}

// Peek told the tables that matter passes on only what the peeked answer
// read of them: an answer built on it does not move on with the others.
func TestPeekPassesOnOnlyTheTablesNamed(t *testing.T) {
	f := newCacheFixture(t)
	ctx := context.Background()
	both := func(ctx context.Context) (int64, error) {
		return Remember(ctx, f.db, Key("both", ""), func(ctx context.Context) (int64, error) {
			var a, b int64
			if err := f.db.QueryRow(ctx, `SELECT n FROM a_items WHERE id = 1`).Scan(&a); err != nil {
				return 0, err
			}
			err := f.db.QueryRow(ctx, `SELECT n FROM b_items WHERE id = 1`).Scan(&b)
			return a*10 + b, err
		})
	}
	if _, err := both(ctx); err != nil {
		t.Fatal(err)
	}
	builds := 0
	built := func() int64 {
		t.Helper()
		v, err := Remember(ctx, f.db, Key("built on a", ""), func(ctx context.Context) (int64, error) {
			builds++
			v, ok := Peek[int64](ctx, f.db, Key("both", ""), "a_items")
			if !ok {
				var err error
				v, err = both(ctx)
				return v / 10, err
			}
			return v / 10, nil // a's part: a's n
		})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	built()
	f.write(t, `UPDATE b_items SET n = n + 1 WHERE id = 1`)
	if built(); builds != 1 {
		t.Fatalf("built on a's part of an answer, after a write to b: built %d times, want the cached answer", builds)
	}
	f.write(t, `UPDATE a_items SET n = n + 1 WHERE id = 1`)
	if got := built(); builds != 2 || got != 1 {
		t.Fatalf("built on a's part of an answer, after a write to a: %d, built %d times; want 1, built afresh", got, builds)
	}
}
