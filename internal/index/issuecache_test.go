package index_test

import (
	"context"
	"testing"

	"github.com/dforge/dforge/internal/index"
)

// An issue and its comments are kept in the read cache per issue
// (issueScope): a comment, an edit or a label on one issue drops only
// that issue's answers, and every answer still tells what the chain holds,
// a milestone's counts of other issues included.
func TestIssueAnswersMoveOnPerIssue(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet().addr, newWallet().addr
		ix, act := actingIndex(t, dsn)
		act(alice, "repo.create", map[string]any{"name": "x"})
		act(alice, "label.create", map[string]any{"repo": 1, "name": "bug", "color": "#ff0000"})
		act(alice, "milestone.create", map[string]any{"repo": 1, "title": "v1"})
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "one"})
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "two"})
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "three"})
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "four"})
		act(alice, "issue.edit", map[string]any{"repo": 1, "number": 3, "milestone": 1})
		act(alice, "issue.edit", map[string]any{"repo": 1, "number": 4, "milestone": 1})

		issue := func(n uint64) (index.Issue, int64) {
			t.Helper()
			before := index.Reads(ix)
			is, err := ix.Issue(ctx, 1, n)
			if err != nil {
				t.Fatal(err)
			}
			return is, index.Reads(ix) - before
		}
		comments := func(n uint64) ([]index.Comment, int64, int64) {
			t.Helper()
			before := index.Reads(ix)
			list, total, err := ix.Comments(ctx, 1, n, index.Page{Number: 1, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			return list, total, index.Reads(ix) - before
		}
		// A read that overlaps a block's projection is not kept: read
		// until the answers come from the cache.
		for try := 0; ; try++ {
			_, a := issue(1)
			_, b := issue(2)
			_, _, c := comments(1)
			_, _, d := comments(2)
			if a+b+c+d == 0 {
				break
			}
			if try == 20 {
				t.Fatal("the answers of #1 and #2 were never kept")
			}
		}

		act(bob, "issue.comment", map[string]any{"repo": 1, "number": 1, "body": "first"})
		if is, reads := issue(2); reads != 0 || is.Title != "two" {
			t.Fatalf("#2 after a comment on #1: %q from %d reads of SQL, want it from the cache", is.Title, reads)
		}
		if _, total, reads := comments(2); reads != 0 || total != 0 {
			t.Fatalf("#2's comments after a comment on #1: %d from %d reads of SQL, want none from the cache", total, reads)
		}
		if is, reads := issue(1); reads == 0 || is.Comments != 1 {
			t.Fatalf("#1 after a comment on it: %d comments from %d reads of SQL, want 1 read afresh", is.Comments, reads)
		}
		list, total, _ := comments(1)
		if total != 1 || len(list) != 1 || list[0].Body != "first" {
			t.Fatalf("#1's comments: %+v (%d), want the one written", list, total)
		}

		act(bob, "comment.edit", map[string]any{"repo": 1, "comment": list[0].ID, "body": "second thoughts"})
		if list, _, reads := comments(1); reads == 0 || len(list) != 1 || list[0].Body != "second thoughts" {
			t.Fatalf("#1's comments after an edit: %+v from %d reads of SQL, want the edit read afresh", list, reads)
		}
		act(alice, "issue.edit", map[string]any{"repo": 1, "number": 1, "labels": []uint64{1}})
		if is, _ := issue(1); len(is.Labels) != 1 || is.Labels[0].Name != "bug" {
			t.Fatalf("#1's labels after an edit: %+v, want bug", is.Labels)
		}
		act(bob, "comment.delete", map[string]any{"repo": 1, "comment": list[0].ID})
		if list, total, _ := comments(1); total != 0 || len(list) != 0 {
			t.Fatalf("#1's comments after the deletion: %+v (%d), want none", list, total)
		}
		if is, _ := issue(1); is.Comments != 0 {
			t.Fatalf("#1 after its comment was deleted: %d comments, want 0", is.Comments)
		}

		// #3's milestone counts #4, which is in another issue's scope.
		if is, _ := issue(3); is.Milestone == nil || is.Milestone.OpenIssues != 2 {
			t.Fatalf("#3's milestone: %+v, want 2 open issues", is.Milestone)
		}
		act(alice, "issue.close", map[string]any{"repo": 1, "number": 4, "reason": "completed"})
		if is, _ := issue(3); is.Milestone == nil || is.Milestone.OpenIssues != 1 || is.Milestone.ClosedIssues != 1 {
			t.Fatalf("#3's milestone after #4 was closed: %+v, want 1 open and 1 closed", is.Milestone)
		}

		// What a caller does with an answer does not reach the cache.
		is, _ := issue(1)
		is.Labels[0].Name = "changed"
		if again, _ := issue(1); again.Labels[0].Name != "bug" {
			t.Fatalf("#1's label after a caller changed its copy: %q, want bug", again.Labels[0].Name)
		}
	})
}
