package index

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/dforge/dforge/internal/index/readdb"
)

// SetRetry shortens ix's retry pauses so a test sees several retries.
func SetRetry(ix *Index, first, max time.Duration) {
	ix.retryMin, ix.retryMax = first, max
}

// Reads is how many reads ix has run on its read pool.
func Reads(ix *Index) int64 { return ix.rd.Reads() }

// WriteInTx runs fn as a projection transaction of ix.
func WriteInTx(ctx context.Context, ix *Index, fn func(*readdb.WriteTx) error) error {
	return ix.inTx(ctx, fn)
}

// Reset empties ix's projection.
func Reset(ctx context.Context, ix *Index) error { return ix.reset(ctx) }

// Ways IssuesAt skips to a page and finds the total.
const (
	PageOffset       = "offset"     // OFFSET through the joins, the total counted
	PageSeekCounting = "seek-count" // a seek (readdb.SeekPage), the total counted
	PageSeek         = "seek"       // as Issues does: a seek, the total from the counters
)

// IssuesAt reads a page of Issues without the read cache, the way mode
// names.
func IssuesAt(ctx context.Context, ix *Index, repo uint64, f IssueFilter, p Page, mode string) ([]Issue, int64, error) {
	where, args := issueWhere(repo, f)
	var page pager
	switch mode {
	case PageOffset:
		page = func(ctx context.Context, cols, from, countFrom, where string, order readdb.Order, args []any, p Page, scan func(*sql.Rows) error) (int64, error) {
			return ix.rd.ListPage(ctx, cols, from, countFrom, where, order.SQL(), args, p, scan)
		}
	case PageSeekCounting:
		page = ix.rd.SeekPage
	case PageSeek:
		page = ix.seekIssues(repo, f)
	default:
		return nil, 0, fmt.Errorf("no page mode %q", mode)
	}
	got, err := ix.readIssues(ctx, repo, where, issueOrders[f.Sort], args, p, page)
	return got.issues, got.total, err
}

// Changed moves the read cache on for tables, as a projection
// transaction that wrote them does.
func Changed(ix *Index, tables ...string) { ix.changed(tables...) }

// NotificationPageKeyed tells whether Notifications reads page p of f
// from right after the last thread of the page before it (lastKept).
func NotificationPageKeyed(ctx context.Context, ix *Index, f NotificationFilter, p Page) bool {
	_, ok := lastKept[Notification](ctx, ix, p, func(p Page) string { return notificationsKey(f, p) })
	return ok
}
