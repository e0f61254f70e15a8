package forge_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Issue 11: names Gitea (or git, or Windows) would refuse never reach state,
// whether a repository is created or renamed.
func TestRepoNamesRefused(t *testing.T) {
	w := newWorld(t)
	id := w.ok(owner, "repo.create", m{"name": "x"}).Repos[0].ID
	for _, bad := range []string{
		"HEAD", "head", "api", "API", // reserved
		"-lead", "-", "--x", // would read as an option
		"a..b", "x..", // Gitea: no ".."
		"CON", "con", "Nul", "aux.txt", "PRN", "COM1", "lpt9", // Windows devices
		"x.atom", // Gitea's patterns
	} {
		w.fails(tx.CodeInvalidName, owner, "repo.create", m{"name": bad})
		w.fails(tx.CodeInvalidName, owner, "repo.update", m{"repo": id, "name": bad})
	}
	for _, good := range []string{".profile", ".github", "lead-", "x-", "heads", "HEAD2", "apis", "my-api", "console", "com10", "a.b.c", "_x"} {
		w.ok(owner, "repo.create", m{"name": good})
	}
}

// A branch called HEAD is refused wherever a branch is named: git refuses
// it (check-ref-format --branch HEAD).
func TestBranchHEADRefused(t *testing.T) {
	w := newWorld(t)
	w.fails(tx.CodeInvalidField, owner, "repo.create", m{"name": "a", "defaultBranch": "HEAD"})
	id := w.ok(owner, "repo.create", m{"name": "b"}).Repos[0].ID
	w.fails(tx.CodeInvalidField, owner, "repo.update", m{"repo": id, "defaultBranch": "HEAD"})
	w.fails(tx.CodeInvalidField, owner, "repo.update", m{"repo": id, "protectedBranches": []string{"main", "HEAD"}})
	w.fails(tx.CodeInvalidField, owner, "repo.push", m{"repo": id, "ref": "refs/heads/HEAD", "old": forge.ZeroSHA, "new": sha1})
	w.fails(tx.CodeInvalidField, owner, "pr.create", m{"repo": id, "title": "t", "headBranch": "HEAD", "headSha": sha1, "baseSha": sha2})
	// Names that only contain HEAD are branches like any other.
	w.ok(owner, "repo.update", m{"repo": id, "defaultBranch": "HEADS"})
	w.ok(owner, "repo.push", m{"repo": id, "ref": "refs/heads/feature/HEAD", "old": forge.ZeroSHA, "new": sha1})
	w.ok(owner, "repo.push", m{"repo": id, "ref": "refs/tags/v1", "old": forge.ZeroSHA, "new": sha1})
}
