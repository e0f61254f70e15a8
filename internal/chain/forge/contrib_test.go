package forge_test

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/rewards"
)

// kinds summarises contributions as "kind:account-prefix:reason".
func kinds(cs []rewards.Contribution) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Kind + ":" + c.Account.Hex()[:4] + ":" + c.Reason
	}
	return out
}

func sameList(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A merge reports the PR, its approving reviewers and the issues it
// closes; the forge marks the work that must not pay and why.
func TestMergeReportsTheAcceptedWork(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	bug := w.ok(reader, "issue.create", m{"repo": id, "title": "It crashes"}).Issue.Number
	own := w.ok(writer, "issue.create", m{"repo": id, "title": "Tidy up"}).Issue.Number
	pr := w.ok(writer, "pr.create", m{"repo": id, "title": "Fix the crash", "body": "Fixes #" + itoa(bug) + ", closes #" + itoa(own) + ".",
		"headBranch": "fix", "headSha": sha1, "baseSha": sha2}).Issue.Number
	review := func(state string) m {
		return m{"repo": id, "number": pr, "state": state, "body": "b", "commitSha": sha1}
	}
	w.ok(maint, "pr.review", review("approve"))
	w.ok(reader, "pr.review", review("approve"))
	w.ok(reader, "pr.review", review("request_changes")) // the latest verdict counts
	c := w.ok(owner, "pr.merge", m{"repo": id, "number": pr, "style": "merge", "mergeSha": sha3})
	want := []string{"pr:0x30:", "review:0x20:",
		"issue_reporter:0x40:", "issue_closer:0x30:",
		"issue_reporter:0x30:own_issue", "issue_closer:0x30:own_issue"}
	if got := kinds(c.Contributions); !sameList(got, want) {
		t.Fatalf("contributions %v, want %v", got, want)
	}
	if len(c.ClosedIssues) != 2 || c.ClosedIssues[0].State != forge.StateClosed || c.ClosedIssues[0].StateReason != forge.ReasonCompleted {
		t.Fatalf("closed issues %+v", c.ClosedIssues)
	}
	if c.Repos[0].OpenIssues != 0 || c.Repos[0].Contributors != 1 || c.Contributions[0].RepoContributors != 1 {
		t.Fatalf("repo %+v", c.Repos[0])
	}
}

func TestSelfMergeAndOwnIssuesAreMarked(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	pr := w.ok(maint, "pr.create", m{"repo": id, "title": "Mine", "headBranch": "mine", "headSha": sha1, "baseSha": sha2}).Issue.Number
	c := w.ok(maint, "pr.merge", m{"repo": id, "number": pr, "style": "squash", "mergeSha": sha3})
	if got := kinds(c.Contributions); !sameList(got, []string{"pr:0x20:self_merge"}) {
		t.Fatalf("self-merge: %v", got)
	}
	// An issue closed as completed by a maintainer pays its reporter and
	// the closer; closed by its reporter, or as not planned, nothing.
	a := w.ok(reader, "issue.create", m{"repo": id, "title": "a"}).Issue.Number
	b := w.ok(reader, "issue.create", m{"repo": id, "title": "b"}).Issue.Number
	d := w.ok(reader, "issue.create", m{"repo": id, "title": "d"}).Issue.Number
	if got := kinds(w.ok(maint, "issue.close", m{"repo": id, "number": a}).Contributions); !sameList(got, []string{"issue_reporter:0x40:", "issue_closer:0x20:"}) {
		t.Fatalf("maintainer close: %v", got)
	}
	if got := kinds(w.ok(reader, "issue.close", m{"repo": id, "number": b}).Contributions); !sameList(got, []string{"issue_reporter:0x40:own_issue", "issue_closer:0x40:own_issue"}) {
		t.Fatalf("own close: %v", got)
	}
	if c := w.ok(maint, "issue.close", m{"repo": id, "number": d, "reason": "not_planned"}); len(c.Contributions) != 0 {
		t.Fatalf("not planned: %v", kinds(c.Contributions))
	}
}

func TestPushReportsDefaultBranchCommits(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	author := common.HexToAddress("0x6000000000000000000000000000000000000006")
	push := m{"repo": id, "ref": "refs/heads/main", "old": zero, "new": sha1,
		"commits": []m{{"sha": sha1, "author": author}, {"sha": sha2, "author": writer}, {"sha": sha1, "author": author}}}
	c := w.ok(writer, "repo.push", push)
	if got := kinds(c.Contributions); !sameList(got, []string{"commit:0x60:", "commit:0x30:"}) {
		t.Fatalf("commits: %v", got)
	}
	push["ref"], push["old"], push["new"] = "refs/heads/topic", zero, sha3
	w.fails(4, writer, "repo.push", push) // commits only for the default branch
	w.private = true
	pid := w.ok(owner, "repo.create", m{"name": "p", "private": true}).Repos[0].ID
	c = w.ok(owner, "repo.push", m{"repo": pid, "ref": "refs/heads/main", "old": zero, "new": sha1, "commits": []m{{"sha": sha1, "author": author}}})
	if len(c.Contributions) != 0 {
		t.Fatalf("a private store reported %v", kinds(c.Contributions))
	}
}

const zero = "0000000000000000000000000000000000000000"

func itoa(n uint64) string {
	return string(rune('0' + n)) // issue numbers here are single digits
}
