package forge_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Pattern rules: "release/*" protects release/1 but not release/1/x or
// main; an exact rule wins over a pattern; the first-created of two
// matching patterns applies; unprotecting a pattern frees its branches.
func TestBranchProtectPattern(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": forge.ZeroSHA, "new": sha1})
	w.ok(owner, "branch.protect", m{"repo": id, "branch": "release/*", "enablePush": false})
	w.fails(tx.CodeProtectedBranch, writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": sha1, "new": sha2})
	w.fails(tx.CodeProtectedBranch, writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": sha1, "new": forge.ZeroSHA})
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1/x", "old": forge.ZeroSHA, "new": sha1})
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/releases", "old": forge.ZeroSHA, "new": sha1})

	// A later pattern matching too does not apply; an exact rule does.
	w.ok(owner, "branch.protect", m{"repo": id, "branch": "rel*/?", "enablePush": true})
	w.fails(tx.CodeProtectedBranch, writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": sha1, "new": sha2})
	w.ok(owner, "branch.protect", m{"repo": id, "branch": "release/1", "enablePush": true})
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": sha1, "new": sha2})
	w.ok(owner, "branch.unprotect", m{"repo": id, "branch": "release/1"})
	w.fails(tx.CodeProtectedBranch, writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": sha2, "new": sha3})

	// Without the first pattern, the second applies: pushing allowed, deleting not.
	c := w.ok(owner, "branch.unprotect", m{"repo": id, "branch": "release/*"})
	if c.DeletedProtection == nil || c.DeletedProtection.Branch != "release/*" {
		t.Fatalf("deleted = %+v", c.DeletedProtection)
	}
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": sha2, "new": sha3})
	w.fails(tx.CodeProtectedBranch, writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": sha3, "new": forge.ZeroSHA})
	w.ok(owner, "branch.unprotect", m{"repo": id, "branch": "rel*/?"})
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/release/1", "old": sha3, "new": forge.ZeroSHA})

	for _, bad := range []string{"release/[", "release/**/..", "*.lock", "/*"} {
		w.fails(tx.CodeInvalidField, owner, "branch.protect", m{"repo": id, "branch": bad, "enablePush": true})
	}
	w.fails(tx.CodeInvalidText, owner, "branch.protect", m{"repo": id, "branch": "a\x01*", "enablePush": true})
	w.fails(tx.CodeNotFound, owner, "branch.unprotect", m{"repo": id, "branch": "release/*"})
}

func TestRuleMatches(t *testing.T) {
	for _, c := range []struct {
		rule, branch string
		want         bool
	}{
		{"main", "main", true}, {"main", "mainx", false}, {"release/*", "release/1", true},
		{"release/*", "release/1/2", false}, {"release/*", "release", false}, {"v[0-9]", "v1", true}, {"v[0-9]", "vx", false},
	} {
		if got := forge.RuleMatches(c.rule, c.branch); got != c.want {
			t.Errorf("RuleMatches(%q, %q) = %v", c.rule, c.branch, got)
		}
	}
}
