package forge_test

import (
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// TestMilestones: writers manage a repository's milestones and file
// issues under them; readers and strangers may not; bad fields are
// refused by name; a deleted milestone leaves no issue filed under it.
func TestMilestones(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	v1 := w.ok(writer, "milestone.create", m{"repo": id, "title": "v1", "description": "first\n\tcut", "due": 1767225600}).Milestone
	if v1 == nil || v1.ID != 1 || v1.State != forge.StateOpen || v1.Due != 1767225600 || v1.Repo != id {
		t.Fatalf("milestone = %+v", v1)
	}
	// Permissions: readers and strangers may not manage milestones.
	w.fails(tx.CodeForbidden, reader, "milestone.create", m{"repo": id, "title": "v2"})
	w.fails(tx.CodeForbidden, reader, "milestone.edit", m{"repo": id, "milestone": v1.ID, "title": "v2"})
	w.fails(tx.CodeForbidden, reader, "milestone.delete", m{"repo": id, "milestone": v1.ID})
	// Bad input, named by field.
	for _, bad := range []m{
		{"repo": id, "title": ""},
		{"repo": id, "title": strings.Repeat("t", forge.MaxTitle+1)},
		{"repo": id, "title": "t", "description": strings.Repeat("d", forge.MaxMilestoneDesc+1)},
		{"repo": id, "title": "t", "state": "done"},
		{"repo": id, "title": "t", "due": uint64(1) << 62},
	} {
		w.fails(tx.CodeInvalidField, writer, "milestone.create", bad)
	}
	w.fails(tx.CodeInvalidText, writer, "milestone.create", m{"repo": id, "title": "a\nb"})
	w.fails(tx.CodeInvalidText, writer, "milestone.create", m{"repo": id, "title": "t", "description": "nul\x00"})
	// A reader's issue may not pick a milestone; a writer's may.
	w.fails(tx.CodeForbidden, reader, "issue.create", m{"repo": id, "title": "t", "milestone": v1.ID})
	n := w.ok(writer, "issue.create", m{"repo": id, "title": "t", "milestone": v1.ID}).Issue
	if n.Milestone != v1.ID {
		t.Fatalf("issue milestone = %d", n.Milestone)
	}
	other := w.ok(owner, "repo.create", m{"name": "other"}).Repos[0].ID
	foreign := w.ok(owner, "milestone.create", m{"repo": other, "title": "v1"}).Milestone.ID
	w.fails(tx.CodeInvalidField, writer, "issue.edit", m{"repo": id, "number": n.Number, "milestone": foreign})
	w.fails(tx.CodeForbidden, reader, "issue.edit", m{"repo": id, "number": n.Number, "milestone": 0})
	w.fails(tx.CodeNotFound, writer, "milestone.edit", m{"repo": id, "milestone": foreign, "title": "mine"})
	// Closing and reopening a milestone.
	closed := w.ok(writer, "milestone.edit", m{"repo": id, "milestone": v1.ID, "state": "closed", "due": 0}).Milestone
	if closed.State != forge.StateClosed || closed.ClosedHeight == 0 || closed.Due != 0 || closed.Title != "v1" {
		t.Fatalf("closed milestone = %+v", closed)
	}
	if open := w.ok(writer, "milestone.edit", m{"repo": id, "milestone": v1.ID, "state": "open"}).Milestone; open.ClosedHeight != 0 {
		t.Fatalf("reopened milestone = %+v", open)
	}
	// Deleting it takes the issue out of it.
	if c := w.ok(writer, "milestone.delete", m{"repo": id, "milestone": v1.ID}); c.DeletedMilestone == nil || c.DeletedMilestone.ID != v1.ID {
		t.Fatalf("delete = %+v", c)
	}
	w.fails(tx.CodeNotFound, writer, "milestone.delete", m{"repo": id, "milestone": v1.ID})
	if c := w.ok(reader, "issue.comment", m{"repo": id, "number": n.Number, "body": "x"}); c.Issue.Milestone != 0 {
		t.Fatalf("the deleted milestone is still on the issue: %d", c.Issue.Milestone)
	}
	w.fails(tx.CodeInvalidField, writer, "issue.edit", m{"repo": id, "number": n.Number, "milestone": v1.ID})
}
