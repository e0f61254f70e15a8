package forge_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/tx"
)

// TestCommentEditDelete: a comment's author or a maintainer edits and
// deletes it; others may not; a deleted comment is gone for edits and
// reactions, and its issue counts one comment less.
func TestCommentEditDelete(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	n := w.ok(reader, "issue.create", m{"repo": id, "title": "t"}).Issue.Number
	c := w.ok(reader, "issue.comment", m{"repo": id, "number": n, "body": "first"}).Comment
	other := w.ok(writer, "issue.comment", m{"repo": id, "number": n, "body": "second"}).Comment

	edited := w.ok(reader, "comment.edit", m{"repo": id, "comment": c.ID, "body": "first, fixed"}).Comment
	if !edited.Edited || edited.Body != "first, fixed" || edited.Number != n || edited.Author != reader {
		t.Fatalf("edit = %+v", edited)
	}
	w.fails(tx.CodeForbidden, writer, "comment.edit", m{"repo": id, "comment": c.ID, "body": "mine now"})
	w.fails(tx.CodeInvalidField, reader, "comment.edit", m{"repo": id, "comment": c.ID, "body": "  "})
	w.fails(tx.CodeInvalidText, reader, "comment.edit", m{"repo": id, "comment": c.ID, "body": "nul\x00"})
	w.fails(tx.CodeNotFound, reader, "comment.edit", m{"repo": id, "comment": 999, "body": "x"})
	// A maintainer moderates anyone's.
	w.ok(maint, "comment.edit", m{"repo": id, "comment": other.ID, "body": "moderated"})

	del := w.ok(reader, "comment.delete", m{"repo": id, "comment": c.ID})
	if !del.Comment.Deleted || del.Comment.Body != "" || del.Issue.Comments != 1 {
		t.Fatalf("delete = %+v, issue %+v", del.Comment, del.Issue)
	}
	w.fails(tx.CodeNotFound, reader, "comment.delete", m{"repo": id, "comment": c.ID})
	w.fails(tx.CodeNotFound, reader, "comment.edit", m{"repo": id, "comment": c.ID, "body": "back"})
	w.fails(tx.CodeNotFound, reader, "reaction.add", m{"repo": id, "comment": c.ID, "content": "heart"})
	w.fails(tx.CodeForbidden, reader, "comment.delete", m{"repo": id, "comment": other.ID})
}

// TestReactions: anyone who reads reacts once per kind, on an issue or a
// comment; unknown kinds and double reactions are refused.
func TestReactions(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	n := w.ok(reader, "issue.create", m{"repo": id, "title": "t"}).Issue.Number
	c := w.ok(writer, "issue.comment", m{"repo": id, "number": n, "body": "b"}).Comment
	r := w.ok(stranger, "reaction.add", m{"repo": id, "number": n, "content": "+1"}).Reaction
	if r == nil || !r.On || r.User != stranger || r.Comment != 0 {
		t.Fatalf("reaction = %+v", r)
	}
	w.fails(tx.CodeConflict, stranger, "reaction.add", m{"repo": id, "number": n, "content": "+1"})
	w.fails(tx.CodeInvalidField, stranger, "reaction.add", m{"repo": id, "number": n, "content": "party"})
	w.fails(tx.CodeNotFound, stranger, "reaction.add", m{"repo": id, "number": 99, "content": "+1"})
	onComment := w.ok(reader, "reaction.add", m{"repo": id, "comment": c.ID, "content": "rocket"}).Reaction
	if onComment.Number != n || onComment.Comment != c.ID {
		t.Fatalf("comment reaction = %+v", onComment)
	}
	w.fails(tx.CodeNotFound, reader, "reaction.remove", m{"repo": id, "number": n, "content": "rocket"})
	if off := w.ok(stranger, "reaction.remove", m{"repo": id, "number": n, "content": "+1"}).Reaction; off.On {
		t.Fatalf("removed = %+v", off)
	}
}

// TestPinsAndSubscriptions: writers pin up to three issues; readers
// subscribe themselves, maintainers others.
func TestPinsAndSubscriptions(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	var nums []uint64
	for range 4 {
		nums = append(nums, w.ok(reader, "issue.create", m{"repo": id, "title": "t"}).Issue.Number)
	}
	w.fails(tx.CodeForbidden, reader, "issue.pin", m{"repo": id, "number": nums[0]})
	for _, n := range nums[:3] {
		w.ok(writer, "issue.pin", m{"repo": id, "number": n})
	}
	w.fails(tx.CodeConflict, writer, "issue.pin", m{"repo": id, "number": nums[3]})
	w.fails(tx.CodeConflict, writer, "issue.pin", m{"repo": id, "number": nums[0]})
	pins := w.ok(writer, "issue.unpin", m{"repo": id, "number": nums[1]}).Pins
	if len(pins.Numbers) != 2 || pins.Numbers[0] != nums[0] || pins.Numbers[1] != nums[2] {
		t.Fatalf("pins = %+v", pins)
	}
	w.fails(tx.CodeNotFound, writer, "issue.unpin", m{"repo": id, "number": nums[1]})

	sub := w.ok(stranger, "issue.subscribe", m{"repo": id, "number": nums[0]}).Subscription
	if sub == nil || !sub.On || sub.User != stranger {
		t.Fatalf("subscription = %+v", sub)
	}
	w.ok(stranger, "issue.subscribe", m{"repo": id, "number": nums[0]}) // again: no error
	w.fails(tx.CodeForbidden, stranger, "issue.subscribe", m{"repo": id, "number": nums[0], "user": reader})
	w.ok(maint, "issue.subscribe", m{"repo": id, "number": nums[0], "user": reader})
	w.fails(tx.CodeNotFound, stranger, "issue.subscribe", m{"repo": id, "number": 99})
}
