package index_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dforge/dforge/internal/index"
)

// An issue's comments and timeline, and a repository's comments, are
// paged by a seek (readdb.SeekPage): every page holds what OFFSET would
// give, in order, without the deleted comments, and each page's total is
// the list's.
func TestCommentPagesSeekThroughTheThread(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet().addr, newWallet().addr
		ix, act := actingIndex(t, dsn)
		act(alice, "repo.create", map[string]any{"name": "x"})
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "long thread"})
		const written = 23
		for i := range written {
			act(bob, "issue.comment", map[string]any{"repo": 1, "number": 1, "body": fmt.Sprintf("comment %d", i)})
		}
		all, total, err := ix.Comments(ctx, 1, 1, index.Page{Number: 1, Limit: 100})
		if err != nil || total != written || len(all) != written {
			t.Fatalf("the whole thread: %d of %d, %v", len(all), total, err)
		}
		act(bob, "comment.delete", map[string]any{"repo": 1, "comment": all[4].ID})
		act(bob, "comment.delete", map[string]any{"repo": 1, "comment": all[16].ID})
		want := []string{}
		for i := range written {
			if i != 4 && i != 16 {
				want = append(want, fmt.Sprintf("comment %d", i))
			}
		}

		got := []string{}
		for page := 1; page <= 7; page++ {
			list, total, err := ix.Comments(ctx, 1, 1, index.Page{Number: page, Limit: 4})
			if err != nil {
				t.Fatalf("page %d: %v", page, err)
			}
			if total != int64(len(want)) {
				t.Fatalf("page %d: total %d, want %d", page, total, len(want))
			}
			if wantLen := min(4, max(0, len(want)-(page-1)*4)); len(list) != wantLen {
				t.Fatalf("page %d: %d comments, want %d", page, len(list), wantLen)
			}
			for _, c := range list {
				got = append(got, c.Body)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("the pages in turn:\n got %v\nwant %v", got, want)
		}

		// The timeline (its comments among its other events) too.
		act(alice, "issue.close", map[string]any{"repo": 1, "number": 1, "reason": "completed"})
		act(alice, "issue.reopen", map[string]any{"repo": 1, "number": 1})
		events, total, err := ix.Timeline(ctx, 1, 1, index.Page{Number: 1, Limit: 200})
		if err != nil || int64(len(events)) != total || len(events) < len(want)+2 {
			t.Fatalf("the whole timeline: %d of %d, %v", len(events), total, err)
		}
		var wantEvents, gotEvents []string
		for _, e := range events {
			wantEvents = append(wantEvents, fmt.Sprint(e.ID, e.Kind))
		}
		for page := 1; page <= int(total)/4+2; page++ {
			list, n, err := ix.Timeline(ctx, 1, 1, index.Page{Number: page, Limit: 4})
			if err != nil || n != total {
				t.Fatalf("timeline page %d: total %d, want %d, %v", page, n, total, err)
			}
			for _, e := range list {
				gotEvents = append(gotEvents, fmt.Sprint(e.ID, e.Kind))
			}
		}
		if fmt.Sprint(gotEvents) != fmt.Sprint(wantEvents) {
			t.Fatalf("the timeline's pages in turn:\n got %v\nwant %v", gotEvents, wantEvents)
		}

		// The repository's list of every thread's comments pages the same way.
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "short thread"})
		act(alice, "issue.comment", map[string]any{"repo": 1, "number": 2, "body": "on the second"})
		want = append(want, "on the second")
		got = got[:0]
		for page := 1; page <= 8; page++ {
			list, total, err := ix.RepoComments(ctx, 1, index.CommentFilter{}, index.Page{Number: page, Limit: 3})
			if err != nil || total != int64(len(want)) {
				t.Fatalf("repository page %d: total %d, want %d, %v", page, total, len(want), err)
			}
			for _, c := range list {
				got = append(got, c.Body)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("the repository's pages in turn:\n got %v\nwant %v", got, want)
		}

		// A full page's total is its thread's counter: a new comment on
		// the thread moves it at once, though the page was kept, and the
		// repository's total with it.
		thread := int64(written - 2)
		if _, n, err := ix.Comments(ctx, 1, 1, index.Page{Number: 1, Limit: 4}); err != nil || n != thread {
			t.Fatalf("the thread's total: %d, want %d, %v", n, thread, err)
		}
		act(bob, "issue.comment", map[string]any{"repo": 1, "number": 1, "body": "one more"})
		if _, n, err := ix.Comments(ctx, 1, 1, index.Page{Number: 1, Limit: 4}); err != nil || n != thread+1 {
			t.Fatalf("the thread's total after a comment: %d, want %d, %v", n, thread+1, err)
		}
		if _, n, err := ix.RepoComments(ctx, 1, index.CommentFilter{}, index.Page{Number: 1, Limit: 3}); err != nil || n != int64(len(want)+1) {
			t.Fatalf("the repository's total after a comment: %d, want %d, %v", n, len(want)+1, err)
		}
	})
}
