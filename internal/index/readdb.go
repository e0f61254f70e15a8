package index

import (
	"context"
	"database/sql"
	"slices"

	"github.com/dforge/dforge/internal/index/readdb"
)

// The index's reads run on readdb (its read pool, prepared statements and
// read cache); these are the short names the index's own reads use.

// Page selects a slice of a list, newest first: page Number (1-based) of
// Limit items.
type Page = readdb.Page

type (
	scanner = readdb.Scanner
	sqlArgs = readdb.Args
)

func (ix *Index) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return ix.rd.Query(ctx, q, args...)
}

func (ix *Index) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return ix.rd.QueryRow(ctx, q, args...)
}

func (ix *Index) page(ctx context.Context, cols, from, where, order string, args []any, p Page, scan func(*sql.Rows, *int64) error) (int64, error) {
	return ix.rd.WindowPage(ctx, cols, from, where, order, args, p, scan)
}

func (ix *Index) listPage(ctx context.Context, cols, from, countFrom, where, order string, args []any, p Page, scan func(*sql.Rows) error) (int64, error) {
	return ix.rd.ListPage(ctx, cols, from, countFrom, where, order, args, p, scan)
}

func (ix *Index) snapshot(ctx context.Context, fn func(*sql.Tx) error) error {
	return ix.rd.Snapshot(ctx, fn)
}

// changed moves the read cache on for tables: what they hold may differ
// from what any cached answer saw (readdb/cache.go).
func (ix *Index) changed(tables ...string) { ix.rd.Changed(tables...) }

// remember keeps fn's answer until a table it read changes; fn runs its
// reads on the ctx it is given, so the cache sees which tables they name.
func remember[T any](ctx context.Context, ix *Index, key string, fn func(context.Context) (T, error)) (T, error) {
	return readdb.Remember(ctx, ix.rd, key, fn)
}

func rememberSized[T any](ctx context.Context, ix *Index, key string, fn func(context.Context) (T, error), size func(T) int64) (T, error) {
	return readdb.RememberSized(ctx, ix.rd, key, fn, size)
}

// rememberPage is rememberSized for a page of a list and the number of
// items in all; callers get a copy of the page kept.
func rememberPage[T any](ctx context.Context, ix *Index, key string, fn func(context.Context) ([]T, int64, error), size func([]T) int64) ([]T, int64, error) {
	got, err := rememberSized(ctx, ix, key, func(ctx context.Context) (keptPage[T], error) {
		list, total, err := fn(ctx)
		return keptPage[T]{list, total}, err
	}, func(p keptPage[T]) int64 { return size(p.list) })
	if err != nil {
		return nil, 0, err
	}
	return slices.Clone(got.list), got.total, nil
}

// keptPage is a page as rememberPage keeps it.
type keptPage[T any] struct {
	list  []T
	total int64
}

// lastKept is the last item of the page before p, when rememberPage
// keeps that page (under key's name for it), still current and full: p
// then starts right after that item. A client reads a long list page
// after page, so the page before a deep one is usually kept.
func lastKept[T any](ctx context.Context, ix *Index, p Page, key func(Page) string, order ...string) (T, bool) {
	var zero T
	if p.Number <= 1 || p.Limit <= 0 {
		return zero, false
	}
	got, ok := readdb.Peek[keptPage[T]](ctx, ix.rd, key(Page{Number: p.Number - 1, Limit: p.Limit}), order...)
	if !ok || len(got.list) != p.Limit {
		return zero, false
	}
	return got.list[p.Limit-1], true
}

func readKey(kind string, sql string, args ...any) string { return readdb.Key(kind, sql, args...) }

func notFound(format string, args ...any) error { return readdb.NotFound(format, args...) }

func formatTime(ns int64) string { return readdb.FormatTime(ns) }

func sqlInt(v uint64) (int64, error) { return readdb.Int(v) }

// RememberAnswer keeps an answer the API builds from several of the
// index's reads (a user's dashboard) until the projection changes, under
// the same rule as the index's own reads: key must name everything the
// answer depends on besides the projection (the user, their token's view,
// their preferences, the site's URL), and callers must not change it.
// The cache cannot see which tables build reads, so any write moves the
// answer on.
func RememberAnswer[T any](ix *Index, key string, size int64, build func() (T, error)) (T, error) {
	return readdb.RememberSized(context.Background(), ix.rd, readdb.Key("answer", key), func(context.Context) (T, error) { return build() },
		func(T) int64 { return size })
}
