package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
	dnode "github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/webhook"
)

// hookEventsFixture is a node with a repository whose hook subscribes to
// every event a hook may, and the receiver it delivers to.
type hookEventsFixture struct {
	n          *issuesNode
	rc         *receiver
	alice, bob *forgetest.User
	repo       index.Repo
	base       string
}

const eventsSecret = "every-event"

func newHookEventsFixture(t *testing.T, opts []forgetest.Option) hookEventsFixture {
	n := startHooksNode(t, dnode.WebhookConfig{AllowPrivate: true}, opts...)
	f := hookEventsFixture{n: n, rc: newReceiver(t), alice: n.NewUser(), bob: n.NewUser()}
	f.repo = n.repo(f.alice, "app", false)
	f.base = "/api/v1/repos/" + f.alice.Name() + "/app"
	n.must(http.StatusCreated, f.alice, "POST", f.base+"/hooks", map[string]any{
		"type": "gitea", "active": true, "events": webhook.Events,
		"config": map[string]string{"url": f.rc.URL + "/hook", "content_type": "json", "secret": eventsSecret},
	})
	return f
}

// delivery waits for the nth delivery of eventType whose payload's action
// is action ("" for any), checks its signature and X-Gitea-Event /
// X-GitHub-Event header, and returns its payload.
func (f hookEventsFixture) delivery(t *testing.T, eventType, event, action string, nth int) map[string]any {
	t.Helper()
	h := f.rc.waitNth(t, eventType+" "+action, nth, ofType(t, eventType, func(p map[string]any) bool {
		return action == "" || p["action"] == action
	}))
	checkSigned(t, h, eventsSecret, event)
	if got := h.header.Get("X-Gitea-Event-Type"); got != eventType {
		t.Fatalf("X-Gitea-Event-Type %q, want %q", got, eventType)
	}
	return h.payload(t)
}

// countOf is how many deliveries of eventType the receiver has had.
func (f hookEventsFixture) countOf(eventType string) int {
	f.rc.mu.Lock()
	defer f.rc.mu.Unlock()
	n := 0
	for _, h := range f.rc.hits {
		if h.header.Get("X-Gitea-Event-Type") == eventType {
			n++
		}
	}
	return n
}

func obj(t *testing.T, v any, what string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T, not an object: %v", what, v, v)
	}
	return m
}

// TestWebhookIssueEditEvents: assigning, labelling and filing an issue
// under a milestone send Gitea's issue_assign, issue_label and
// issue_milestone (X-Gitea-Event issues) with its actions, not issues
// edited; a new title is issues edited with changes.title.from.
func TestWebhookIssueEditEvents(t *testing.T) {
	t.Parallel()
	onStores(t, testWebhookIssueEditEvents)
}

func testWebhookIssueEditEvents(t *testing.T, opts []forgetest.Option) {
	f := newHookEventsFixture(t, opts)
	n, alice, base := f.n, f.alice, f.base
	n.must(http.StatusCreated, f.bob, "POST", base+"/issues", map[string]any{"title": "It crashes", "body": "Steps."})
	f.delivery(t, "issues", "issues", "opened", 1)

	// 1. Assigned, then unassigned.
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"assignees": []string{alice.Name()}})
	p := f.delivery(t, "issue_assign", "issues", "assigned", 1)
	issue := obj(t, p["issue"], "issue")
	if p["number"] != 1.0 || len(issue["assignees"].([]any)) != 1 || obj(t, issue["assignees"].([]any)[0], "assignee")["login"] != alice.Name() ||
		obj(t, p["sender"], "sender")["login"] != alice.Name() || obj(t, p["repository"], "repository")["name"] != "app" {
		t.Fatalf("issue_assign payload: %v", p)
	}
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"assignees": []string{}})
	if p := f.delivery(t, "issue_assign", "issues", "unassigned", 1); len(obj(t, p["issue"], "issue")["assignees"].([]any)) != 0 {
		t.Fatalf("unassigned payload: %v", p)
	}

	// 2. A label added, then the labels cleared.
	label := n.must(http.StatusCreated, alice, "POST", base+"/labels", map[string]any{"name": "bug", "color": "ee0701"}).obj()
	n.must(http.StatusOK, alice, "POST", base+"/issues/1/labels", map[string]any{"labels": []any{label["id"]}})
	p = f.delivery(t, "issue_label", "issues", "label_updated", 1)
	labels := obj(t, p["issue"], "issue")["labels"].([]any)
	if len(labels) != 1 || obj(t, labels[0], "label")["name"] != "bug" || obj(t, labels[0], "label")["color"] != "ee0701" {
		t.Fatalf("label_updated payload: %v", p)
	}
	n.must(http.StatusNoContent, alice, "DELETE", base+"/issues/1/labels", nil)
	if p := f.delivery(t, "issue_label", "issues", "label_cleared", 1); len(obj(t, p["issue"], "issue")["labels"].([]any)) != 0 {
		t.Fatalf("label_cleared payload: %v", p)
	}

	// 3. A milestone set, then taken away.
	m := n.must(http.StatusCreated, alice, "POST", base+"/milestones", map[string]any{"title": "v1"}).obj()
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"milestone": m["id"]})
	if p := f.delivery(t, "issue_milestone", "issues", "milestoned", 1); obj(t, obj(t, p["issue"], "issue")["milestone"], "milestone")["title"] != "v1" {
		t.Fatalf("milestoned payload: %v", p)
	}
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"milestone": 0})
	if p := f.delivery(t, "issue_milestone", "issues", "demilestoned", 1); obj(t, p["issue"], "issue")["milestone"] != nil {
		t.Fatalf("demilestoned payload: %v", p)
	}

	// 4. A new title: issues edited, with what it replaced.
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"title": "It crashes on start"})
	p = f.delivery(t, "issues", "issues", "edited", 1)
	if obj(t, obj(t, p["changes"], "changes")["title"], "changes.title")["from"] != "It crashes" ||
		obj(t, p["issue"], "issue")["title"] != "It crashes on start" {
		t.Fatalf("edited payload: %v", p)
	}
	// None of the label, assignee or milestone changes went out as edited.
	if got := f.countOf("issues"); got != 2 {
		t.Fatalf("%d issues deliveries, want opened and one edited", got)
	}
}

// TestWebhookPullRequestEvents: on a pull request, assignment, labels and
// milestones are pull_request_assign, _label and _milestone; a review
// request and its removal are pull_request_review_request naming the
// reviewer; approving, rejecting and commenting reviews are
// pull_request_review_approved, _rejected and _comment.
func TestWebhookPullRequestEvents(t *testing.T) {
	t.Parallel()
	onStores(t, testWebhookPullRequestEvents)
}

func testWebhookPullRequestEvents(t *testing.T, opts []forgetest.Option) {
	f := newHookEventsFixture(t, opts)
	n, alice, bob, base := f.n, f.alice, f.bob, f.base
	n.push(alice, alice, "app", "feature", "main", map[string]string{"a.go": "package a\n"}, "Add a")
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "Add a"})
	f.delivery(t, "pull_request", "pull_request", "opened", 1)

	// 1. Assignment, a label and a milestone, each its own event.
	label := n.must(http.StatusCreated, alice, "POST", base+"/labels", map[string]any{"name": "feature", "color": "00aabb"}).obj()
	m := n.must(http.StatusCreated, alice, "POST", base+"/milestones", map[string]any{"title": "v2"}).obj()
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"assignees": []string{alice.Name()}, "milestone": m["id"]})
	n.must(http.StatusOK, alice, "POST", base+"/issues/1/labels", map[string]any{"labels": []any{label["id"]}})
	p := f.delivery(t, "pull_request_assign", "pull_request", "assigned", 1)
	pr := obj(t, p["pull_request"], "pull_request")
	if p["number"] != 1.0 || pr["number"] != 1.0 || len(pr["assignees"].([]any)) != 1 {
		t.Fatalf("pull_request_assign payload: %v", p)
	}
	p = f.delivery(t, "pull_request_label", "pull_request", "label_updated", 1)
	if labels := obj(t, p["pull_request"], "pull_request")["labels"].([]any); len(labels) != 1 || obj(t, labels[0], "label")["name"] != "feature" {
		t.Fatalf("pull_request_label payload: %v", p)
	}
	p = f.delivery(t, "pull_request_milestone", "pull_request", "milestoned", 1)
	if obj(t, obj(t, p["pull_request"], "pull_request")["milestone"], "milestone")["title"] != "v2" {
		t.Fatalf("pull_request_milestone payload: %v", p)
	}

	// 2. A review asked of bob, then no longer.
	n.must(http.StatusCreated, alice, "POST", base+"/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{bob.Name()}})
	p = f.delivery(t, "pull_request_review_request", "pull_request", "review_requested", 1)
	if obj(t, p["requested_reviewer"], "requested_reviewer")["login"] != bob.Name() || obj(t, p["sender"], "sender")["login"] != alice.Name() ||
		obj(t, p["pull_request"], "pull_request")["number"] != 1.0 {
		t.Fatalf("review_requested payload: %v", p)
	}
	n.must(http.StatusNoContent, alice, "DELETE", base+"/pulls/1/requested_reviewers", map[string]any{"reviewers": []string{bob.Name()}})
	if p := f.delivery(t, "pull_request_review_request", "pull_request", "review_request_removed", 1); obj(t, p["requested_reviewer"], "requested_reviewer")["login"] != bob.Name() {
		t.Fatalf("review_request_removed payload: %v", p)
	}

	// 3. Reviews: a comment, changes asked for, an approval.
	for _, c := range []struct{ verdict, eventType, event, body string }{
		{"COMMENT", "pull_request_review_comment", "pull_request_comment", "A thought."},
		{"REQUEST_CHANGES", "pull_request_review_rejected", "pull_request_rejected", "Not yet."},
		{"APPROVED", "pull_request_review_approved", "pull_request_approved", "LGTM"},
	} {
		n.must(http.StatusOK, bob, "POST", base+"/pulls/1/reviews", map[string]any{"event": c.verdict, "body": c.body})
		p := f.delivery(t, c.eventType, c.event, "reviewed", 1)
		review := obj(t, p["review"], "review")
		if review["type"] != c.eventType || review["content"] != c.body || obj(t, p["sender"], "sender")["login"] != bob.Name() {
			t.Fatalf("%s payload: %v", c.eventType, p)
		}
	}
	if got := f.countOf("pull_request"); got != 1 {
		t.Fatalf("%d pull_request deliveries, want only opened", got)
	}
}

// TestWebhookReleaseAndStatusEvents: a draft release sends nothing; made
// public it is published, edited it is updated, deleted it is deleted;
// a commit status set is a status event in Gitea's CommitStatusPayload.
func TestWebhookReleaseAndStatusEvents(t *testing.T) {
	t.Parallel()
	onStores(t, testWebhookReleaseAndStatusEvents)
}

func testWebhookReleaseAndStatusEvents(t *testing.T, opts []forgetest.Option) {
	f := newHookEventsFixture(t, opts)
	n, alice, base := f.n, f.alice, f.base

	rel := n.must(http.StatusCreated, alice, "POST", base+"/releases", map[string]any{
		"tag_name": "v1.0", "name": "One", "body": "First release", "target_commitish": "main", "draft": true}).obj()
	relPath := base + "/releases/" + num(rel["id"])
	// Published, the draft (kept on the node until now) gets the chain's
	// id; its own id goes on naming it on this node.
	pub := n.must(http.StatusOK, alice, "PATCH", relPath, map[string]any{"draft": false}).obj()
	p := f.delivery(t, "release", "release", "published", 1)
	r := obj(t, p["release"], "release")
	if r["tag_name"] != "v1.0" || r["name"] != "One" || r["body"] != "First release" || r["draft"] != false ||
		obj(t, r["author"], "author")["login"] != alice.Name() || !strings.HasSuffix(r["url"].(string), "/releases/"+num(pub["id"])) ||
		obj(t, p["repository"], "repository")["full_name"] != alice.Name()+"/app" {
		t.Fatalf("published payload: %v", p)
	}
	n.must(http.StatusOK, alice, "PATCH", relPath, map[string]any{"name": "One, again"})
	if p := f.delivery(t, "release", "release", "updated", 1); obj(t, p["release"], "release")["name"] != "One, again" {
		t.Fatalf("updated payload: %v", p)
	}
	n.must(http.StatusNoContent, alice, "DELETE", relPath, nil)
	if p := f.delivery(t, "release", "release", "deleted", 1); obj(t, p["release"], "release")["tag_name"] != "v1.0" {
		t.Fatalf("deleted payload: %v", p)
	}
	if got := f.countOf("release"); got != 3 {
		t.Fatalf("%d release deliveries, want 3 (the draft sends none)", got)
	}

	sha := n.branchTip(n.dir(f.repo), "main")
	n.must(http.StatusCreated, alice, "POST", base+"/statuses/"+sha, map[string]any{
		"state": "success", "context": "ci", "description": "all green", "target_url": "https://ci.example.org/1"})
	p = f.delivery(t, "status", "status", "", 1)
	if p["sha"] != sha || p["state"] != "success" || p["context"] != "ci" || p["description"] != "all green" ||
		p["target_url"] != "https://ci.example.org/1" || obj(t, p["commit"], "commit")["id"] != sha ||
		obj(t, p["sender"], "sender")["login"] != alice.Name() || obj(t, p["repository"], "repository")["name"] != "app" || p["created_at"] == "" {
		t.Fatalf("status payload: %v", p)
	}
}

// TestWebhookRefusesEventsNeverSent: Gitea's wiki and package events (no
// dForge node sends them) are a 422 naming the event, on create and on
// edit; every event a hook may take is accepted.
func TestWebhookRefusesEventsNeverSent(t *testing.T) {
	t.Parallel()
	n := startHooksNode(t, dnode.WebhookConfig{AllowPrivate: true})
	alice := n.NewUser()
	n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	hook := func(events []string) map[string]any {
		return map[string]any{"type": "gitea", "events": events, "config": map[string]string{"url": "https://hooks.example.org/x", "content_type": "json"}}
	}
	for _, e := range []string{"wiki", "package", "schedule"} {
		res := n.must(http.StatusUnprocessableEntity, alice, "POST", base+"/hooks", hook([]string{"push", e}))
		if body := string(res.body); !strings.Contains(body, e) || !strings.Contains(body, "events") {
			t.Fatalf("refusal of %s does not name it: %s", e, body)
		}
	}
	created := n.must(http.StatusCreated, alice, "POST", base+"/hooks", hook(webhook.Events)).obj()
	if got := created["events"].([]any); len(got) != len(webhook.Events) {
		t.Fatalf("events %v, want %v", got, webhook.Events)
	}
	res := n.must(http.StatusUnprocessableEntity, alice, "PATCH", base+"/hooks/"+num(created["id"]), map[string]any{"events": []string{"wiki"}})
	if !strings.Contains(string(res.body), "wiki") {
		t.Fatalf("edit refusal: %s", res.body)
	}
}
