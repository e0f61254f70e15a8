package api_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
	dnode "github.com/dforge/dforge/internal/node"
)

// The webhook tests run a node whose hooks may reach the test's local
// receiver (serve --webhook-allow-private), except the one that shows the
// default refuses it.

// hit is one request the receiver got.
type hit struct {
	header http.Header
	body   []byte
}

func (h hit) payload(t *testing.T) map[string]any {
	t.Helper()
	body := h.body
	if strings.HasPrefix(h.header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			t.Fatalf("form body: %v", err)
		}
		body = []byte(form.Get("payload"))
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("payload: %v: %s", err, body)
	}
	return v
}

// receiver is an httptest server that records requests and answers each
// with the next status of its script (200 once the script is spent).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	hits   []hit
	script []int
}

func newReceiver(t *testing.T, script ...int) *receiver {
	rc := &receiver{script: script}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.hits = append(rc.hits, hit{header: r.Header.Clone(), body: body})
		status := http.StatusOK
		if len(rc.script) > 0 {
			status, rc.script = rc.script[0], rc.script[1:]
		}
		rc.mu.Unlock()
		w.Header().Set("X-Receiver", "test")
		w.WriteHeader(status)
		io.WriteString(w, "got it")
	}))
	t.Cleanup(rc.Close)
	return rc
}

// wait returns the first request for which match holds, waiting for it
// (a bounded wait: a missing delivery fails the test).
func (rc *receiver) wait(t *testing.T, what string, match func(hit) bool) hit {
	t.Helper()
	return rc.waitNth(t, what, 1, match)
}

// waitNth returns the nth request for which match holds, waiting for it.
func (rc *receiver) waitNth(t *testing.T, what string, nth int, match func(hit) bool) hit {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		rc.mu.Lock()
		seen := 0
		for _, h := range rc.hits {
			if match(h) {
				if seen++; seen == nth {
					rc.mu.Unlock()
					return h
				}
			}
		}
		rc.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %s delivery arrived", what)
	return hit{}
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.hits)
}

// ofType matches a delivery by X-Gitea-Event-Type and a payload test.
func ofType(t *testing.T, eventType string, match func(map[string]any) bool) func(hit) bool {
	return func(h hit) bool {
		return h.header.Get("X-Gitea-Event-Type") == eventType && (match == nil || match(h.payload(t)))
	}
}

// checkSigned verifies the delivery's headers: event names, a delivery
// uuid, and both signatures over the JSON payload with secret.
func checkSigned(t *testing.T, h hit, secret, event string) {
	t.Helper()
	body := h.body
	if strings.HasPrefix(h.header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		form, _ := url.ParseQuery(string(body))
		body = []byte(form.Get("payload"))
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	want := hex.EncodeToString(mac.Sum(nil))
	if got := h.header.Get("X-Gitea-Signature"); got != want {
		t.Fatalf("X-Gitea-Signature %q, want %q", got, want)
	}
	if got := h.header.Get("X-Hub-Signature-256"); got != "sha256="+want {
		t.Fatalf("X-Hub-Signature-256 %q", got)
	}
	if ok, err := gitea.VerifyWebhookSignature(secret, h.header.Get("X-Gitea-Signature"), body); !ok || err != nil {
		t.Fatalf("the Gitea SDK does not verify the signature: %v", err)
	}
	if h.header.Get("X-Gitea-Event") != event || h.header.Get("X-GitHub-Event") != event {
		t.Fatalf("event headers: %v", h.header)
	}
	d := h.header.Get("X-Gitea-Delivery")
	if len(d) != 36 || h.header.Get("X-GitHub-Delivery") != d {
		t.Fatalf("delivery headers: %q %q", d, h.header.Get("X-GitHub-Delivery"))
	}
}

func startHooksNode(t *testing.T, cfg dnode.WebhookConfig, opts ...forgetest.Option) *issuesNode {
	t.Helper()
	return &issuesNode{Node: forgetest.Start(t, append(opts, forgetest.WithWebhooks(cfg))...), t: t}
}

// onStores runs test on a node over each SQL store (PostgreSQL when
// DFORGE_TEST_PG is set).
func onStores(t *testing.T, test func(t *testing.T, opts []forgetest.Option)) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, opts)
		})
	}
}

// TestWebhookPayloads: a hook on a repository receives, signed, Gitea's
// payloads for a pushed branch (create and push), an opened issue, a
// comment, a pull request opened, approved and merged (and the merge's
// push), and its delivery log shows each request and answer.
func TestWebhookPayloads(t *testing.T) {
	t.Parallel()
	onStores(t, testWebhookPayloads)
}

func testWebhookPayloads(t *testing.T, opts []forgetest.Option) {
	n := startHooksNode(t, dnode.WebhookConfig{AllowPrivate: true}, opts...)
	rc := newReceiver(t)
	alice, bob := n.NewUser(), n.NewUser()
	n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	const secret = "s3cr3t"
	hook := n.must(http.StatusCreated, alice, "POST", base+"/hooks", map[string]any{
		"type": "gitea", "active": true,
		"config": map[string]string{"url": rc.URL + "/hook", "content_type": "json", "secret": secret},
		"events": []string{"push", "create", "delete", "fork", "issues", "issue_comment", "pull_request", "pull_request_review_approved"},
	}).obj()
	cfg := hook["config"].(map[string]any)
	if hook["type"] != "gitea" || cfg["url"] != rc.URL+"/hook" || cfg["content_type"] != "json" || cfg["secret"] != nil || hook["active"] != true {
		t.Fatalf("created hook: %s", mustJSON(hook))
	}
	hookPath := base + "/hooks/" + num(hook["id"])

	// 1. A new branch: create, then push with its commits.
	tip := n.push(alice, alice, "app", "feature", "main", map[string]string{"a.go": "package a\n"}, "Add a")
	created := rc.wait(t, "create", ofType(t, "create", nil))
	checkSigned(t, created, secret, "create")
	if p := created.payload(t); p["ref"] != "feature" || p["ref_type"] != "branch" || p["sha"] != tip {
		t.Fatalf("create payload: %s", created.body)
	}
	push := rc.wait(t, "push", ofType(t, "push", func(p map[string]any) bool { return p["ref"] == "refs/heads/feature" }))
	checkSigned(t, push, secret, "push")
	p := push.payload(t)
	repo := p["repository"].(map[string]any)
	commits := p["commits"].([]any)
	if p["after"] != tip || p["before"] != "0000000000000000000000000000000000000000" || repo["full_name"] != alice.Name()+"/app" ||
		p["pusher"].(map[string]any)["login"] != alice.Name() || len(commits) == 0 ||
		commits[0].(map[string]any)["id"] != tip || !strings.HasPrefix(commits[0].(map[string]any)["message"].(string), "Add a") ||
		p["head_commit"].(map[string]any)["id"] != tip {
		t.Fatalf("push payload: %s", push.body)
	}

	// 2. An issue opened by bob, and alice's comment.
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "It crashes", "body": "Steps."})
	opened := rc.wait(t, "issues", ofType(t, "issues", nil))
	checkSigned(t, opened, secret, "issues")
	if p := opened.payload(t); p["action"] != "opened" || p["number"] != 1.0 || p["issue"].(map[string]any)["title"] != "It crashes" ||
		p["sender"].(map[string]any)["login"] != bob.Name() || p["repository"].(map[string]any)["name"] != "app" {
		t.Fatalf("issues payload: %s", opened.body)
	}
	// The payload's repository, issue and sender are the API's shapes
	// (internal/gitea/structs): the fields GET answers with, by the same
	// names, less what only a signed-in caller is told.
	issueAPI := n.must(http.StatusOK, bob, "GET", base+"/issues/1", nil).obj()
	sameFields(t, "repository", opened.payload(t)["repository"], n.must(http.StatusOK, alice, "GET", base, nil).obj(),
		"permissions", "starred_by_me", "watched_by_me")
	sameFields(t, "issue", opened.payload(t)["issue"], issueAPI)
	sameFields(t, "sender", opened.payload(t)["sender"], issueAPI["user"])
	n.must(http.StatusCreated, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "Confirmed."})
	comment := rc.wait(t, "issue_comment", ofType(t, "issue_comment", nil))
	checkSigned(t, comment, secret, "issue_comment")
	if p := comment.payload(t); p["action"] != "created" || p["comment"].(map[string]any)["body"] != "Confirmed." ||
		p["is_pull"] != false || p["issue"].(map[string]any)["number"] != 1.0 {
		t.Fatalf("issue_comment payload: %s", comment.body)
	}

	// 3. A pull request: opened, approved by bob, merged by alice.
	n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "Add a"})
	pr := rc.wait(t, "pull_request opened", ofType(t, "pull_request", func(p map[string]any) bool { return p["action"] == "opened" }))
	checkSigned(t, pr, secret, "pull_request")
	if p := pr.payload(t); p["number"] != 2.0 || p["pull_request"].(map[string]any)["head"].(map[string]any)["sha"] != tip ||
		p["pull_request"].(map[string]any)["base"].(map[string]any)["ref"] != "main" {
		t.Fatalf("pull_request payload: %s", pr.body)
	}
	n.must(http.StatusOK, bob, "POST", base+"/pulls/2/reviews", map[string]any{"event": "APPROVED", "body": "LGTM"})
	approved := rc.wait(t, "approval", ofType(t, "pull_request_review_approved", nil))
	checkSigned(t, approved, secret, "pull_request_approved")
	if p := approved.payload(t); p["action"] != "reviewed" || p["review"].(map[string]any)["content"] != "LGTM" {
		t.Fatalf("review payload: %s", approved.body)
	}
	n.must(http.StatusOK, alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "merge"})
	merged := rc.wait(t, "merge", ofType(t, "pull_request", func(p map[string]any) bool { return p["action"] == "closed" }))
	if pr := merged.payload(t)["pull_request"].(map[string]any); pr["merged"] != true || pr["state"] != "closed" || pr["merge_commit_sha"] == nil {
		t.Fatalf("merged payload: %s", merged.body)
	}
	rc.wait(t, "the merge's push", ofType(t, "push", func(p map[string]any) bool { return p["ref"] == "refs/heads/main" }))

	// 4. Bob forks it: a fork event to the forked repository's hook,
	// naming both. Alice deletes the merged branch: a delete event.
	n.must(http.StatusAccepted, bob, "POST", base+"/forks", map[string]any{})
	fork := rc.wait(t, "fork", ofType(t, "fork", nil))
	checkSigned(t, fork, secret, "fork")
	if p := fork.payload(t); p["forkee"].(map[string]any)["full_name"] != alice.Name()+"/app" ||
		p["repository"].(map[string]any)["full_name"] != bob.Name()+"/app" || p["repository"].(map[string]any)["fork"] != true {
		t.Fatalf("fork payload: %s", fork.body)
	}
	wt := n.Clone(n.Remote(alice, alice.Name(), "app"))
	n.Git(wt, "push", "-q", "origin", "--delete", "feature")
	deleted := rc.wait(t, "delete", ofType(t, "delete", nil))
	checkSigned(t, deleted, secret, "delete")
	if p := deleted.payload(t); p["ref"] != "feature" || p["ref_type"] != "branch" || p["pusher_type"] != "user" {
		t.Fatalf("delete payload: %s", deleted.body)
	}

	// 5. The log: every delivery, newest first, with request and answer.
	res := n.must(http.StatusOK, alice, "GET", hookPath+"/deliveries?limit=50", nil)
	log := res.list()
	if len(log) < 8 || res.header.Get("X-Total-Count") == "" {
		t.Fatalf("deliveries: %s", res.body)
	}
	var sawPush bool
	for _, d := range log {
		if d["event_type"] != "push" || d["state"] != "delivered" {
			continue
		}
		sawPush = true
		req, resp := d["request"].(map[string]any), d["response"].(map[string]any)
		if req["url"] != rc.URL+"/hook" || req["headers"].(map[string]any)["X-Gitea-Event"] != "push" || !strings.Contains(req["body"].(string), `"ref"`) ||
			resp["status"] != 200.0 || resp["body"] != "got it" || resp["headers"].(map[string]any)["X-Receiver"] != "test" || d["is_succeed"] != true {
			t.Fatalf("a push delivery: %s", mustJSON(d))
		}
	}
	if !sawPush {
		t.Fatalf("no delivered push in the log: %s", res.body)
	}
}

// TestWebhookRetryRedeliverAndTest: a receiver failing with 500 gets the
// delivery again after the backoff; a redelivery sends the same payload
// under a new delivery id; a test delivery is a push of the default
// branch's head; a form hook gets payload=<JSON> signed over the JSON.
func TestWebhookRetryRedeliverAndTest(t *testing.T) {
	t.Parallel()
	onStores(t, testWebhookRetryRedeliverAndTest)
}

func testWebhookRetryRedeliverAndTest(t *testing.T, opts []forgetest.Option) {
	n := startHooksNode(t, dnode.WebhookConfig{AllowPrivate: true, RetryBase: 50 * time.Millisecond}, opts...)
	rc := newReceiver(t, http.StatusInternalServerError)
	alice := n.NewUser()
	r := n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	hook := n.must(http.StatusCreated, alice, "POST", base+"/hooks", map[string]any{
		"type": "gitea", "active": true, "events": []string{"issues"},
		"config": map[string]string{"url": rc.URL, "content_type": "form", "secret": "k"},
	}).obj()
	hookPath := base + "/hooks/" + num(hook["id"])

	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Retry me"})
	first := rc.wait(t, "first try", ofType(t, "issues", nil))
	second := rc.waitNth(t, "retry", 2, ofType(t, "issues", nil))
	if string(second.body) != string(first.body) || second.header.Get("X-Gitea-Delivery") != first.header.Get("X-Gitea-Delivery") {
		t.Fatal("the retry is not the same delivery")
	}
	if !strings.HasPrefix(second.header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		t.Fatalf("form content type: %v", second.header)
	}
	checkSigned(t, second, "k", "issues")
	var d map[string]any
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		log := n.must(http.StatusOK, alice, "GET", hookPath+"/deliveries", nil).list()
		if len(log) == 1 && log[0]["state"] == "delivered" {
			d = log[0]
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if d == nil || d["attempts"] != 2.0 || d["response"].(map[string]any)["status"] != 200.0 {
		t.Fatalf("after the retry: %s", mustJSON(d))
	}

	// Redeliver: the same body, a new delivery id.
	again := n.must(http.StatusCreated, alice, "POST", hookPath+"/deliveries/"+num(d["id"])+"/redeliver", nil).obj()
	// A quick receiver may have answered before the reply was written.
	if again["uuid"] == d["uuid"] || (again["state"] != "pending" && again["state"] != "delivered") {
		t.Fatalf("redelivery: %s", mustJSON(again))
	}
	re := rc.wait(t, "redelivery", func(h hit) bool { return h.header.Get("X-Gitea-Delivery") == again["uuid"] })
	if string(re.body) != string(first.body) {
		t.Fatal("a redelivery sent another payload")
	}
	n.must(http.StatusNotFound, alice, "POST", hookPath+"/deliveries/999999/redeliver", nil)

	// A test delivery: push-shaped, the head of main, whatever the events.
	head := n.branchTip(n.dir(r), "main")
	n.must(http.StatusNoContent, alice, "POST", hookPath+"/tests", nil)
	test := rc.wait(t, "test", ofType(t, "push", nil))
	checkSigned(t, test, "k", "push")
	if p := test.payload(t); p["after"] != head || p["ref"] != "refs/heads/main" || len(p["commits"].([]any)) != 1 {
		t.Fatalf("test payload: %s", test.body)
	}
}

// TestWebhookRefusesPrivateTargets: by default a hook cannot reach the
// loopback receiver; the delivery fails with the reason in the log and
// the receiver never hears from the node.
func TestWebhookRefusesPrivateTargets(t *testing.T) {
	t.Parallel()
	n := startHooksNode(t, dnode.WebhookConfig{RetryBase: 10 * time.Millisecond})
	rc := newReceiver(t)
	alice := n.NewUser()
	n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	hook := n.must(http.StatusCreated, alice, "POST", base+"/hooks", map[string]any{
		"type": "gitea", "active": true, "config": map[string]string{"url": rc.URL, "content_type": "json"},
	}).obj()
	hookPath := base + "/hooks/" + num(hook["id"])
	n.must(http.StatusNoContent, alice, "POST", hookPath+"/tests", nil)
	var d map[string]any
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		log := n.must(http.StatusOK, alice, "GET", hookPath+"/deliveries", nil).list()
		if len(log) == 1 && log[0]["state"] == "failed" {
			d = log[0]
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if d == nil || !strings.Contains(d["error"].(string), "loopback address") || d["response"] != nil || d["attempts"] != 5.0 {
		t.Fatalf("refused delivery: %s", mustJSON(d))
	}
	if rc.count() != 0 {
		t.Fatal("the node reached a loopback receiver")
	}
}

// TestWebhookValidationAndAccess: malformed settings are refused naming
// the field; only the repository's administrators see or change hooks;
// a private repository's hooks are not found for others; the secret is
// never returned.
func TestWebhookValidationAndAccess(t *testing.T) {
	t.Parallel()
	n := startHooksNode(t, dnode.WebhookConfig{AllowPrivate: true})
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	n.repo(alice, "app", false)
	n.repo(alice, "secret", true)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	ok := map[string]any{"type": "gitea", "config": map[string]string{"url": "https://example.org/hook", "content_type": "json", "secret": "x"}}
	for _, tc := range []struct {
		name, field string
		body        map[string]any
	}{
		{"bad url", "config.url", map[string]any{"type": "gitea", "config": map[string]string{"url": "not a url", "content_type": "json"}}},
		{"ftp url", "config.url", map[string]any{"type": "gitea", "config": map[string]string{"url": "ftp://example.org/", "content_type": "json"}}},
		{"no url", "config.url", map[string]any{"type": "gitea", "config": map[string]string{"content_type": "json"}}},
		{"content type", "config.content_type", map[string]any{"type": "gitea", "config": map[string]string{"url": "https://example.org", "content_type": "xml"}}},
		{"event", "events", map[string]any{"type": "gitea", "events": []string{"push", "nope"}, "config": map[string]string{"url": "https://example.org", "content_type": "json"}}},
		{"type", "type", map[string]any{"type": "slack", "config": map[string]string{"url": "https://example.org", "content_type": "json"}}},
		{"header", "authorization_header", map[string]any{"type": "gitea", "authorization_header": "a\r\nb", "config": map[string]string{"url": "https://example.org", "content_type": "json"}}},
	} {
		res := n.must(http.StatusUnprocessableEntity, alice, "POST", base+"/hooks", tc.body).obj()
		if !strings.Contains(mustJSON(res), tc.field) {
			t.Fatalf("%s: %s", tc.name, mustJSON(res))
		}
	}
	if got := n.must(http.StatusOK, alice, "GET", base+"/hooks", nil).list(); len(got) != 0 {
		t.Fatalf("a refused hook was stored: %v", got)
	}
	h := n.must(http.StatusCreated, alice, "POST", base+"/hooks", ok).obj()
	if h["active"] != false || mustJSON(h["events"]) != `["push"]` || strings.Contains(mustJSON(h), `"x"`) {
		t.Fatalf("defaults: %s", mustJSON(h))
	}
	path := base + "/hooks/" + num(h["id"])

	n.must(http.StatusUnauthorized, nil, "GET", base+"/hooks", nil)
	n.must(http.StatusForbidden, bob, "GET", base+"/hooks", nil)
	n.must(http.StatusForbidden, bob, "POST", base+"/hooks", ok)
	n.must(http.StatusForbidden, bob, "DELETE", path, nil)
	n.must(http.StatusNotFound, carol, "GET", "/api/v1/repos/"+alice.Name()+"/secret/hooks", nil)
	n.must(http.StatusNotFound, carol, "POST", "/api/v1/repos/"+alice.Name()+"/secret/hooks", ok)
	n.must(http.StatusCreated, alice, "POST", "/api/v1/repos/"+alice.Name()+"/secret/hooks", ok)
	// A hook of one repository is not found under another.
	n.must(http.StatusNotFound, alice, "GET", "/api/v1/repos/"+alice.Name()+"/secret/hooks/"+num(h["id"]), nil)
	n.must(http.StatusNotFound, alice, "GET", base+"/hooks/abc", nil)

	// A maintainer is an administrator here (Gitea's admin collaborator).
	n.must(http.StatusNoContent, alice, "PUT", base+"/collaborators/"+bob.Name(), map[string]any{"permission": "admin"})
	edited := n.must(http.StatusOK, bob, "PATCH", path, map[string]any{"active": true, "events": []string{"issues", "push"},
		"branch_filter": "main", "config": map[string]string{"content_type": "form"}}).obj()
	if edited["active"] != true || mustJSON(edited["events"]) != `["issues","push"]` || edited["branch_filter"] != "main" ||
		edited["config"].(map[string]any)["content_type"] != "form" || edited["config"].(map[string]any)["url"] != "https://example.org/hook" {
		t.Fatalf("edited: %s", mustJSON(edited))
	}
	n.must(http.StatusUnprocessableEntity, bob, "PATCH", path, map[string]any{"config": map[string]string{"url": "javascript:alert(1)"}})
	if got := n.must(http.StatusOK, bob, "GET", path, nil).obj(); got["config"].(map[string]any)["url"] != "https://example.org/hook" {
		t.Fatalf("a refused edit applied: %s", mustJSON(got))
	}
	n.must(http.StatusNoContent, bob, "DELETE", path, nil)
	n.must(http.StatusNotFound, bob, "GET", path, nil)
}

// TestWebhookGiteaSDK: Gitea's Go SDK creates, lists, reads, edits and
// deletes a repository's hook.
func TestWebhookGiteaSDK(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	u := signUpForSDK(t, n)
	c := u.client
	_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: "hooked", AutoInit: true, Readme: "Default"})
	check(t, "CreateRepo", err)
	h, _, err := c.CreateRepoHook(u.login, "hooked", gitea.CreateHookOption{Type: gitea.HookTypeGitea, Active: true,
		Events: []string{"push", "issues"}, Config: map[string]string{"url": "https://example.org/x", "content_type": "json", "secret": "s"}})
	check(t, "CreateRepoHook", err)
	if h.ID == 0 || !h.Active || h.Config["url"] != "https://example.org/x" || h.Config["secret"] != "" || len(h.Events) != 2 || h.Created.IsZero() {
		t.Fatalf("CreateRepoHook: %+v", h)
	}
	list, _, err := c.ListRepoHooks(u.login, "hooked", gitea.ListHooksOptions{})
	check(t, "ListRepoHooks", err)
	if len(list) != 1 || list[0].ID != h.ID {
		t.Fatalf("ListRepoHooks: %+v", list)
	}
	off := false
	_, err = c.EditRepoHook(u.login, "hooked", h.ID, gitea.EditHookOption{Active: &off, Events: []string{"pull_request"}})
	check(t, "EditRepoHook", err)
	got, _, err := c.GetRepoHook(u.login, "hooked", h.ID)
	check(t, "GetRepoHook", err)
	if got.Active || len(got.Events) != 1 || got.Events[0] != "pull_request" || got.Config["url"] != "https://example.org/x" {
		t.Fatalf("after EditRepoHook: %+v", got)
	}
	_, err = c.DeleteRepoHook(u.login, "hooked", h.ID)
	check(t, "DeleteRepoHook", err)
	if _, res, err := c.GetRepoHook(u.login, "hooked", h.ID); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetRepoHook after delete: %v", err)
	}
}

// sameFields fails unless the payload's object has the API answer's
// fields, apart from apiOnly, and no others.
func sameFields(t *testing.T, what string, payload, answer any, apiOnly ...string) {
	t.Helper()
	p, a := obj(t, payload, what), obj(t, answer, what)
	for k := range a {
		if _, ok := p[k]; !ok && !slices.Contains(apiOnly, k) {
			t.Errorf("the payload's %s has no %q, which the API's has", what, k)
		}
	}
	for k := range p {
		if _, ok := a[k]; !ok {
			t.Errorf("the payload's %s has %q, which the API's has not", what, k)
		}
	}
}
