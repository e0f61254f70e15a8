package api_test

import (
	"net/http"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// A pending review is its author's alone until submitted: the others
// neither list it nor find it by id, and only its author submits or
// deletes it. Submitted, it is on chain for everyone.
func TestPendingReviewPrivateUntilSubmitted(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	n.repo(alice, "app", false)
	n.push(alice, alice, "app", "feature", "main", map[string]string{"src/app.go": "package app\n\nfunc A() {}\n"}, "Add A")
	base := "/api/v1/repos/" + alice.Name() + "/app"
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "Add app"})

	// 1. Bob starts a review (no event) with an inline comment.
	draft := n.must(http.StatusOK, bob, "POST", base+"/pulls/1/reviews", map[string]any{
		"body": "Thinking", "comments": []map[string]any{{"path": "src/app.go", "body": "Hmm.", "new_position": 3}},
	}).obj()
	if draft["state"] != "PENDING" || draft["comments_count"] != 1.0 || draft["user"].(map[string]any)["login"] != bob.Name() {
		t.Fatalf("draft: %v", draft)
	}
	id := num(draft["id"])
	// A second pending review adds to the first, as in Gitea.
	again := n.must(http.StatusOK, bob, "POST", base+"/pulls/1/reviews", map[string]any{
		"event": "PENDING", "comments": []map[string]any{{"path": "src/app.go", "body": "And here.", "new_position": 1}},
	}).obj()
	if num(again["id"]) != id || again["comments_count"] != 2.0 || again["body"] != "Thinking" {
		t.Fatalf("second draft: %v", again)
	}
	if got := n.must(http.StatusOK, bob, "GET", base+"/pulls/1/reviews", nil).list(); len(got) != 1 || got[0]["state"] != "PENDING" {
		t.Fatalf("bob's list: %v", got)
	}
	n.must(http.StatusOK, bob, "GET", base+"/pulls/1/reviews/"+id, nil)
	if c := n.must(http.StatusOK, bob, "GET", base+"/pulls/1/reviews/"+id+"/comments", nil).list(); len(c) != 2 || c[0]["body"] != "Hmm." {
		t.Fatalf("draft comments: %v", c)
	}

	// 2. No one else sees it, nor submits or deletes it.
	for _, u := range []*forgetest.User{nil, alice, carol} {
		if got := n.must(http.StatusOK, u, "GET", base+"/pulls/1/reviews", nil).list(); len(got) != 0 {
			t.Fatalf("a draft shown to another: %v", got)
		}
	}
	n.must(http.StatusNotFound, carol, "GET", base+"/pulls/1/reviews/"+id, nil)
	n.must(http.StatusNotFound, nil, "GET", base+"/pulls/1/reviews/"+id+"/comments", nil)
	n.must(http.StatusNotFound, carol, "POST", base+"/pulls/1/reviews/"+id, map[string]any{"event": "APPROVED"})
	n.must(http.StatusNotFound, carol, "DELETE", base+"/pulls/1/reviews/"+id, nil)

	// 3. A bad event is refused as in Gitea, and the draft stays.
	n.must(http.StatusUnprocessableEntity, bob, "POST", base+"/pulls/1/reviews/"+id, map[string]any{"event": "MAYBE"})
	n.must(http.StatusUnprocessableEntity, bob, "POST", base+"/pulls/1/reviews/"+id, map[string]any{"event": "PENDING"})
	n.must(http.StatusUnprocessableEntity, bob, "POST", base+"/pulls/1/reviews", map[string]any{"event": "MAYBE"})

	// 4. Bob submits it: on chain, listed for everyone, the draft gone.
	rv := n.must(http.StatusOK, bob, "POST", base+"/pulls/1/reviews/"+id, map[string]any{"event": "REQUEST_CHANGES", "body": "Rename A"}).obj()
	if rv["state"] != "REQUEST_CHANGES" || rv["body"] != "Rename A" || rv["comments_count"] != 2.0 || num(rv["id"]) == id {
		t.Fatalf("submitted: %v", rv)
	}
	for _, u := range []*forgetest.User{nil, alice, bob} {
		if got := n.must(http.StatusOK, u, "GET", base+"/pulls/1/reviews", nil).list(); len(got) != 1 || got[0]["id"] != rv["id"] || got[0]["state"] != "REQUEST_CHANGES" {
			t.Fatalf("after submit: %v", got)
		}
	}
	n.must(http.StatusNotFound, bob, "GET", base+"/pulls/1/reviews/"+id, nil)
	n.must(http.StatusNotFound, bob, "POST", base+"/pulls/1/reviews/"+id, map[string]any{"event": "COMMENT"})

	// 5. A submit the chain refuses (approving one's own pull request)
	// leaves the draft as it was.
	own := num(n.must(http.StatusOK, alice, "POST", base+"/pulls/1/reviews", map[string]any{"body": "self"}).obj()["id"])
	n.must(http.StatusForbidden, alice, "POST", base+"/pulls/1/reviews/"+own, map[string]any{"event": "APPROVED"})
	if d := n.must(http.StatusOK, alice, "GET", base+"/pulls/1/reviews/"+own, nil).obj(); d["state"] != "PENDING" || d["body"] != "self" {
		t.Fatalf("draft after a refused submit: %v", d)
	}

	// 6. Another draft, deleted by its author.
	d2 := num(n.must(http.StatusOK, carol, "POST", base+"/pulls/1/reviews", map[string]any{"event": "PENDING", "body": "later"}).obj()["id"])
	n.must(http.StatusNoContent, carol, "DELETE", base+"/pulls/1/reviews/"+d2, nil)
	n.must(http.StatusNotFound, carol, "GET", base+"/pulls/1/reviews/"+d2, nil)
	n.must(http.StatusNotFound, carol, "DELETE", base+"/pulls/1/reviews/"+d2, nil)
	if got := n.must(http.StatusOK, carol, "GET", base+"/pulls/1/reviews", nil).list(); len(got) != 1 {
		t.Fatalf("after delete: %v", got)
	}
}
