package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

func refUpdates(t *testing.T, n *issuesNode, repo index.Repo) int64 {
	t.Helper()
	_, total, err := n.Index.RefUpdates(context.Background(), repo.ID, index.Page{Number: 1, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// TestPullRequestFromBranchReviewAndMerge: a pull request from a branch of
// the repository, with its commits, files and diff; an approving review
// with an inline comment; a merge refused to a non-maintainer with nothing
// applied; then merged with a merge commit whose parents are the old base
// and the head, recorded on chain with the branch's push.
func TestPullRequestFromBranchReviewAndMerge(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser(), n.NewUser()
	repo := n.repo(alice, "app", false)
	dir := n.dir(repo)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	oldMain := n.branchTip(dir, "main")
	head := n.push(alice, alice, "app", "feature", "main", map[string]string{"src/app.go": "package app\n\nfunc A() {}\n"}, "Add A", "Grow A")

	// 1. Open it: the branches' commits are recorded, and it merges cleanly.
	pr := n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "Add app", "body": "Adds **A**."}).obj()
	if pr["number"] != 1.0 || pr["state"] != "open" || pr["mergeable"] != true || pr["merged"] != false {
		t.Fatalf("opened: %s", mustJSON(pr))
	}
	h, b := pr["head"].(map[string]any), pr["base"].(map[string]any)
	if h["sha"] != head || h["ref"] != "feature" || b["ref"] != "main" || b["sha"] != oldMain || pr["merge_base"] != oldMain {
		t.Fatalf("branches: head %v base %v merge_base %v", h, b, pr["merge_base"])
	}
	if pr["additions"] != 4.0 || pr["changed_files"] != 1.0 || pr["body_html"] != "<p>Adds <strong>A</strong>.</p>\n" {
		t.Fatalf("stats: %v %v %v", pr["additions"], pr["changed_files"], pr["body_html"])
	}
	if op := n.Forge.Operator().Hex(); pr["signer"] != op || pr["delegation"] != op {
		t.Fatalf("signed by %v under %v, want this node's key %s under alice's delegation", pr["signer"], pr["delegation"], op)
	}
	n.must(http.StatusConflict, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "title": "Again"})
	n.must(http.StatusUnprocessableEntity, alice, "POST", base+"/pulls", map[string]any{"head": "nope", "title": "No branch"})
	n.must(http.StatusForbidden, bob, "POST", base+"/pulls", map[string]any{"head": "feature", "title": "Not his"})
	asIssue := n.must(http.StatusOK, nil, "GET", base+"/issues/1", nil).obj()
	if asIssue["pull_request"] == nil {
		t.Fatalf("the conversation as an issue: %v", asIssue)
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/pulls", nil).list(); len(got) != 1 || got[0]["number"] != 1.0 {
		t.Fatalf("pulls: %v", got)
	}

	// 2. Its commits, files and diff.
	commits := n.must(http.StatusOK, nil, "GET", base+"/pulls/1/commits", nil)
	if list := commits.list(); len(list) != 2 || list[0]["sha"] != head || commits.header.Get("X-Total-Count") != "2" ||
		list[1]["commit"].(map[string]any)["message"] != "Add A" || list[0]["cid"] == "" {
		t.Fatalf("commits: %s", commits.body)
	}
	files := n.must(http.StatusOK, nil, "GET", base+"/pulls/1/files", nil).list()
	if len(files) != 1 || files[0]["filename"] != "src/app.go" || files[0]["status"] != "added" || files[0]["additions"] != 4.0 ||
		!strings.Contains(files[0]["patch"].(string), "+func A() {}") {
		t.Fatalf("files: %v", files)
	}
	diff := n.must(http.StatusOK, nil, "GET", base+"/pulls/1.diff", nil)
	if !strings.HasPrefix(string(diff.body), "diff --git a/src/app.go b/src/app.go") {
		t.Fatalf("diff: %s", diff.body)
	}
	patch := n.must(http.StatusOK, nil, "GET", base+"/pulls/1.patch", nil)
	if strings.Count(string(patch.body), "\nSubject: [PATCH") != 2 {
		t.Fatalf("patch: %s", patch.body)
	}

	// 3. Bob approves with an inline comment on line 3 of the new file.
	rv := n.must(http.StatusOK, bob, "POST", base+"/pulls/1/reviews", map[string]any{
		"event": "APPROVED", "body": "LGTM", "comments": []map[string]any{{"path": "src/app.go", "body": "Nice `A`.", "new_position": 3}},
	}).obj()
	if rv["state"] != "APPROVED" || rv["commit_id"] != head || rv["comments_count"] != 1.0 || rv["user"].(map[string]any)["login"] != bob.Name() {
		t.Fatalf("review: %v", rv)
	}
	n.must(http.StatusForbidden, alice, "POST", base+"/pulls/1/reviews", map[string]any{"event": "APPROVED"})
	if op := n.Forge.Operator().Hex(); rv["signer"] != op || rv["delegation"] != op {
		t.Fatalf("review signed by %v under %v, want this node's key %s under bob's delegation", rv["signer"], rv["delegation"], op)
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/pulls/1/reviews", nil).list(); len(got) != 1 || got[0]["id"] != rv["id"] || got[0]["signer"] != rv["signer"] {
		t.Fatalf("reviews: %v", got)
	}
	rc := n.must(http.StatusOK, nil, "GET", base+"/pulls/1/reviews/"+num(rv["id"])+"/comments", nil).list()
	if len(rc) != 1 || rc[0]["path"] != "src/app.go" || rc[0]["position"] != 3.0 || rc[0]["body_html"] != "<p>Nice <code>A</code>.</p>\n" {
		t.Fatalf("review comments: %v", rc)
	}

	// 4. Bob may not merge: nothing moves, nothing is recorded.
	pushes := refUpdates(t, n, repo)
	refused := n.call(bob, "POST", base+"/pulls/1/merge", map[string]any{"Do": "merge"})
	if refused.status != http.StatusForbidden || refused.obj()["code"] != "forbidden" {
		t.Fatalf("bob's merge: %d %s", refused.status, refused.body)
	}
	if n.branchTip(dir, "main") != oldMain || refUpdates(t, n, repo) != pushes {
		t.Fatal("a refused merge moved main or recorded a push")
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/pulls/1", nil).obj(); got["merged"] != false || got["state"] != "open" {
		t.Fatalf("after the refused merge: %v", got)
	}
	n.must(http.StatusNotFound, nil, "GET", base+"/pulls/1/merge", nil)

	// 5. Alice merges with a merge commit.
	merged := n.must(http.StatusOK, alice, "POST", base+"/pulls/1/merge", map[string]any{"Do": "merge"}).obj()
	tip := n.branchTip(dir, "main")
	if merged["merged"] != true || merged["merge_commit_sha"] != tip || merged["state"] != "closed" || merged["merge_style"] != "merge" ||
		merged["merged_by"].(map[string]any)["login"] != alice.Name() {
		t.Fatalf("merged: %s", mustJSON(merged))
	}
	if parents := n.runGit(dir, "rev-list", "--parents", "-n", "1", tip); parents != tip+" "+oldMain+" "+head {
		t.Fatalf("merge commit parents: %s", parents)
	}
	if msg := n.runGit(dir, "log", "-1", "--format=%s%n%cn", tip); msg != "Merge pull request 'Add app' (#1) from feature into main\n"+alice.Name() {
		t.Fatalf("merge commit: %q", msg)
	}
	if refUpdates(t, n, repo) != pushes+1 {
		t.Fatal("the merge's push is not recorded")
	}
	n.must(http.StatusNoContent, nil, "GET", base+"/pulls/1/merge", nil)
	n.must(http.StatusConflict, alice, "POST", base+"/pulls/1/merge", map[string]any{"Do": "merge"})
	// A merged pull request still shows its commits.
	if got := n.must(http.StatusOK, nil, "GET", base+"/pulls/1/commits", nil).list(); len(got) != 2 {
		t.Fatalf("commits after the merge: %d", len(got))
	}
}

// TestPullRequestFromFork: bob opens a pull request from his fork; its
// commits are fetched into the base repository (refs/pull/N/head), and a
// new commit on his branch updates the pull request.
func TestPullRequestFromFork(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser(), n.NewUser()
	repo := n.repo(alice, "lib", false)
	fork := n.fork(bob, repo)
	baseDir := n.dir(repo)
	head := n.push(bob, bob, "lib", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
	base := "/api/v1/repos/" + alice.Name() + "/lib"

	pr := n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "base": "main", "title": "Fix it"}).obj()
	h := pr["head"].(map[string]any)
	if h["sha"] != head || h["label"] != bob.Name()+":fix" || h["repo_id"] != float64(fork.ID) || pr["mergeable"] != true {
		t.Fatalf("fork pull request: %s", mustJSON(pr))
	}
	if got := n.runGit(baseDir, "rev-parse", "refs/pull/1/head"); got != head {
		t.Fatalf("refs/pull/1/head = %s, want %s", got, head)
	}
	if refs := n.runGit(baseDir, "for-each-ref", "refs/dforge/"); refs != "" {
		t.Fatalf("left-over refs: %s", refs)
	}
	// A stranger's head: alice has no fork, carol may not use bob's.
	carol := n.NewUser()
	n.must(http.StatusForbidden, carol, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Not hers"})

	// Bob pushes again: reading the pull request records the new head.
	next := n.push(bob, bob, "lib", "fix", "fix", map[string]string{"fix.txt": "fixed twice\n"})
	got := n.must(http.StatusOK, nil, "GET", base+"/pulls/1", nil).obj()
	if got["head"].(map[string]any)["sha"] != next {
		t.Fatalf("head after a push: %v, want %s", got["head"], next)
	}
	rec, err := n.Index.Pull(context.Background(), repo.ID, 1)
	if err != nil || rec.HeadSHA != next {
		t.Fatalf("recorded head: %+v %v", rec, err)
	}
	if got := n.runGit(baseDir, "rev-parse", "refs/pull/1/head"); got != next {
		t.Fatalf("refs/pull/1/head = %s, want %s", got, next)
	}

	// Alice squashes it: one commit on main, with bob as its author.
	oldMain := n.branchTip(baseDir, "main")
	merged := n.must(http.StatusOK, alice, "POST", base+"/pulls/1/merge", map[string]any{"Do": "squash", "MergeMessageField": "Fixes the thing."}).obj()
	tip := n.branchTip(baseDir, "main")
	if merged["merge_commit_sha"] != tip || merged["merge_style"] != "squash" {
		t.Fatalf("squashed: %s", mustJSON(merged))
	}
	if parents := n.runGit(baseDir, "rev-list", "--parents", "-n", "1", tip); parents != tip+" "+oldMain {
		t.Fatalf("squash commit parents: %s", parents)
	}
	if log := n.runGit(baseDir, "log", "-1", "--format=%an|%cn|%B", tip); log != bob.Name()+"|"+alice.Name()+"|Fix it (#1)\n\nFixes the thing." {
		t.Fatalf("squash commit: %q", log)
	}
	if got := n.runGit(baseDir, "show", tip+":fix.txt"); got != "fixed twice" {
		t.Fatalf("squashed content: %q", got)
	}
}

// TestRebaseMergeAndConflicts: a rebase replays the head's commits onto a
// base that moved; a pull request whose changes conflict says which files,
// and merging it is refused with them.
func TestRebaseMergeAndConflicts(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice := n.NewUser()
	repo := n.repo(alice, "svc", false)
	dir := n.dir(repo)
	base := "/api/v1/repos/" + alice.Name() + "/svc"
	n.push(alice, alice, "svc", "topic", "main", map[string]string{"topic.txt": "one\n"}, "Topic one", "Topic two")
	n.push(alice, alice, "svc", "clash", "main", map[string]string{"README.md": "# clash\n"}, "Rewrite the README")
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "topic", "title": "Topic"})
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "clash", "title": "Clash"})
	// main moves on, touching the README the second pull request rewrites.
	moved := n.push(alice, alice, "svc", "main", "main", map[string]string{"README.md": "# svc\n\nchanged on main\n"}, "Main moves")

	// 1. The conflict is reported, and the merge refused with its files.
	pr2 := n.must(http.StatusOK, nil, "GET", base+"/pulls/2", nil).obj()
	if pr2["mergeable"] != false || mustJSON(pr2["conflicted_files"]) != `["README.md"]` {
		t.Fatalf("conflicted pull request: %v %v", pr2["mergeable"], pr2["conflicted_files"])
	}
	pushes := refUpdates(t, n, repo)
	refused := n.call(alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "merge"})
	if refused.status != http.StatusConflict || refused.obj()["code"] != "merge_conflict" || mustJSON(refused.obj()["files"]) != `["README.md"]` {
		t.Fatalf("conflicting merge: %d %s", refused.status, refused.body)
	}
	if n.branchTip(dir, "main") != moved || refUpdates(t, n, repo) != pushes {
		t.Fatal("a refused merge moved main or recorded a push")
	}

	// 2. Rebase: the two commits replayed onto the moved main, linear.
	merged := n.must(http.StatusOK, alice, "POST", base+"/pulls/1/merge", map[string]any{"Do": "rebase"}).obj()
	tip := n.branchTip(dir, "main")
	if merged["merge_commit_sha"] != tip || merged["merge_style"] != "rebase" {
		t.Fatalf("rebased: %s", mustJSON(merged))
	}
	if log := n.runGit(dir, "log", "--format=%s|%P", "-3", tip); !strings.HasPrefix(log, "Topic two|") ||
		!strings.Contains(log, "\nTopic one|"+moved+"\nMain moves|") {
		t.Fatalf("rebased history:\n%s", log)
	}
	if merges := n.runGit(dir, "rev-list", "--merges", moved+".."+tip); merges != "" {
		t.Fatalf("a rebase made merge commits: %s", merges)
	}
	if got := n.runGit(dir, "show", tip+":README.md"); got != "# svc\n\nchanged on main" {
		t.Fatalf("README after the rebase: %q", got)
	}
}

// TestFastForwardRebaseMergeAndDeleteBranch: fast-forward-only moves main
// to the head without a commit and, with delete_branch_after_merge,
// deletes the head branch through a recorded ref update; once main has
// moved, fast-forward-only is refused with nothing recorded; rebase-merge
// replays the head onto main and joins them with a merge commit, keeping
// the branch when not asked to delete it.
func TestFastForwardRebaseMergeAndDeleteBranch(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice := n.NewUser()
	repo := n.repo(alice, "styles", false)
	dir := n.dir(repo)
	base := "/api/v1/repos/" + alice.Name() + "/styles"
	oldMain := n.branchTip(dir, "main")
	ffTip := n.push(alice, alice, "styles", "ff", "main", map[string]string{"ff.txt": "ff\n"}, "FF one", "FF two")
	n.push(alice, alice, "styles", "rm", "main", map[string]string{"rm.txt": "rm\n"}, "RM one", "RM two")
	n.push(alice, alice, "styles", "late", "main", map[string]string{"late.txt": "late\n"}, "Late")
	for _, head := range []string{"ff", "rm", "late"} {
		n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": head, "title": head})
	}

	// 1. fast-forward-only: main is the head, no commit made; the head
	// branch is deleted, the deletion recorded after the merge's push.
	merged := n.must(http.StatusOK, alice, "POST", base+"/pulls/1/merge",
		map[string]any{"Do": "fast-forward-only", "delete_branch_after_merge": true}).obj()
	if tip := n.branchTip(dir, "main"); tip != ffTip || merged["merge_commit_sha"] != ffTip || merged["merge_style"] != "fast-forward-only" {
		t.Fatalf("fast-forward: main %s, merged %s", tip, mustJSON(merged))
	}
	if merges := n.runGit(dir, "rev-list", "--merges", oldMain+".."+ffTip); merges != "" {
		t.Fatalf("a fast-forward made merge commits: %s", merges)
	}
	if left := n.runGit(dir, "for-each-ref", "refs/heads/ff"); left != "" {
		t.Fatalf("the head branch is still there: %s", left)
	}
	updates, _, err := n.Index.RefUpdates(context.Background(), repo.ID, index.Page{Number: 1, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(updates) != 2 || updates[0].Ref != "refs/heads/ff" || updates[0].Old != ffTip || strings.Trim(updates[0].New, "0") != "" ||
		updates[1].Ref != "refs/heads/main" || updates[1].Old != oldMain || updates[1].New != ffTip {
		t.Fatalf("recorded ref updates: %s", mustJSON(updates))
	}

	// 2. main has moved: late no longer fast-forwards; nothing moves.
	pushes := refUpdates(t, n, repo)
	refused := n.call(alice, "POST", base+"/pulls/3/merge", map[string]any{"Do": "fast-forward-only", "delete_branch_after_merge": true})
	if refused.status != http.StatusConflict || refused.obj()["code"] != "not_fast_forward" || !strings.Contains(refused.obj()["message"].(string), "cannot be fast-forwarded") {
		t.Fatalf("fast-forward of a moved base: %d %s", refused.status, refused.body)
	}
	if n.branchTip(dir, "main") != ffTip || refUpdates(t, n, repo) != pushes || n.runGit(dir, "for-each-ref", "refs/heads/late") == "" {
		t.Fatal("a refused fast-forward moved main, recorded a push or deleted the branch")
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/pulls/3", nil).obj(); got["merged"] != false || got["state"] != "open" {
		t.Fatalf("after the refused fast-forward: %v", got)
	}

	// 3. rebase-merge: rm's commits replayed onto main, joined by a merge
	// commit whose parents are the old main and the rebased head.
	merged = n.must(http.StatusOK, alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "rebase-merge"}).obj()
	tip := n.branchTip(dir, "main")
	if merged["merge_commit_sha"] != tip || merged["merge_style"] != "rebase-merge" {
		t.Fatalf("rebase-merged: %s", mustJSON(merged))
	}
	parents := strings.Fields(n.runGit(dir, "log", "-1", "--format=%P", tip))
	if len(parents) != 2 || parents[0] != ffTip {
		t.Fatalf("merge commit parents: %v", parents)
	}
	if log := n.runGit(dir, "log", "--format=%s|%P", "-2", parents[1]); !strings.HasPrefix(log, "RM two|") || !strings.HasSuffix(log, "\nRM one|"+ffTip) {
		t.Fatalf("rebased head:\n%s", log)
	}
	if msg := n.runGit(dir, "log", "-1", "--format=%s", tip); !strings.HasPrefix(msg, "Merge pull request 'rm' (#2)") {
		t.Fatalf("merge commit: %q", msg)
	}
	if got := n.runGit(dir, "show", tip+":rm.txt"); got != "rm\nmore" {
		t.Fatalf("rm.txt after the merge: %q", got)
	}
	if n.runGit(dir, "for-each-ref", "refs/heads/rm") == "" {
		t.Fatal("rm was deleted without delete_branch_after_merge")
	}
}

// TestDeleteBranchAfterMergeKeeps: delete_branch_after_merge leaves a
// protected head branch and a fork's branch where they are, and the merges
// still succeed; nothing but the base branch's move is recorded.
func TestDeleteBranchAfterMergeKeeps(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser(), n.NewUser()
	repo := n.repo(alice, "kept", false)
	fork := n.fork(bob, repo)
	dir, forkDir := n.dir(repo), n.dir(fork)
	base := "/api/v1/repos/" + alice.Name() + "/kept"
	n.push(alice, alice, "kept", "release", "main", map[string]string{"release.txt": "r\n"}, "Release")
	n.must(http.StatusOK, alice, "PATCH", base, map[string]any{"protected_branches": []string{"main", "release"}})
	fix := n.push(bob, bob, "kept", "fix", "main", map[string]string{"fix.txt": "f\n"}, "Fix")
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "release", "title": "Release"})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix"})

	for number, style := range map[int]string{1: "rebase-merge", 2: "merge"} {
		before := refUpdates(t, n, repo)
		merged := n.must(http.StatusOK, alice, "POST", fmt.Sprintf("%s/pulls/%d/merge", base, number),
			map[string]any{"Do": style, "delete_branch_after_merge": true}).obj()
		if merged["merged"] != true || refUpdates(t, n, repo) != before+1 {
			t.Fatalf("#%d: merged %v, ref updates %d -> %d", number, merged["merged"], before, refUpdates(t, n, repo))
		}
	}
	if n.runGit(dir, "for-each-ref", "refs/heads/release") == "" {
		t.Fatal("the protected head branch was deleted")
	}
	if n.branchTip(forkDir, "fix") != fix {
		t.Fatal("the fork's head branch was deleted")
	}
}

func num(v any) string {
	return strings.TrimSuffix(mustJSON(v), ".0")
}

// TestPrivatePullRequest: a private repository's pull requests live in the
// node's private store; anyone else gets 404, merge included.
func TestPrivatePullRequest(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, carol := n.NewUser(), n.NewUser()
	repo := n.repo(alice, "hidden", true)
	dir := n.dir(repo)
	head := n.push(alice, alice, "hidden", "work", "main", map[string]string{"w.txt": "w\n"})
	base := "/api/v1/repos/" + alice.Name() + "/hidden"
	pr := n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "work", "title": "Work"}).obj()
	if pr["head"].(map[string]any)["sha"] != head || pr["id"].(float64) < 1<<52 {
		t.Fatalf("private pull request: %s", mustJSON(pr))
	}
	if commits := n.must(http.StatusOK, alice, "GET", base+"/pulls/1/commits", nil).list(); len(commits) != 1 || commits[0]["cid"] != nil {
		t.Fatalf("private commits carry no CID: %v", commits)
	}
	oldMain := n.branchTip(dir, "main")
	for _, who := range []*forgetest.User{nil, carol} {
		n.must(http.StatusNotFound, who, "GET", base+"/pulls/1", nil)
		n.must(http.StatusNotFound, who, "GET", base+"/pulls/1.diff", nil)
		n.must(http.StatusNotFound, who, "GET", fmt.Sprintf("/api/v1/issues/%.0f", pr["id"].(float64)), nil)
	}
	n.must(http.StatusNotFound, carol, "POST", base+"/pulls/1/merge", map[string]any{"Do": "merge"})
	if n.branchTip(dir, "main") != oldMain {
		t.Fatal("a stranger's merge moved main")
	}
	merged := n.must(http.StatusOK, alice, "POST", base+"/pulls/1/merge", map[string]any{"Do": "rebase"}).obj()
	if merged["merged"] != true || merged["merge_commit_sha"] != head || n.branchTip(dir, "main") != head {
		t.Fatalf("fast-forward rebase of a private pull request: %s", mustJSON(merged))
	}
}

// TestPullRequestLabelsAssigneesAndStateNeedPermission: labels and
// assignees on a new pull request need write permission on the base, and a
// refusal opens nothing; a writer's are set on it. An edit that also closes
// is refused whole to one who is neither its author nor a maintainer.
func TestPullRequestLabelsAssigneesAndStateNeedPermission(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	repo := n.repo(alice, "lib", false)
	n.fork(bob, repo)
	n.push(bob, bob, "lib", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
	n.push(alice, alice, "lib", "feat", "main", map[string]string{"feat.txt": "new\n"})
	base := "/api/v1/repos/" + alice.Name() + "/lib"
	label := n.must(http.StatusCreated, alice, "POST", base+"/labels", map[string]any{"name": "bug", "color": "ee0701"}).obj()

	// 1. Bob, a reader of the base, may open one from his fork, but not set
	// its labels or assignees: the refusal opens nothing.
	for _, extra := range []map[string]any{{"labels": []any{label["id"]}}, {"assignees": []string{alice.Name()}}} {
		body := map[string]any{"head": bob.Name() + ":fix", "title": "Fix it"}
		for k, v := range extra {
			body[k] = v
		}
		res := n.call(bob, "POST", base+"/pulls", body)
		if res.status != http.StatusForbidden || !strings.Contains(res.obj()["message"].(string), "labels or assignees") {
			t.Fatalf("bob's pull request with %v: %d %s", extra, res.status, res.body)
		}
	}
	if got := n.must(http.StatusOK, nil, "GET", base+"/pulls?state=all", nil).list(); len(got) != 0 {
		t.Fatalf("a refused pull request was opened: %v", got)
	}
	n.must(http.StatusUnprocessableEntity, alice, "POST", base+"/pulls", map[string]any{"head": "feat", "title": "X", "assignees": []string{"nobody-here"}})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix it"})

	// 2. Alice's own, with a label and an assignee.
	pr := n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{
		"head": "feat", "title": "Feature", "labels": []any{label["id"]}, "assignee": alice.Name(),
	}).obj()
	labels, _ := pr["labels"].([]any)
	assignees, _ := pr["assignees"].([]any)
	if pr["number"] != 2.0 || len(labels) != 1 || labels[0].(map[string]any)["name"] != "bug" ||
		len(assignees) != 1 || assignees[0].(map[string]any)["login"] != alice.Name() {
		t.Fatalf("alice's pull request: %s", mustJSON(pr))
	}

	// 3. Carol may not retitle and close bob's: nothing changes.
	n.must(http.StatusForbidden, carol, "PATCH", base+"/pulls/1", map[string]any{"title": "Mine now", "state": "closed"})
	if got := n.must(http.StatusOK, nil, "GET", base+"/pulls/1", nil).obj(); got["title"] != "Fix it" || got["state"] != "open" {
		t.Fatalf("after carol's refused edit: %v %v", got["title"], got["state"])
	}
	// Bob, its author, may.
	if got := n.must(http.StatusCreated, bob, "PATCH", base+"/pulls/1", map[string]any{"title": "Fix it well", "state": "closed"}).obj(); got["title"] != "Fix it well" || got["state"] != "closed" {
		t.Fatalf("bob's edit: %v %v", got["title"], got["state"])
	}
}
