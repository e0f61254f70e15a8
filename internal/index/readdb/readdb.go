// Package readdb is what the projection's reads run on and share: the read
// pool with its statements prepared (stmts.go), answers kept until a
// table they read changes (cache.go, tables.go, writetx.go), pages of
// lists (page.go), a snapshot of one state, and the shapes and SQL every
// part of the projection builds its reads from (User, Args). internal/index owns the one DB of a node
// and hands it to the parts of the projection kept in its subpackages.
package readdb

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// DB runs the API's reads of the projection on the read pool (store.ReadDB:
// SQLite's read pool).
type DB struct {
	rdb     *sql.DB
	dialect store.Dialect
	stmts   *stmtCache // rdb's prepared reads
	wstmts  *stmtCache // the writer's prepared statements (WriteTx)
	cache   readCache  // answers valid until a table they read changes
	reads   atomic.Int64
}

// New returns a DB reading st's read pool.
func New(st *store.Store) *DB {
	return &DB{rdb: st.ReadDB(), dialect: st.Dialect(),
		stmts: newStmtCache(st.ReadDB(), st.Dialect()), wstmts: newStmtCache(st.DB(), st.Dialect())}
}

// Snapshot runs fn in a read-only transaction that sees one state of the
// projection throughout (SQLite's transactions always do; PostgreSQL's
// need repeatable read).
//
// The read cache cannot see what fn reads: an answer kept around a
// snapshot depends on every write (cache.go).
func (db *DB) Snapshot(ctx context.Context, fn func(*sql.Tx) error) error {
	noteAnyRead(ctx)
	opts := &sql.TxOptions{}
	if db.dialect == store.Postgres {
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	tx, err := db.rdb.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

// WindowPage reads one page of `SELECT cols FROM from [WHERE where] ORDER BY
// order` and the number of rows matching in all. The count comes from the
// same statement (a window over the matches), so it agrees with the page
// even while the index adds blocks; only a page past the end counts apart.
func (db *DB) WindowPage(ctx context.Context, cols, from, where, order string, args []any, p Page, scan func(*sql.Rows, *int64) error) (int64, error) {
	if where != "" {
		where = " WHERE " + where
	}
	n := len(args)
	q := fmt.Sprintf("SELECT %s, COUNT(*) OVER () FROM %s%s ORDER BY %s LIMIT $%d OFFSET $%d", cols, from, where, order, n+1, n+2)
	rows, err := db.Query(ctx, q, append(args, p.Limit, p.Offset())...)
	if err != nil {
		return 0, fmt.Errorf("read page: %w", err)
	}
	defer rows.Close()
	total := int64(-1)
	for rows.Next() {
		if err := scan(rows, &total); err != nil {
			return 0, fmt.Errorf("read page: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("read page: %w", err)
	}
	rows.Close() // SQLite has one connection: free it for the count
	switch {
	case total >= 0:
		return total, nil
	case p.Number == 1:
		return 0, nil
	}
	if err := db.QueryRow(ctx, "SELECT COUNT(*) FROM "+from+where, args...).Scan(&total); err != nil {
		return 0, fmt.Errorf("count rows: %w", err)
	}
	return total, nil
}

// Scanner is a row or rows to scan.
type Scanner interface{ Scan(...any) error }

// NotFound is the user error of a read that found nothing.
func NotFound(format string, args ...any) error {
	return usererr.Missingf(format, args...)
}

// FormatTime gives a block time in Unix nanoseconds as RFC 3339, in UTC.
func FormatTime(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339Nano) }
