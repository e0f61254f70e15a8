package readdb

import (
	"context"
	"database/sql"
	"fmt"
)

// Page selects a slice of a list, newest first: page Number (1-based) of
// Limit items.
type Page struct {
	Number, Limit int
}

// Offset is how many items come before the page.
func (p Page) Offset() int { return (p.Number - 1) * p.Limit }

// ListPage reads one page of a list and its total, for lists that can be
// long (a repository's issues). Unlike WindowPage, it never asks for COUNT(*)
// OVER (): a window over every match makes the database read, join and
// sort all of them for a page of fifty. The page query reads the rows in
// order through an index and stops at the page's end; the total comes from
// the page itself when it is the last one (short, or empty on the first
// page) and otherwise from a COUNT over countFrom, which has no joins, so
// an index answers it without touching the rows.
//
// cols and from are the page's columns and tables; countFrom holds every
// table where refers to. where may be empty. scan reads one row.
func (db *DB) ListPage(ctx context.Context, cols, from, countFrom, where, order string, args []any, p Page, scan func(*sql.Rows) error) (int64, error) {
	if where != "" {
		where = " WHERE " + where
	}
	n := len(args)
	q := fmt.Sprintf("SELECT %s FROM %s%s ORDER BY %s LIMIT $%d OFFSET $%d", cols, from, where, order, n+1, n+2)
	rows, err := db.Query(ctx, q, append(args[:n:n], p.Limit, p.Offset())...)
	if err != nil {
		return 0, fmt.Errorf("read page: %w", err)
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		if err := scan(rows); err != nil {
			return 0, fmt.Errorf("read page: %w", err)
		}
		got++
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("read page: %w", err)
	}
	rows.Close()
	if total, ok := pageTotal(p, got); ok {
		return total, nil
	}
	// The total of a long list is counted once per version of the
	// projection (cache.go), not on every page of every request.
	count := "SELECT COUNT(*) FROM " + countFrom + where
	return Remember(db, Key("count", count, args...), func() (int64, error) {
		var total int64
		if err := db.QueryRow(ctx, count, args...).Scan(&total); err != nil {
			return 0, fmt.Errorf("count rows: %w", err)
		}
		return total, nil
	})
}

// pageTotal is the total a page of got rows implies, if it implies one:
// a page with room left over is the last, and an empty first page means
// there is nothing. A full page, or an empty one past the first, says
// nothing of what follows.
func pageTotal(p Page, got int) (int64, bool) {
	switch {
	case p.Limit <= 0:
		return 0, false
	case got > 0 && got < p.Limit:
		return int64(p.Offset() + got), true
	case got == 0 && p.Number <= 1:
		return 0, true
	}
	return 0, false
}
