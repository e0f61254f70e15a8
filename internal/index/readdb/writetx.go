package readdb

import (
	"context"
	"database/sql"
	"sync"
)

// WriteTx is a transaction of the projection's writer that notes the
// tables its statements write, so that once it has ended only the answers
// that read them are dropped (cache.go). It offers only the statements the
// projection runs: a write cannot go around it.
type WriteTx struct {
	tx *sql.Tx

	mu      sync.Mutex
	written map[genKey]struct{} // what each statement changed: writeMark
	unknown bool                // a statement wrote, or may have written, tables not noted
}

// NewWriteTx notes the writes of tx.
func NewWriteTx(tx *sql.Tx) *WriteTx {
	return &WriteTx{tx: tx, written: map[genKey]struct{}{}}
}

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
	res, err := t.tx.ExecContext(ctx, q, args...)
	name, ok := writtenName(q)
	if ok && name != "" && err == nil {
		if n, nerr := res.RowsAffected(); nerr == nil && n == 0 {
			return res, nil
		}
	}
	t.noteName(ctx, name, ok)
	return res, err
}

// QueryContext runs a statement that returns rows (a read, or a write with
// RETURNING) in the transaction.
func (t *WriteTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	t.note(ctx, q)
	return t.tx.QueryContext(ctx, q, args...)
}

// QueryRowContext runs a statement that returns one row in the
// transaction.
func (t *WriteTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	t.note(ctx, q)
	return t.tx.QueryRowContext(ctx, q, args...)
}

// Commit commits the transaction.
func (t *WriteTx) Commit() error { return t.tx.Commit() }

// Rollback rolls the transaction back.
func (t *WriteTx) Rollback() error { return t.tx.Rollback() }

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
