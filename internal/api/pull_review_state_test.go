package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// pushEvents are the pull_push events of a timeline, with their bodies
// decoded (Gitea's PushActionContent).
func pushEvents(t *testing.T, timeline []map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range timeline {
		if e["type"] != "pull_push" {
			continue
		}
		var body map[string]any
		if err := json.Unmarshal([]byte(e["body"].(string)), &body); err != nil {
			t.Fatalf("pull_push body %q: %v", e["body"], err)
		}
		e["content"] = body
		out = append(out, e)
	}
	return out
}

func ids(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestPullRequestPushAfterChangesRequested: a reviewer asks for changes
// with comments on two lines; the author pushes two commits that change
// one of them. The timeline says who pushed which commits, the review is
// stale, and only the comment whose line changed is outdated. A forced
// push is told as one, and a push to a closed pull request's branch is
// not on its timeline.
func TestPullRequestPushAfterChangesRequested(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser(), n.NewUser()
	repo := n.repo(alice, "mill", false)
	dir := n.dir(repo)
	base := "/api/v1/repos/" + alice.Name() + "/mill"
	first := n.push(alice, alice, "mill", "fast", "main", map[string]string{
		"src/mill.go": "package mill\n\nfunc A() {}\n\nfunc B() {}\n",
		"README.md":   "# mill\n\nline two, longer\nline three\n",
	}, "Add the mill")
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "fast", "base": "main", "title": "Faster mill"})

	// 1. Bob asks for changes, on line 3 (A) and line 5 (B), and on the
	// README's old line 3.
	rv := n.must(http.StatusOK, bob, "POST", base+"/pulls/1/reviews", map[string]any{
		"event": "REQUEST_CHANGES", "body": "A should return something.", "comments": []map[string]any{
			{"path": "src/mill.go", "body": "Return a value.", "new_position": 3},
			{"path": "src/mill.go", "body": "Fine.", "new_position": 5},
			{"path": "README.md", "body": "Why longer?", "old_position": 3},
		},
	}).obj()
	comments := base + "/pulls/1/reviews/" + num(rv["id"]) + "/comments"
	for _, c := range n.must(http.StatusOK, nil, "GET", comments, nil).list() {
		if c["outdated"] != false || c["commit_id"] != first || c["original_commit_id"] != first {
			t.Fatalf("a comment on the head it was made on: %v", c)
		}
	}
	if got := pushEvents(t, n.must(http.StatusOK, nil, "GET", base+"/issues/1/timeline", nil).list()); len(got) != 0 {
		t.Fatalf("pushes before any: %v", got)
	}

	// 2. Alice pushes two commits: A changes, B stays where it was.
	tip := n.push(alice, alice, "mill", "fast", "fast", map[string]string{"src/mill.go": "package mill\n\nfunc A() int { return 1 }\n\nfunc B() {}\n"}, "Return one", "Grow")
	middle := n.runGit(dir, "rev-parse", tip+"^")
	pushes := pushEvents(t, n.must(http.StatusOK, nil, "GET", base+"/issues/1/timeline", nil).list())
	if len(pushes) != 1 {
		t.Fatalf("pushes: %v", pushes)
	}
	p := pushes[0]
	content := p["content"].(map[string]any)
	if p["user"].(map[string]any)["login"] != alice.Name() || content["is_force_push"] != false {
		t.Fatalf("push: %v", p)
	}
	// The push went over HTTP with Alice's token: the node's key signed it
	// under her delegation, and the event says so.
	if op := n.Forge.Operator().Hex(); p["signer"] != op || p["delegation"] != op {
		t.Fatalf("push signed by %v via %v, want the node's key %s", p["signer"], p["delegation"], op)
	}
	if got := ids(content["commit_ids"]); len(got) != 2 || got[0] != middle || got[1] != tip {
		t.Fatalf("pushed commits %v, want [%s %s]", got, middle, tip)
	}
	listed := p["commits"].([]any)
	if c := listed[0].(map[string]any); c["sha"] != middle || c["subject"] != "Return one" || c["html_url"] == "" {
		t.Fatalf("listed commits: %v", listed)
	}

	// 3. The review is stale; the comment on A is outdated, the one on B
	// still describes the head, and so does the one on the base's README
	// (the head did not move the merge base).
	reviews := n.must(http.StatusOK, nil, "GET", base+"/pulls/1/reviews", nil).list()
	if len(reviews) != 1 || reviews[0]["state"] != "REQUEST_CHANGES" || reviews[0]["stale"] != true {
		t.Fatalf("reviews after the push: %v", reviews)
	}
	got := n.must(http.StatusOK, nil, "GET", comments, nil).list()
	if len(got) != 3 {
		t.Fatalf("comments: %v", got)
	}
	if a := got[0]; a["outdated"] != true || a["commit_id"] != first || a["original_commit_id"] != first || a["position"] != 3.0 {
		t.Fatalf("the comment on the changed line: %v", a)
	}
	if b := got[1]; b["outdated"] != false || b["commit_id"] != tip || b["original_commit_id"] != first {
		t.Fatalf("the comment on the unchanged line: %v", b)
	}
	if c := got[2]; c["outdated"] != false || c["original_position"] != 3.0 {
		t.Fatalf("the comment on the base's line: %v", c)
	}

	// 4. A forced push names the old and new heads.
	wt := n.Clone(n.Remote(alice, alice.Name(), "mill"), "--branch", "main")
	n.Git(wt, "checkout", "-q", "-B", "fast")
	redo := n.Commit(wt, "Start over", map[string]string{"src/mill.go": "package mill\n"})
	n.Git(wt, "push", "-q", "--force", "origin", "HEAD:refs/heads/fast")
	pushes = pushEvents(t, n.must(http.StatusOK, nil, "GET", base+"/issues/1/timeline", nil).list())
	if len(pushes) != 2 {
		t.Fatalf("pushes after a forced one: %v", pushes)
	}
	forced := pushes[1]["content"].(map[string]any)
	if got := ids(forced["commit_ids"]); forced["is_force_push"] != true || len(got) != 2 || got[0] != tip || got[1] != redo {
		t.Fatalf("forced push: %v", forced)
	}
	for _, c := range n.must(http.StatusOK, nil, "GET", comments, nil).list() {
		if c["outdated"] != (c["path"] == "src/mill.go") {
			t.Fatalf("after the forced push (the mill's lines gone, the base's as they were): %v", c)
		}
	}

	// 5. Closed, its branch's pushes are not its own any more.
	n.must(http.StatusCreated, alice, "PATCH", base+"/pulls/1", map[string]any{"state": "closed"})
	n.push(alice, alice, "mill", "fast", "fast", map[string]string{"later.txt": "later\n"})
	if got := pushEvents(t, n.must(http.StatusOK, nil, "GET", base+"/issues/1/timeline", nil).list()); len(got) != 2 {
		t.Fatalf("pushes after closing: %v", got)
	}
}
