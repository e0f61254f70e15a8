package readdb

import (
	"testing"
)

// The writer's statements run prepared from their second transaction on:
// SQLite's writer is one connection, which a transaction holds, so they
// are prepared between transactions. A statement that fails, a rollback
// and a text of several statements must all still work, without waiting
// for the connection the transaction holds.
func TestWriteStatementsArePrepared(t *testing.T) {
	f := newCacheFixture(t)
	const bump = `UPDATE a_items SET n = n + 1 WHERE id = 1`
	const both = `UPDATE a_items SET n = n + 10 WHERE id = 1; UPDATE b_items SET n = n + 10 WHERE id = 1`
	// A write that waited for its own connection would hang here until
	// the test binary's timeout, which prints where.
	for range 3 {
		f.write(t, bump)
	}
	f.failedWrite(t, bump, `UPDATE no_such_table SET n = 1`)
	f.write(t, both)
	f.write(t, both)
	var a, b int64
	if err := f.raw.QueryRow(`SELECT (SELECT n FROM a_items WHERE id = 1), (SELECT n FROM b_items WHERE id = 1)`).Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	// Three bumps, one rolled back, and both statements of both texts twice.
	if a != 23 || b != 20 {
		t.Errorf("a = %d, b = %d; want 23 and 20", a, b)
	}
	if s, _ := f.db.wstmts.cached(bump); s == nil {
		t.Errorf("%q was not prepared after its first transaction", bump)
	}
	if s, _ := f.db.wstmts.cached(both); s != nil {
		t.Errorf("a text of two statements was prepared: it would run only the first")
	}
}
