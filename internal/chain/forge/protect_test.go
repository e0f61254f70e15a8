package forge_test

import (
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

const sha4 = "4444444444444444444444444444444444444444"

// Commit statuses: writers set them, every field is checked, the latest of
// a context is what a merge rule reads.
func TestStatusCreate(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	c := w.ok(writer, "status.create", m{"repo": id, "sha": sha1, "state": "pending", "context": "ci/build", "description": "running", "targetUrl": "https://ci.example/1"})
	if c.Status == nil || c.Status.ID != 1 || c.Status.Context != "ci/build" || c.Status.Creator != writer || c.RepoID() != id {
		t.Fatalf("status change = %+v", c.Status)
	}
	if got := w.ok(writer, "status.create", m{"repo": id, "sha": sha1, "state": "success"}).Status; got.Context != forge.DefaultStatusContext || got.ID != 2 {
		t.Fatalf("status without context = %+v", got)
	}
	w.fails(tx.CodeForbidden, reader, "status.create", m{"repo": id, "sha": sha1, "state": "success"})
	w.fails(tx.CodeForbidden, stranger, "status.create", m{"repo": id, "sha": sha1, "state": "success"})
	for _, bad := range []m{
		{"repo": id, "sha": "abc", "state": "success"},
		{"repo": id, "sha": forge.ZeroSHA, "state": "success"},
		{"repo": id, "sha": sha1, "state": "done"},
		{"repo": id, "sha": sha1, "state": "success", "context": "   "},
		{"repo": id, "sha": sha1, "state": "success", "context": strings.Repeat("c", forge.MaxStatusContext+1)},
		{"repo": id, "sha": sha1, "state": "success", "description": strings.Repeat("d", forge.MaxStatusDescription+1)},
		{"repo": id, "sha": sha1, "state": "success", "targetUrl": "javascript:alert(1)"},
		{"repo": id, "sha": sha1, "state": "success", "targetUrl": "https://a b"},
		{"repo": id, "sha": sha1, "state": "success", "targetUrl": "https://"},
	} {
		w.fails(tx.CodeInvalidField, writer, "status.create", bad)
	}
	for _, bad := range []m{
		{"repo": id, "sha": sha1, "state": "success", "context": "ci\nbuild"},
		{"repo": id, "sha": sha1, "state": "success", "description": "a\x00b"},
	} {
		w.fails(tx.CodeInvalidText, writer, "status.create", bad)
	}
}

// Branch protection rules: the owner's; checked; a push to a branch whose
// rule disables pushing is refused whole, a whitelist keeps it to some.
func TestBranchProtectPush(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/dev", "old": forge.ZeroSHA, "new": sha1})
	rule := m{"repo": id, "branch": "dev", "enablePush": false, "statusCheckContexts": []string{"ci"}, "enableStatusCheck": true, "requiredApprovals": 1}
	w.fails(tx.CodeForbidden, maint, "branch.protect", rule)
	c := w.ok(owner, "branch.protect", rule)
	if c.Protection == nil || c.Protection.Branch != "dev" || c.Protection.RequiredApprovals != 1 || c.RepoID() != id {
		t.Fatalf("protection = %+v", c.Protection)
	}
	for _, bad := range []m{
		{"repo": id, "branch": "a..b"},
		{"repo": id, "branch": "dev", "statusCheckContexts": []string{"ci", "ci"}},
		{"repo": id, "branch": "dev", "statusCheckContexts": []string{" "}},
		{"repo": id, "branch": "dev", "requiredApprovals": forge.MaxRequiredApprovals + 1},
		{"repo": id, "branch": "dev", "pushWhitelist": []string{writer.Hex(), writer.Hex()}},
	} {
		w.fails(tx.CodeInvalidField, owner, "branch.protect", bad)
	}
	// Push disabled: refused, together with the other update of the push.
	w.fails(tx.CodeProtectedBranch, owner, "repo.push", m{"repo": id, "updates": []m{
		{"ref": "refs/heads/other", "old": forge.ZeroSHA, "new": sha2}, {"ref": "refs/heads/dev", "old": sha1, "new": sha2}}})
	refs, err := forge.Refs(w.st, id)
	if err != nil || len(refs) != 1 || refs[0].ID != sha1 {
		t.Fatalf("refs after a refused push = %v, %v", refs, err)
	}
	w.fails(tx.CodeProtectedBranch, owner, "repo.push", m{"repo": id, "ref": "refs/heads/dev", "old": sha1, "new": forge.ZeroSHA})
	// Push enabled for a whitelist.
	w.ok(owner, "branch.protect", m{"repo": id, "branch": "dev", "enablePush": true, "pushWhitelist": []string{maint.Hex()}})
	w.fails(tx.CodeProtectedBranch, writer, "repo.push", m{"repo": id, "ref": "refs/heads/dev", "old": sha1, "new": sha2})
	w.ok(maint, "repo.push", m{"repo": id, "ref": "refs/heads/dev", "old": sha1, "new": sha2})
	w.fails(tx.CodeProtectedBranch, maint, "repo.push", m{"repo": id, "ref": "refs/heads/dev", "old": sha2, "new": sha3, "forced": true})
	// Without the rule, anyone who may write pushes again.
	c = w.ok(owner, "branch.unprotect", m{"repo": id, "branch": "dev"})
	if c.DeletedProtection == nil || c.DeletedProtection.Branch != "dev" {
		t.Fatalf("deleted protection = %+v", c.DeletedProtection)
	}
	w.fails(tx.CodeNotFound, owner, "branch.unprotect", m{"repo": id, "branch": "dev"})
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/dev", "old": sha2, "new": sha3})
}

// A merge into a protected branch needs the required checks successful on
// the head and the approvals, both in its push and in pr.merge.
func TestBranchProtectMerge(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": forge.ZeroSHA, "new": sha2})
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/f", "old": forge.ZeroSHA, "new": sha1})
	pr := w.ok(writer, "pr.create", m{"repo": id, "title": "t", "headBranch": "f", "headSha": sha1, "baseSha": sha2}).Issue.Number
	w.ok(owner, "branch.protect", m{"repo": id, "branch": "main", "enableStatusCheck": true, "statusCheckContexts": []string{"ci"}, "requiredApprovals": 1})
	mergePush := m{"repo": id, "ref": "refs/heads/main", "old": sha2, "new": sha3, "merge": pr}
	merge := m{"repo": id, "number": pr, "style": "merge", "mergeSha": sha3}

	// No check reported, then a failing one, then no approval.
	w.fails(tx.CodeProtectedBranch, maint, "repo.push", mergePush)
	w.fails(tx.CodeProtectedBranch, maint, "pr.merge", merge)
	w.ok(writer, "status.create", m{"repo": id, "sha": sha1, "state": "failure", "context": "ci"})
	w.fails(tx.CodeProtectedBranch, maint, "repo.push", mergePush)
	w.ok(writer, "status.create", m{"repo": id, "sha": sha1, "state": "success", "context": "ci"})
	w.fails(tx.CodeProtectedBranch, maint, "repo.push", mergePush)
	// A reader's approval does not count; a maintainer's does.
	w.ok(reader, "pr.review", m{"repo": id, "number": pr, "state": "approve", "commitSha": sha1})
	w.fails(tx.CodeProtectedBranch, maint, "pr.merge", merge)
	w.ok(maint, "pr.review", m{"repo": id, "number": pr, "state": "approve", "commitSha": sha1})
	// A plain push is still refused (push disabled); a writer cannot pass
	// a push off as a merge.
	w.fails(tx.CodeProtectedBranch, maint, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha2, "new": sha3})
	w.fails(tx.CodeForbidden, writer, "repo.push", mergePush)
	w.fails(tx.CodeNotFound, maint, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha2, "new": sha4, "merge": pr + 1})
	w.ok(maint, "repo.push", mergePush)
	if c := w.ok(maint, "pr.merge", merge); c.Pull == nil || !c.Pull.Merged {
		t.Fatalf("merge = %+v", c.Pull)
	}
	w.fails(tx.CodeConflict, maint, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha3, "new": sha4, "merge": pr})
}
