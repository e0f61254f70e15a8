package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestCommentsReactionsSDK drives a comment by its id and reactions
// through Gitea's SDK: read, edit and delete a comment (its author only),
// react to an issue and a comment (once per kind), and take a reaction
// back; a deleted comment is gone from every read.
func TestCommentsReactionsSDK(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "talk"
	if _, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name}); err != nil {
		t.Fatalf("CreateRepo: %v", err)
	}
	is, _, err := bob.client.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "A question"})
	check(t, "CreateIssue", err)
	cm, _, err := bob.client.CreateIssueComment(owner, name, is.Index, gitea.CreateIssueCommentOption{Body: "Frist"})
	check(t, "CreateIssueComment", err)

	// 1. The comment by id; bob fixes it; alice (the owner) may too, a
	// third person may not.
	got, _, err := c.GetIssueComment(owner, name, cm.ID)
	check(t, "GetIssueComment", err)
	if got.Body != "Frist" || got.Poster == nil || got.Poster.UserName != bob.login {
		t.Fatalf("GetIssueComment: %+v", got)
	}
	edited, _, err := bob.client.EditIssueComment(owner, name, cm.ID, gitea.EditIssueCommentOption{Body: "First"})
	check(t, "EditIssueComment", err)
	if edited.Body != "First" || edited.ID != cm.ID {
		t.Fatalf("EditIssueComment: %+v", edited)
	}
	carol := signUpForSDK(t, n)
	if _, res, err := carol.client.EditIssueComment(owner, name, cm.ID, gitea.EditIssueCommentOption{Body: "mine"}); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a stranger's EditIssueComment: %v", err)
	}
	if _, res, err := bob.client.EditIssueComment(owner, name, cm.ID, gitea.EditIssueCommentOption{Body: "nul\x00"}); err == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("EditIssueComment with NUL: %v", err)
	}

	// 2. Reactions on the issue and on the comment.
	r, res, err := c.PostIssueReaction(owner, name, is.Index, "heart")
	check(t, "PostIssueReaction", err)
	if res.StatusCode != http.StatusCreated || r.Reaction != "heart" || r.User == nil || r.User.UserName != owner {
		t.Fatalf("PostIssueReaction: %d %+v", res.StatusCode, r)
	}
	if _, res, err := c.PostIssueReaction(owner, name, is.Index, "heart"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("PostIssueReaction again: %v", err)
	}
	if _, res, err := c.PostIssueReaction(owner, name, is.Index, "party"); err == nil || res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("PostIssueReaction of an unknown kind: %v", err)
	}
	_, _, err = bob.client.PostIssueCommentReaction(owner, name, cm.ID, "+1")
	check(t, "PostIssueCommentReaction", err)
	_, _, err = c.PostIssueCommentReaction(owner, name, cm.ID, "rocket")
	check(t, "PostIssueCommentReaction 2", err)
	onComment, _, err := c.GetIssueCommentReactions(owner, name, cm.ID)
	check(t, "GetIssueCommentReactions", err)
	if len(onComment) != 2 {
		t.Fatalf("comment reactions: %d", len(onComment))
	}
	_, err = c.DeleteIssueCommentReaction(owner, name, cm.ID, "rocket")
	check(t, "DeleteIssueCommentReaction", err)
	onComment, _, err = c.GetIssueCommentReactions(owner, name, cm.ID)
	check(t, "GetIssueCommentReactions", err)
	if len(onComment) != 1 || onComment[0].Reaction != "+1" {
		t.Fatalf("comment reactions after removal: %+v", onComment)
	}
	onIssue, _, err := bob.client.ListIssueReactions(owner, name, is.Index, gitea.ListIssueReactionsOptions{})
	check(t, "GetIssueReactions", err)
	if len(onIssue) != 1 || onIssue[0].Reaction != "heart" {
		t.Fatalf("issue reactions: %+v", onIssue)
	}

	// 3. Deleting: not by a stranger; by its author, then it is gone.
	if res, err := carol.client.DeleteIssueComment(owner, name, cm.ID); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("a stranger's DeleteIssueComment: %v", err)
	}
	_, err = bob.client.DeleteIssueComment(owner, name, cm.ID)
	check(t, "DeleteIssueComment", err)
	if _, res, err := c.GetIssueComment(owner, name, cm.ID); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetIssueComment after delete: %v", err)
	}
	list, _, err := c.ListIssueComments(owner, name, is.Index, gitea.ListIssueCommentOptions{})
	check(t, "ListIssueComments", err)
	after, _, err := c.GetIssue(owner, name, is.Index)
	check(t, "GetIssue", err)
	if len(list) != 0 || after.Comments != 0 {
		t.Fatalf("after delete: %d comments listed, count %d", len(list), after.Comments)
	}
	if _, res, err := c.PostIssueCommentReaction(owner, name, cm.ID, "eyes"); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("reacting to a deleted comment: %v", err)
	}
}

// TestTimelinePinsSubscriptionsSDK: an issue's timeline shows its
// comments and what happened to it in order (a reference from another
// issue, title, milestone, assignee and label changes, close and reopen,
// closing by a merged pull request is covered by the pull request
// tests' merge path); pins and subscriptions as Gitea answers them.
func TestTimelinePinsSubscriptionsSDK(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := signUpForSDK(t, n), signUpForSDK(t, n)
	c, owner := alice.client, alice.login
	const name = "history"
	if _, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: name}); err != nil {
		t.Fatalf("CreateRepo: %v", err)
	}
	one, _, err := c.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "Crash"})
	check(t, "CreateIssue", err)
	_, _, err = c.CreateIssueComment(owner, name, one.Index, gitea.CreateIssueCommentOption{Body: "Seen it"})
	check(t, "CreateIssueComment", err)
	_, _, err = bob.client.CreateIssue(owner, name, gitea.CreateIssueOption{Title: "Related", Body: fmt.Sprintf("Like #%d.", one.Index)})
	check(t, "CreateIssue 2", err)
	m, _, err := c.CreateMilestone(owner, name, gitea.CreateMilestoneOption{Title: "v1"})
	check(t, "CreateMilestone", err)
	lb, _, err := c.CreateLabel(owner, name, gitea.CreateLabelOption{Name: "bug", Color: "#ee0701"})
	check(t, "CreateLabel", err)
	title := "Crash on start"
	_, _, err = c.EditIssue(owner, name, one.Index, gitea.EditIssueOption{Title: title, Milestone: &m.ID, Assignees: []string{owner}})
	check(t, "EditIssue", err)
	_, _, err = c.AddIssueLabels(owner, name, one.Index, gitea.IssueLabelsOption{Labels: []int64{lb.ID}})
	check(t, "AddIssueLabels", err)
	closed, open := gitea.StateClosed, gitea.StateOpen
	_, _, err = c.EditIssue(owner, name, one.Index, gitea.EditIssueOption{State: &closed})
	check(t, "close", err)
	_, _, err = c.EditIssue(owner, name, one.Index, gitea.EditIssueOption{State: &open})
	check(t, "reopen", err)

	// The SDK reads label as a list where Gitea's server sends one label,
	// so the timeline is read as JSON here.
	var events []map[string]any
	n.JSON("GET", "/api/v1/repos/"+owner+"/"+name+fmt.Sprintf("/issues/%d/timeline", one.Index), nil, nil, http.StatusOK, &events)
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e["type"].(string))
	}
	want := "comment issue_ref change_title milestone assignees label close reopen"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("timeline: %v, want %s", kinds, want)
	}
	if events[0]["body"] != "Seen it" || events[1]["ref_issue"].(map[string]any)["number"] != 2.0 ||
		events[2]["old_title"] != "Crash" || events[2]["new_title"] != title ||
		events[3]["milestone"].(map[string]any)["title"] != "v1" ||
		events[4]["assignee"].(map[string]any)["login"] != owner || events[5]["label"].(map[string]any)["name"] != "bug" || events[5]["body"] != "1" {
		t.Fatalf("timeline events: %v", events)
	}

	// Pins: a writer pins; the list shows it; a reader may not.
	n.JSON("POST", "/api/v1/repos/"+owner+"/"+name+fmt.Sprintf("/issues/%d/pin", one.Index), nil, nil, http.StatusUnauthorized, nil)
	pin, err := http.NewRequest("POST", n.URL+"/api/v1/repos/"+owner+"/"+name+fmt.Sprintf("/issues/%d/pin", one.Index), nil)
	check(t, "NewRequest", err)
	for _, u := range []struct {
		token string
		want  int
	}{{bob.token, http.StatusForbidden}, {alice.token, http.StatusNoContent}} {
		pin.Header.Set("Authorization", "token "+u.token)
		res, err := http.DefaultClient.Do(pin)
		check(t, "pin", err)
		res.Body.Close()
		if res.StatusCode != u.want {
			t.Fatalf("pin: %d, want %d", res.StatusCode, u.want)
		}
	}
	var pinned []map[string]any
	n.JSON("GET", "/api/v1/repos/"+owner+"/"+name+"/issues/pinned", nil, nil, http.StatusOK, &pinned)
	if len(pinned) != 1 || pinned[0]["number"] != float64(one.Index) || pinned[0]["pin_order"] != 1.0 {
		t.Fatalf("pinned: %v", pinned)
	}
	var read map[string]any
	n.JSON("GET", "/api/v1/repos/"+owner+"/"+name+fmt.Sprintf("/issues/%d", one.Index), nil, nil, http.StatusOK, &read)
	if read["pin_order"] != 1.0 {
		t.Fatalf("a pinned issue's pin_order: %v", read["pin_order"])
	}

	// Subscriptions, as the SDK expects them.
	_, err = bob.client.IssueSubscribe(owner, name, one.Index)
	check(t, "IssueSubscribe", err)
	if _, err := bob.client.IssueSubscribe(owner, name, one.Index); err == nil || !strings.Contains(err.Error(), "already subscribed") {
		t.Fatalf("IssueSubscribe again: %v", err)
	}
	info, _, err := bob.client.CheckIssueSubscription(owner, name, one.Index)
	check(t, "CheckIssueSubscription", err)
	subs, _, err := c.ListIssueSubscribers(owner, name, one.Index, gitea.ListIssueSubscribersOptions{})
	check(t, "GetIssueSubscribers", err)
	if !info.Subscribed || len(subs) != 1 || subs[0].UserName != bob.login {
		t.Fatalf("subscription: %+v, subscribers %+v", info, subs)
	}
	if _, err := bob.client.AddIssueSubscription(owner, name, one.Index, owner); err == nil {
		t.Fatal("bob subscribed the owner")
	}
	_, err = bob.client.IssueUnSubscribe(owner, name, one.Index)
	check(t, "IssueUnSubscribe", err)
	if info, _, err = bob.client.CheckIssueSubscription(owner, name, one.Index); err != nil || info.Subscribed {
		t.Fatalf("after unsubscribing: %v %+v", err, info)
	}
}

// TestTimelineClosedByPullRequest: a merged pull request that fixes an
// issue shows on the issue's timeline as the close, with the pull request
// as its reference; the pull request's own timeline has the reference to
// nothing else and its merge.
func TestTimelineClosedByPullRequest(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser(), n.NewUser()
	repo := n.repo(alice, "lib", false)
	base := "/api/v1/repos/" + alice.Name() + "/lib"
	n.push(alice, alice, "lib", "main", "main", map[string]string{"lib.go": "package lib\n"})
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "It breaks"})
	n.fork(bob, repo)
	n.push(bob, bob, "lib", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
	m := n.must(http.StatusCreated, alice, "POST", base+"/milestones", map[string]any{"title": "v1"}).obj()
	// Filing a pull request under a milestone needs write permission on the base.
	n.must(http.StatusForbidden, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix it", "milestone": m["id"]})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix it", "body": "Fixes #1."})
	edited := n.must(http.StatusCreated, alice, "PATCH", base+"/pulls/2", map[string]any{"milestone": m["id"]}).obj()
	if ms, _ := edited["milestone"].(map[string]any); ms == nil || ms["title"] != "v1" {
		t.Fatalf("pull request milestone: %v", edited["milestone"])
	}
	n.must(http.StatusOK, alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "merge"})

	events := n.must(http.StatusOK, nil, "GET", base+"/issues/1/timeline", nil).list()
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e["type"].(string))
	}
	if strings.Join(kinds, " ") != "pull_ref close" {
		t.Fatalf("issue timeline: %v", kinds)
	}
	closed := events[1]
	if ref, _ := closed["ref_issue"].(map[string]any); ref == nil || ref["number"] != 2.0 || ref["pull_request"] == nil ||
		closed["user"].(map[string]any)["login"] != alice.Name() {
		t.Fatalf("the close: %v", closed)
	}
	pr := n.must(http.StatusOK, nil, "GET", base+"/issues/2/timeline", nil).list()
	if len(pr) != 2 || pr[0]["type"] != "milestone" || pr[1]["type"] != "merge_pull" {
		t.Fatalf("pull request timeline: %v", pr)
	}
}
