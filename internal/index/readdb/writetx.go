package readdb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"
)

// WriteTx is a transaction of the projection's writer that notes the
// tables its statements write, so that once it has ended only the answers
// that read them are dropped (cache.go). It offers only the statements the
// projection runs: a write cannot go around it.
type WriteTx struct {
	tx    *sql.Tx
	stmts *stmtCache // the writer's prepared statements; nil runs text

	mu      sync.Mutex
	written map[genKey]struct{} // what each statement changed: writeMark
	unknown bool                // a statement wrote, or may have written, tables not noted
	missed  map[string]struct{} // statements run as text, to prepare once the transaction ends
}

// WriteTx notes the writes of tx, a transaction of the store's writer
// (store.DB), and runs them prepared (stmt).
func (db *DB) WriteTx(tx *sql.Tx) *WriteTx {
	return &WriteTx{tx: tx, stmts: db.wstmts, written: map[genKey]struct{}{}}
}

// NewWriteTx notes the writes of tx and runs them as text (tests).
func NewWriteTx(tx *sql.Tx) *WriteTx {
	return &WriteTx{tx: tx, written: map[genKey]struct{}{}}
}

// stmt is q prepared for the transaction, or nil. SQLite's writer is one
// connection, which the transaction holds, so a statement cannot be
// prepared while it runs: one not prepared yet runs as text, and is
// prepared once the transaction has ended (prepareMissed). A text of
// several statements is never prepared: a prepared statement is one.
func (t *WriteTx) stmt(ctx context.Context, q string) *sql.Stmt {
	s, ok := t.stmts.cached(q)
	if s != nil {
		return t.tx.StmtContext(ctx, s)
	}
	if ok && !strings.Contains(strings.TrimRight(strings.TrimSpace(q), ";"), ";") {
		t.mu.Lock()
		if t.missed == nil {
			t.missed = map[string]struct{}{}
		}
		t.missed[q] = struct{}{}
		t.mu.Unlock()
	}
	return nil
}

// prepareMissed prepares the statements the transaction ran as text, now
// that it has given the writer's connection back.
func (t *WriteTx) prepareMissed() {
	t.mu.Lock()
	missed := t.missed
	t.missed = nil
	t.mu.Unlock()
	if len(missed) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), prepareTimeout)
	defer cancel()
	for q := range missed {
		if _, ok := t.stmts.cached(q); ok {
			t.stmts.prepare(ctx, q)
		}
	}
}

// prepareTimeout bounds the wait for the writer's connection to prepare
// statements after a transaction; one not prepared runs as text next time.
const prepareTimeout = time.Second

// note notes what q writes, in ctx's scope (scope.go): a statement run in
// a scope changes only rows of that scope.
func (t *WriteTx) note(ctx context.Context, q string) {
	name, ok := writtenName(q)
	t.noteName(ctx, name, ok)
}

func (t *WriteTx) noteName(ctx context.Context, name string, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case !ok:
		t.unknown = true
	case name != "":
		t.written[writeMark(name, scopeOf(ctx))] = struct{}{}
	}
}

// ExecContext runs a statement in the transaction. A write of a form
// understood (writtenName) that changed no row is not noted: the
// projection creates every account a block touches with INSERT … ON
// CONFLICT DO NOTHING, which would otherwise drop every answer that shows
// a name at every block. Row triggers fire only on rows changed, and the
// schema has no statement triggers.
func (t *WriteTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	res, err := t.exec(ctx, q, args...)
	name, ok := writtenName(q)
	if ok && name != "" && err == nil {
		if n, nerr := res.RowsAffected(); nerr == nil && n == 0 {
			return res, nil
		}
	}
	t.noteName(ctx, name, ok)
	return res, err
}

func (t *WriteTx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if s := t.stmt(ctx, q); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, q, args...)
}

// QueryContext runs a statement that returns rows (a read, or a write with
// RETURNING) in the transaction.
func (t *WriteTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	t.note(ctx, q)
	return t.query(ctx, q, args...)
}

// query runs q prepared when it can be, noting nothing.
func (t *WriteTx) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if s := t.stmt(ctx, q); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, q, args...)
}

// QueryRowContext runs a statement that returns one row in the
// transaction.
func (t *WriteTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	t.note(ctx, q)
	if s := t.stmt(ctx, q); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, q, args...)
}

// ExecForUsers runs q, a write of a table whose rows are each one
// account's (userTables) that ends in RETURNING the account's column, and
// notes it in the scope of each account it wrote (UserScope): a block that
// notifies three people drops their lists and badges, not everyone's. It
// returns how many rows q wrote. A q of any other form is refused.
func (t *WriteTx) ExecForUsers(ctx context.Context, q string, args ...any) (int64, error) {
	name, ok := writtenName(q)
	if !ok || !userTables[name] || !strings.Contains(q, "RETURNING") {
		return 0, fmt.Errorf("ExecForUsers: %q does not write a user's rows and return their account", q)
	}
	users, n, err := accountScopes(t.query(ctx, q, args...))
	if err != nil {
		t.noteName(ctx, name, false) // what it wrote is unknown
		return n, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for s := range users {
		t.written[writeMark(name, s)] = struct{}{}
	}
	return n, nil
}

// accountScopes reads the accounts a write returned: their scopes, and
// how many rows there were.
func accountScopes(rows *sql.Rows, err error) (map[Scope]struct{}, int64, error) {
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	users := map[Scope]struct{}{}
	var n int64
	for rows.Next() {
		var address string
		if err := rows.Scan(&address); err != nil {
			return nil, n, err
		}
		users[UserScope(address)] = struct{}{}
		n++
	}
	return users, n, rows.Err()
}

// Commit commits the transaction.
func (t *WriteTx) Commit() error {
	err := t.tx.Commit()
	t.prepareMissed()
	return err
}

// Rollback rolls the transaction back.
func (t *WriteTx) Rollback() error {
	err := t.tx.Rollback()
	t.prepareMissed()
	return err
}

// changed is what the transaction changed (writeMark), and false when it
// cannot tell.
func (t *WriteTx) changed() ([]genKey, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.unknown {
		return nil, false
	}
	out := make([]genKey, 0, len(t.written))
	for m := range t.written {
		out = append(out, m)
	}
	return out, true
}

// ChangedBy moves on what t wrote (Changed), or everything (ChangedAll)
// when t cannot tell. Call it once t has ended, committed or not.
func (db *DB) ChangedBy(t *WriteTx) {
	marks, ok := t.changed()
	if !ok {
		db.ChangedAll()
		return
	}
	db.cache.moveOn(marks)
}
