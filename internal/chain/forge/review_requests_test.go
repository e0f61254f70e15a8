package forge_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Review requests: by the author or writers, of people who may read, each
// once; a review of the requested person answers it.
func TestReviewRequests(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	pr := w.ok(writer, "pr.create", m{"repo": id, "title": "t", "headBranch": "f", "headSha": sha1, "baseSha": sha2}).Issue.Number
	ask := func(who ...string) m { return m{"repo": id, "number": pr, "reviewers": who} }
	c := w.ok(writer, "pr.review.request", ask(maint.Hex(), reader.Hex()))
	if len(c.Pull.Requested) != 2 || c.Pull.Requested[0].Reviewer != maint || c.Pull.Requested[0].ID == 0 || c.RepoID() != id {
		t.Fatalf("requested = %+v", c.Pull.Requested)
	}
	if c := w.ok(writer, "pr.review.request", ask(maint.Hex())); len(c.Pull.Requested) != 2 {
		t.Fatalf("asked twice = %+v", c.Pull.Requested)
	}
	w.fails(tx.CodeForbidden, reader, "pr.review.request", ask(maint.Hex()))
	w.fails(tx.CodeInvalidField, writer, "pr.review.request", ask(writer.Hex()))
	w.fails(tx.CodeInvalidField, writer, "pr.review.request", ask())
	w.fails(tx.CodeInvalidField, writer, "pr.review.request", ask(maint.Hex(), maint.Hex()))
	c = w.ok(reader, "pr.review", m{"repo": id, "number": pr, "state": "comment", "body": "hm", "commitSha": sha1})
	if c.Pull == nil || len(c.Pull.Requested) != 1 || c.Pull.Requested[0].Reviewer != maint {
		t.Fatalf("after the reader's review = %+v", c.Pull)
	}
	if c := w.ok(maint, "pr.review.unrequest", ask(maint.Hex())); len(c.Pull.Requested) != 0 {
		t.Fatalf("after unrequest = %+v", c.Pull.Requested)
	}
}

// A dismissed approval no longer counts toward the required approvals;
// undismissed, it does; a new verdict of its author ends the dismissal.
func TestReviewDismissal(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": forge.ZeroSHA, "new": sha2})
	pr := w.ok(writer, "pr.create", m{"repo": id, "title": "t", "headBranch": "f", "headSha": sha1, "baseSha": sha2}).Issue.Number
	w.ok(owner, "branch.protect", m{"repo": id, "branch": "main", "requiredApprovals": 1})
	rv := w.ok(maint, "pr.review", m{"repo": id, "number": pr, "state": "approve", "commitSha": sha1}).Review.ID
	dismiss := m{"repo": id, "number": pr, "review": rv, "reviewer": maint.Hex(), "message": "stale"}
	w.fails(tx.CodeForbidden, writer, "pr.review.dismiss", dismiss)
	w.fails(tx.CodeInvalidText, owner, "pr.review.dismiss", m{"repo": id, "number": pr, "review": rv, "reviewer": maint.Hex(), "message": "a\x00"})
	c := w.ok(owner, "pr.review.dismiss", dismiss)
	if c.Dismissal == nil || !c.Dismissal.Dismissed || len(c.Pull.Approvers) != 0 {
		t.Fatalf("dismissed = %+v %+v", c.Dismissal, c.Pull)
	}
	w.fails(tx.CodeConflict, owner, "pr.review.dismiss", dismiss)
	merge := m{"repo": id, "number": pr, "style": "merge", "mergeSha": sha3}
	w.fails(tx.CodeProtectedBranch, owner, "pr.merge", merge)
	undismiss := m{"repo": id, "number": pr, "review": rv}
	if c := w.ok(owner, "pr.review.undismiss", undismiss); len(c.Pull.Approvers) != 1 || c.Dismissal.Dismissed {
		t.Fatalf("undismissed = %+v", c.Pull)
	}
	w.fails(tx.CodeNotFound, owner, "pr.review.undismiss", undismiss)
	// Dismissed again, then replaced by a new verdict: nothing to undismiss.
	w.ok(owner, "pr.review.dismiss", dismiss)
	w.ok(maint, "pr.review", m{"repo": id, "number": pr, "state": "request_changes", "body": "no", "commitSha": sha1})
	w.fails(tx.CodeNotFound, owner, "pr.review.undismiss", undismiss)
	w.fails(tx.CodeProtectedBranch, owner, "pr.merge", merge)
}
