package readdb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
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
// table where refers to. where may be empty. scan reads one row. Pages
// past the first skip the rows before them with OFFSET, through from's
// joins: for long lists, SeekPage skips them through countFrom alone.
func (db *DB) ListPage(ctx context.Context, cols, from, countFrom, where, order string, args []any, p Page, scan func(*sql.Rows) error) (int64, error) {
	return db.listPage(ctx, cols, from, countFrom, where, order, args, p, nil, scan)
}

// ListPageCounted is ListPage whose total is count's (none: counted).
func (db *DB) ListPageCounted(ctx context.Context, cols, from, countFrom, where, order string, args []any, p Page, count Count, scan func(*sql.Rows) error) (int64, error) {
	return db.listPage(ctx, cols, from, countFrom, where, order, args, p, count, scan)
}

// Count is a list's total read from a counter the projection keeps with
// the list (forge_issue_counts), never by counting the list's rows.
type Count func(ctx context.Context) (int64, error)

func (db *DB) listPage(ctx context.Context, cols, from, countFrom, where, order string, args []any, p Page, count Count, scan func(*sql.Rows) error) (int64, error) {
	if where != "" {
		where = " WHERE " + where
	}
	n := len(args)
	q := fmt.Sprintf("SELECT %s FROM %s%s ORDER BY %s LIMIT $%d OFFSET $%d", cols, from, where, order, n+1, n+2)
	return db.readPage(ctx, q, append(args[:n:n], p.Limit, p.Offset()), countFrom, where, args, p, count, scan)
}

// Order is a list's order for SeekPage: by Cols, all descending (Desc) or
// all ascending. The columns must never be NULL, and together they must
// tell every row the list can hold apart (the last one a unique
// tie-break, such as the number of an issue within its repository), so
// that a row's place in the list is where its key sorts.
type Order struct {
	Cols []string
	Desc bool
}

// SQL is o as an ORDER BY clause.
func (o Order) SQL() string {
	dir := " ASC"
	if o.Desc {
		dir = " DESC"
	}
	return strings.Join(o.Cols, dir+", ") + dir
}

// After is the condition that a row comes after the row whose key is
// at (one placeholder for each of o.Cols, in order) in o's order: a page
// that starts after the last row of the page before it reads from there
// on through an index in o's order (keyset pagination), however deep it
// is. Both databases compare the row values column by column.
func (o Order) After(at []string) string {
	cmp := " > "
	if o.Desc {
		cmp = " < "
	}
	return "(" + strings.Join(o.Cols, ", ") + ")" + cmp + "(" + strings.Join(at, ", ") + ")"
}

// PageAfter is ListPageCounted for page p of a list in order's order
// when the last row of the page before it is known: its key is after
// (the values of order.Cols). The page is read from right after that row,
// with no OFFSET, so it costs what the first page does however deep it
// is. The total is the list's, without the key's condition.
func (db *DB) PageAfter(ctx context.Context, cols, from, countFrom, where string, order Order, args []any, after []any, p Page, count Count, scan func(*sql.Rows) error) (int64, error) {
	a := Args(args[:len(args):len(args)])
	at := make([]string, len(after))
	for i, v := range after {
		at[i] = a.Add(v)
	}
	cond, seek := "", order.After(at)
	if where != "" {
		cond, seek = " WHERE "+where, "("+where+") AND "+seek
	}
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s LIMIT $%d", cols, from, seek, order.SQL(), len(a)+1)
	return db.readPage(ctx, q, append(a, p.Limit), countFrom, cond, args, p, count, scan)
}

// SeekPage is ListPage for a list in a total order: page N gives the rows
// OFFSET would, but the rows before it are skipped where countFrom alone
// can skip them. One statement finds the key of the page's first row (an
// OFFSET over countFrom and where only: for the issue lists an index that
// covers the filter and the order, so no row and no join is read) and
// reads the page from that key on through from's joins (a seek, so the
// joins run for the page's rows only). Being one statement, both halves
// see the same state of the projection. A page past the end has no first
// key and comes back empty, as with OFFSET.
func (db *DB) SeekPage(ctx context.Context, cols, from, countFrom, where string, order Order, args []any, p Page, scan func(*sql.Rows) error) (int64, error) {
	return db.SeekPageCounted(ctx, cols, from, countFrom, where, order, args, p, nil, scan)
}

// SeekPageCounted is SeekPage for a list whose total a counter keeps: a
// total the page cannot tell comes from count (when not nil) rather than
// from a COUNT(*) over countFrom, so a deep page of a long list reads the
// rows of its seek and no more, even just after a write.
func (db *DB) SeekPageCounted(ctx context.Context, cols, from, countFrom, where string, order Order, args []any, p Page, count Count, scan func(*sql.Rows) error) (int64, error) {
	return db.SeekPageJumped(ctx, cols, from, countFrom, where, order, args, p, count, nil, scan)
}

// Jump narrows a deep seek from counters: given how many of the list's
// rows come before the page, it returns a condition on countFrom's rows
// that leaves out skipped of them, all before the page (placeholder is
// the one its value takes). ok is false when it cannot leave out any.
type Jump func(ctx context.Context, offset int, placeholder string) (cond string, value any, skipped int, ok bool, err error)

// SeekPageJumped is SeekPageCounted whose seek to the page's first row
// starts where jump (when not nil) lets it: the OFFSET of the seek steps
// through the index entries between there and the page, not through
// every entry before the page. The counters jump reads and the page are
// read by two statements, so a write between them may shift the page by
// what it moved, as a write between two requests would.
func (db *DB) SeekPageJumped(ctx context.Context, cols, from, countFrom, where string, order Order, args []any, p Page, count Count, jump Jump, scan func(*sql.Rows) error) (int64, error) {
	if p.Offset() <= 0 || len(order.Cols) == 0 {
		return db.listPage(ctx, cols, from, countFrom, where, order.SQL(), args, p, count, scan)
	}
	cond := where
	if cond != "" {
		cond = " WHERE " + cond
	}
	offset, seekArgs := p.Offset(), args
	if jump != nil {
		jcond, value, skipped, ok, err := jump(ctx, offset, fmt.Sprintf("$%d", len(args)+1))
		if err != nil {
			return 0, fmt.Errorf("jump to the page: %w", err)
		}
		if ok {
			offset -= skipped
			seekArgs = append(args[:len(args):len(args)], value)
			if where == "" {
				where = jcond
			} else {
				where = "(" + where + ") AND " + jcond
			}
		}
	}
	seekCond := where
	if seekCond != "" {
		seekCond = " WHERE " + seekCond
	}
	n := len(seekArgs)
	key := strings.Join(order.Cols, ", ")
	cmp := ">="
	if order.Desc {
		cmp = "<="
	}
	// The subquery names countFrom's tables as from does: inside it they
	// stand for its own rows, so where means the same there.
	first := fmt.Sprintf("SELECT %s FROM %s%s ORDER BY %s LIMIT 1 OFFSET $%d", key, countFrom, seekCond, order.SQL(), n+2)
	seek := fmt.Sprintf("(%s) %s (%s)", key, cmp, first)
	if where != "" {
		seek = "(" + where + ") AND " + seek
	}
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s LIMIT $%d", cols, from, seek, order.SQL(), n+1)
	// The total is the list's: cond and args, without the jump.
	return db.readPage(ctx, q, append(seekArgs[:n:n], p.Limit, offset), countFrom, cond, args, p, count, scan)
}

// readPage runs the page query q (with its own arguments) and works out
// the list's total: from the page when it can tell, else from count, else
// counted over countFrom and cond (" WHERE ..." or "") with args.
func (db *DB) readPage(ctx context.Context, q string, qargs []any, countFrom, cond string, args []any, p Page, count Count, scan func(*sql.Rows) error) (int64, error) {
	rows, err := db.Query(ctx, q, qargs...)
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
	if count != nil {
		total, err := count(ctx)
		if err != nil {
			return 0, fmt.Errorf("read total: %w", err)
		}
		return total, nil
	}
	// The total of a long list is counted once per version of the
	// tables it reads (cache.go), not on every page of every request.
	counting := "SELECT COUNT(*) FROM " + countFrom + cond
	return Remember(ctx, db, Key("count", counting, args...), func(ctx context.Context) (int64, error) {
		var total int64
		if err := db.QueryRow(ctx, counting, args...).Scan(&total); err != nil {
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
