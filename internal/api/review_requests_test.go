package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// reviewStates lists the pull request's reviews as "user:STATE" (and
// "+dismissed"), in order.
func reviewStates(n *issuesNode, u *forgetest.User, base string) []string {
	n.t.Helper()
	out := []string{}
	for _, rv := range n.must(http.StatusOK, u, "GET", base+"/pulls/1/reviews", nil).list() {
		s := rv["user"].(map[string]any)["login"].(string) + ":" + rv["state"].(string)
		if rv["dismissed"] == true {
			s += "+dismissed"
		}
		out = append(out, s)
	}
	return out
}

func requested(n *issuesNode, u *forgetest.User, base string) []string {
	n.t.Helper()
	out := []string{}
	for _, u := range n.must(http.StatusOK, u, "GET", base+"/pulls/1", nil).obj()["requested_reviewers"].([]any) {
		out = append(out, u.(map[string]any)["login"].(string))
	}
	return out
}

// TestReviewRequestsAndDismissal: the author asks people who may read the
// repository for reviews (not strangers, not themself, and not as a mere
// reader); a review answers the request; a maintainer dismisses an
// approval, which then no longer counts toward the branch's required
// approvals, and undismisses it, which counts it again.
func TestReviewRequestsAndDismissal(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob, dave, carol := n.NewUser(), n.NewUser(), n.NewUser(), n.NewUser()
	n.repo(alice, "rr", true)
	base := "/api/v1/repos/" + alice.Name() + "/rr"
	n.must(http.StatusNoContent, alice, "PUT", base+"/collaborators/"+bob.Name(), map[string]any{"permission": "write"})
	n.must(http.StatusNoContent, alice, "PUT", base+"/collaborators/"+dave.Name(), map[string]any{"permission": "read"})
	n.push(alice, alice, "rr", "feature", "main", map[string]string{"app.go": "package app\n"}, "Add app")
	n.must(http.StatusCreated, alice, "POST", base+"/branch_protections", map[string]any{"rule_name": "main", "required_approvals": 1})
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "App"})
	rr := base + "/pulls/1/requested_reviewers"

	// 1. Requests: Gitea's answer is the REQUEST_REVIEW reviews made.
	made := n.must(http.StatusCreated, alice, "POST", rr, map[string]any{"reviewers": []string{bob.Name(), dave.Name()}}).list()
	if len(made) != 2 || made[0]["state"] != "REQUEST_REVIEW" || made[0]["user"].(map[string]any)["login"] != bob.Name() ||
		made[1]["user"].(map[string]any)["login"] != dave.Name() || made[0]["official"] != false {
		t.Fatalf("requests made: %v", made)
	}
	if got := n.must(http.StatusCreated, alice, "POST", rr, map[string]any{"reviewers": []string{bob.Name()}}).list(); len(got) != 0 {
		t.Fatalf("asking again made %v", got)
	}
	if got := strings.Join(requested(n, alice, base), ","); got != bob.Name()+","+dave.Name() {
		t.Fatalf("requested_reviewers: %s", got)
	}
	if list := n.must(http.StatusOK, alice, "GET", base+"/pulls", nil).list(); len(list) != 1 || len(list[0]["requested_reviewers"].([]any)) != 2 {
		t.Fatalf("pull list: %v", list)
	}
	n.must(http.StatusNotFound, carol, "POST", rr, map[string]any{"reviewers": []string{bob.Name()}})
	n.must(http.StatusNotFound, carol, "DELETE", rr, map[string]any{"reviewers": []string{bob.Name()}})
	n.must(http.StatusForbidden, dave, "POST", rr, map[string]any{"reviewers": []string{bob.Name()}})
	n.must(http.StatusUnprocessableEntity, alice, "POST", rr, map[string]any{"reviewers": []string{carol.Name()}})
	n.must(http.StatusUnprocessableEntity, alice, "POST", rr, map[string]any{"reviewers": []string{alice.Name()}})
	n.must(http.StatusUnprocessableEntity, alice, "POST", rr, map[string]any{"reviewers": []string{}})
	n.must(http.StatusNotFound, alice, "POST", rr, map[string]any{"reviewers": []string{"nobody-here"}})
	n.must(http.StatusUnauthorized, nil, "POST", rr, map[string]any{"reviewers": []string{bob.Name()}})
	n.must(http.StatusNoContent, alice, "DELETE", rr, map[string]any{"reviewers": []string{dave.Name()}})
	if got := strings.Join(requested(n, alice, base), ","); got != bob.Name() {
		t.Fatalf("after removing dave: %s", got)
	}

	// 2. Bob's approval answers his request.
	approval := n.must(http.StatusOK, bob, "POST", base+"/pulls/1/reviews", map[string]any{"event": "APPROVED"}).obj()
	comment := n.must(http.StatusOK, dave, "POST", base+"/pulls/1/reviews", map[string]any{"event": "COMMENT", "body": "Nice"}).obj()
	if got := strings.Join(reviewStates(n, alice, base), " "); got != bob.Name()+":APPROVED "+dave.Name()+":COMMENT" || len(requested(n, alice, base)) != 0 {
		t.Fatalf("after the reviews: %s, requested %v", got, requested(n, alice, base))
	}

	// 3. Dismissal: by maintainers, of verdicts only, once.
	id := func(rv map[string]any) string {
		return strings.TrimSuffix(strings.TrimSuffix(mustJSON(rv["id"]), "\n"), ".0")
	}
	dismiss := base + "/pulls/1/reviews/" + id(approval) + "/dismissals"
	n.must(http.StatusForbidden, bob, "POST", dismiss, map[string]any{"message": "mine"})
	n.must(http.StatusNotFound, carol, "POST", dismiss, map[string]any{"message": "x"})
	// Gitea refuses a comment's dismissal with 403 and its own words
	// (routers/api/v1/repo/pull_review.go dismissReview).
	if body := n.must(http.StatusForbidden, alice, "POST", base+"/pulls/1/reviews/"+id(comment)+"/dismissals", map[string]any{"message": "x"}).obj(); !strings.HasPrefix(fmt.Sprint(body["message"]), "not need to dismiss this review because it's type is not Approve or change request") {
		t.Fatalf("dismissing a comment: %v", body)
	}
	n.must(http.StatusUnprocessableEntity, alice, "POST", dismiss, map[string]any{"message": "bad\x00"})
	got := n.must(http.StatusOK, alice, "POST", dismiss, map[string]any{"message": "The code changed"}).obj()
	if got["dismissed"] != true || got["official"] != false || got["state"] != "APPROVED" {
		t.Fatalf("dismissed: %v", got)
	}
	n.must(http.StatusConflict, alice, "POST", dismiss, map[string]any{"message": "again"})
	merge := map[string]any{"Do": "merge"}
	if res := n.must(http.StatusMethodNotAllowed, alice, "POST", base+"/pulls/1/merge", merge); !strings.Contains(string(res.body), "approvals") {
		t.Fatalf("merge with the approval dismissed: %s", res.body)
	}

	// 4. Undismissed, the approval counts again.
	got = n.must(http.StatusOK, alice, "POST", base+"/pulls/1/reviews/"+id(approval)+"/undismissals", nil).obj()
	if got["dismissed"] != false || got["official"] != true {
		t.Fatalf("undismissed: %v", got)
	}
	n.must(http.StatusNotFound, alice, "POST", base+"/pulls/1/reviews/"+id(approval)+"/undismissals", nil)
	n.must(http.StatusOK, alice, "POST", base+"/pulls/1/merge", merge)
}
