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
	written map[string]struct{}
	unknown bool // a statement wrote, or may have written, tables not noted
}

// NewWriteTx notes the writes of tx.
func NewWriteTx(tx *sql.Tx) *WriteTx {
	return &WriteTx{tx: tx, written: map[string]struct{}{}}
}

func (t *WriteTx) note(q string) {
	name, ok := writtenName(q)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case !ok:
		t.unknown = true
	case name != "":
		t.written[name] = struct{}{}
	}
}

// ExecContext runs a statement in the transaction.
func (t *WriteTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	t.note(q)
	return t.tx.ExecContext(ctx, q, args...)
}

// QueryContext runs a statement that returns rows (a read, or a write with
// RETURNING) in the transaction.
func (t *WriteTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	t.note(q)
	return t.tx.QueryContext(ctx, q, args...)
}

// QueryRowContext runs a statement that returns one row in the
// transaction.
func (t *WriteTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	t.note(q)
	return t.tx.QueryRowContext(ctx, q, args...)
}

// Commit commits the transaction.
func (t *WriteTx) Commit() error { return t.tx.Commit() }

// Rollback rolls the transaction back.
func (t *WriteTx) Rollback() error { return t.tx.Rollback() }

// Written are the tables the transaction wrote, and false when it cannot
// tell.
func (t *WriteTx) Written() ([]string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.unknown {
		return nil, false
	}
	out := make([]string, 0, len(t.written))
	for table := range t.written {
		out = append(out, table)
	}
	return out, true
}

// ChangedBy moves on what t wrote (Changed), or everything (ChangedAll)
// when t cannot tell. Call it once t has ended, committed or not.
func (db *DB) ChangedBy(t *WriteTx) {
	tables, ok := t.Written()
	if !ok {
		db.ChangedAll()
		return
	}
	db.Changed(tables...)
}
