package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

type threadJSON struct {
	ID         int64 `json:"id"`
	Repository *struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
	Subject struct {
		Title string `json:"title"`
		Type  string `json:"type"`
		State string `json:"state"`
		URL   string `json:"url"`
	} `json:"subject"`
	Unread bool   `json:"unread"`
	Reason string `json:"reason"`
	Actor  string `json:"actor"`
}

// threads lists u's notifications with query q.
func (n *issuesNode) threads(u *forgetest.User, q string) []threadJSON {
	n.t.Helper()
	var out []threadJSON
	n.JSON("GET", "/api/v1/notifications"+q, u, nil, http.StatusOK, &out)
	return out
}

// reasons is u's threads as "type #title reason" lines, newest first.
func (n *issuesNode) reasons(u *forgetest.User, q string) string {
	n.t.Helper()
	var lines []string
	for _, th := range n.threads(u, q) {
		lines = append(lines, th.Subject.Type+" "+th.Subject.Title+" "+th.Reason)
	}
	return strings.Join(lines, "; ")
}

func (n *issuesNode) unread(u *forgetest.User) int64 {
	n.t.Helper()
	var c struct{ New int64 }
	n.JSON("GET", "/api/v1/notifications/new", u, nil, http.StatusOK, &c)
	return c.New
}

// TestNotifications: mentions, comments on followed threads, a merge that
// closes an issue reach the right people and never the actor; another's
// thread is a 404; preferences hide what they turn off; marking read.
func TestNotifications(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testNotifications(t, &issuesNode{Node: forgetest.Start(t, opts...), t: t})
		})
	}
}

func testNotifications(t *testing.T, n *issuesNode) {
	alice, bob, carol, dave := n.NewUser(), n.NewUser(), n.NewUser(), n.NewUser()
	repo := n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	// bob's star puts him on chain, so his default name resolves; carol watches.
	n.must(http.StatusNoContent, bob, "PUT", "/api/v1/user/starred/"+alice.Name()+"/app", nil)
	n.must(http.StatusOK, carol, "PUT", base+"/subscription", nil)

	// 1. alice opens an issue mentioning bob: bob (mention) and carol
	// (watching) hear of it, alice does not.
	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Crash on start", "body": "cc @" + bob.Name() + ", please look"})
	if got := n.reasons(bob, ""); got != "Issue Crash on start mention" {
		t.Fatalf("bob after the mention: %q", got)
	}
	if got := n.reasons(carol, ""); got != "Issue Crash on start subscribed" {
		t.Fatalf("carol, watching: %q", got)
	}
	if got := n.reasons(alice, ""); got != "" {
		t.Fatalf("alice was notified of her own issue: %q", got)
	}

	// 2. dave comments: alice hears as the author, dave does not.
	n.must(http.StatusCreated, dave, "POST", base+"/issues/1/comments", map[string]any{"body": "Same here."})
	if got := n.reasons(alice, ""); got != "Issue Crash on start author" {
		t.Fatalf("alice after dave's comment: %q", got)
	}
	if got := n.reasons(dave, ""); got != "" {
		t.Fatalf("dave was notified of his own comment: %q", got)
	}
	aliceThread := n.threads(alice, "")[0]
	if aliceThread.Repository == nil || aliceThread.Repository.FullName != alice.Name()+"/app" || aliceThread.Subject.State != "open" ||
		!strings.HasSuffix(aliceThread.Subject.URL, "/issues/1") || aliceThread.Actor != dave.Address.Hex() {
		t.Fatalf("alice's thread: %+v", aliceThread)
	}

	// 3. Nobody reaches another's thread: 404, not 403.
	path := fmt.Sprintf("/api/v1/notifications/threads/%d", aliceThread.ID)
	n.must(http.StatusNotFound, bob, "GET", path, nil)
	n.must(http.StatusNotFound, bob, "PATCH", path, nil)
	n.must(http.StatusOK, alice, "GET", path, nil)
	n.must(http.StatusUnauthorized, nil, "GET", "/api/v1/notifications", nil)
	n.must(http.StatusUnprocessableEntity, alice, "GET", "/api/v1/notifications?status-types=gone", nil)
	n.must(http.StatusUnprocessableEntity, alice, "GET", "/api/v1/notifications?since=yesterday", nil)

	// An assignment notifies the assignee (a collaborator: assignees need write).
	n.must(http.StatusNoContent, alice, "PUT", base+"/collaborators/"+dave.Name(), map[string]any{"permission": "write"})
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/1", map[string]any{"assignees": []string{dave.Name()}})
	if got := n.reasons(dave, ""); got != "Issue Crash on start assign" {
		t.Fatalf("dave after his assignment: %q", got)
	}

	// 4. bob's pull request fixes the issue and alice merges it: dave (a
	// participant) hears the issue closed, bob his pull request merged.
	n.fork(bob, repo)
	n.push(bob, bob, "app", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "title": "Fix the crash", "body": "Fixes #1."})
	// carol's review reaches bob as a review of his pull request.
	n.must(http.StatusOK, carol, "POST", base+"/pulls/2/reviews", map[string]any{"event": "COMMENT", "body": "Looks fine."})
	if got := n.reasons(bob, "?subject-type=pull"); got != "Pull Fix the crash review" {
		t.Fatalf("bob after carol's review: %q", got)
	}
	n.must(http.StatusOK, alice, "POST", base+"/pulls/2/merge", map[string]any{"Do": "merge"})
	dt := n.threads(dave, "?subject-type=issue")
	if len(dt) != 1 || dt[0].Subject.Title != "Crash on start" || dt[0].Subject.State != "closed" || dt[0].Reason != "participating" {
		t.Fatalf("dave after the merge: %+v", dt)
	}
	// The owner and dave, a writer, watch the repository by default.
	for _, u := range []*forgetest.User{alice, dave} {
		if got := n.reasons(u, "?subject-type=pull"); got != "Pull Fix the crash subscribed" {
			t.Fatalf("%s's pull requests after the merge: %q", u.Name(), got)
		}
	}
	if got := n.reasons(bob, "?subject-type=pull"); got != "Pull Fix the crash author" {
		t.Fatalf("bob's pull request after the merge: %q", got)
	}
	if got := n.reasons(bob, "?subject-type=pull&subject-type=issue"); !strings.Contains(got, "Pull Fix the crash author") || !strings.Contains(got, "Issue Crash on start") {
		t.Fatalf("bob's threads: %q", got)
	}

	// 5. Preferences: bob turns mentions off and the mention is hidden.
	before := n.unread(bob)
	n.must(http.StatusOK, bob, "PUT", "/api/v1/user/notifications/preferences", map[string]any{"mentions": false})
	if got := n.unread(bob); got != before-1 {
		t.Fatalf("bob's unread count with mentions off: %d, was %d", got, before)
	}
	if got := n.reasons(bob, ""); strings.Contains(got, "mention") {
		t.Fatalf("a mention shown with mentions off: %q", got)
	}

	// 6. Marking read: one thread, then all; read threads show with all=true.
	// alice also heard of her reward for reporting the issue the merge
	// closed.
	if got := n.reasons(alice, "?subject-type=reward"); got != "Reward "+alice.Name()+"/app#1 reward" {
		t.Fatalf("alice's reward: %q", got)
	}
	n.must(http.StatusResetContent, alice, "PUT", "/api/v1/notifications?subject-type=reward", nil)
	n.must(http.StatusResetContent, alice, "PUT", "/api/v1/notifications?subject-type=pull", nil)
	n.must(http.StatusResetContent, alice, "PATCH", path, nil)
	if n.unread(alice) != 0 || len(n.threads(alice, "")) != 0 || len(n.threads(alice, "?all=true&subject-type=issue")) != 1 {
		t.Fatalf("alice after marking her thread read: %d unread", n.unread(alice))
	}
	n.must(http.StatusResetContent, dave, "PUT", "/api/v1/notifications", nil)
	if n.unread(dave) != 0 {
		t.Fatal("dave still has unread threads after marking all read")
	}
	// A new comment makes alice's thread unread again, not its author's.
	n.must(http.StatusResetContent, carol, "PUT", "/api/v1/notifications", nil)
	n.must(http.StatusCreated, carol, "POST", base+"/issues/1/comments", map[string]any{"body": "Thanks!"})
	if n.unread(alice) != 1 || n.unread(carol) != 0 {
		t.Fatalf("after carol's comment: alice %d, carol %d", n.unread(alice), n.unread(carol))
	}
	// The repository's list holds the same.
	var repoThreads []threadJSON
	n.JSON("GET", base+"/notifications", alice, nil, http.StatusOK, &repoThreads)
	if len(repoThreads) != 1 {
		t.Fatalf("alice's threads in the repository: %+v", repoThreads)
	}
}

// TestNotificationsGiteaSDK drives the API with Gitea's Go SDK.
func TestNotificationsGiteaSDK(t *testing.T) {
	t.Parallel()
	n := &issuesNode{Node: forgetest.Start(t), t: t}
	alice, bob := n.NewUser("all"), n.NewUser("all")
	n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "First"})
	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Second"})
	n.must(http.StatusCreated, bob, "POST", base+"/issues/1/comments", map[string]any{"body": "one"})
	n.must(http.StatusCreated, bob, "POST", base+"/issues/2/comments", map[string]any{"body": "two"})

	c, err := gitea.NewClient(n.URL, gitea.SetBasicAuth(alice.Name(), alice.Token))
	check(t, "gitea.NewClient", err)
	count, _, err := c.CheckNotifications()
	check(t, "CheckNotifications", err)
	if count != 2 {
		t.Fatalf("CheckNotifications: %d, want 2", count)
	}
	list, _, err := c.ListNotifications(gitea.ListNotificationOptions{Status: []gitea.NotifyStatus{gitea.NotifyStatusUnread}})
	check(t, "ListNotifications", err)
	if len(list) != 2 || list[0].Subject.Title != "Second" || list[0].Subject.Type != gitea.NotifySubjectIssue ||
		list[0].Repository == nil || list[0].Repository.Name != "app" || !list[0].Unread {
		t.Fatalf("ListNotifications: %d threads, first %+v", len(list), list[0])
	}
	th, _, err := c.ReadNotification(list[0].ID)
	check(t, "ReadNotification", err)
	if th.Unread || th.ID != list[0].ID {
		t.Fatalf("ReadNotification answered %+v", th)
	}
	got, _, err := c.GetNotification(list[1].ID)
	check(t, "GetNotification", err)
	if !got.Unread || got.Subject.Title != "First" {
		t.Fatalf("GetNotification: %+v", got)
	}
	marked, _, err := c.ReadNotifications(gitea.MarkNotificationOptions{})
	check(t, "ReadNotifications", err)
	if len(marked) != 1 || marked[0].ID != list[1].ID || marked[0].Unread {
		t.Fatalf("ReadNotifications: %+v", marked)
	}
	if count, _, _ := c.CheckNotifications(); count != 0 {
		t.Fatalf("unread after ReadNotifications: %d", count)
	}
	repoList, _, err := c.ListRepoNotifications(alice.Name(), "app", gitea.ListNotificationOptions{Status: []gitea.NotifyStatus{gitea.NotifyStatusRead}})
	check(t, "ListRepoNotifications", err)
	if len(repoList) != 2 {
		t.Fatalf("ListRepoNotifications: %d threads", len(repoList))
	}
	bc, err := gitea.NewClient(n.URL, gitea.SetBasicAuth(bob.Name(), bob.Token))
	check(t, "gitea.NewClient", err)
	if _, res, err := bc.GetNotification(list[0].ID); err == nil || res == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("bob read alice's thread: %v", err)
	}
}

// TestNotificationStream: the badge's stream sends the unread count at
// once and again when a comment arrives.
func TestNotificationStream(t *testing.T) {
	t.Parallel()
	n := &issuesNode{Node: forgetest.Start(t), t: t}
	alice, bob := n.NewUser(), n.NewUser()
	n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Live"})

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", n.URL+"/api/v1/notifications/stream", nil)
	req.Header.Set("Authorization", "token "+alice.Token)
	res, err := http.DefaultClient.Do(req)
	check(t, "open the stream", err)
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	events := bufio.NewScanner(res.Body)
	next := func() string {
		t.Helper()
		for events.Scan() {
			if line := events.Text(); strings.HasPrefix(line, "data: ") {
				return strings.TrimPrefix(line, "data: ")
			}
		}
		t.Fatalf("the stream ended: %v", events.Err())
		return ""
	}
	if got := next(); got != `{"new":0}` {
		t.Fatalf("first event: %s", got)
	}
	n.must(http.StatusCreated, bob, "POST", base+"/issues/1/comments", map[string]any{"body": "hello"})
	if got := next(); got != `{"new":1}` {
		t.Fatalf("event after bob's comment: %s", got)
	}
}

// TestNotificationListShowsEachThreadAsItIs: read twice, the list is the
// same bytes, each thread is what its own route shows, and a thread
// follows a change of its repository and of its status.
func TestNotificationListShowsEachThreadAsItIs(t *testing.T) {
	t.Parallel()
	n := &issuesNode{Node: forgetest.Start(t), t: t}
	alice, bob := n.NewUser(), n.NewUser()
	n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "One"})
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "Two"})
	const list = "/api/v1/notifications?all=true"
	asAlone := func(want int) []map[string]any {
		t.Helper()
		first, again := n.Call("GET", list, alice, nil), n.Call("GET", list, alice, nil)
		if first.Status != http.StatusOK || !bytes.Equal(first.Body, again.Body) {
			t.Fatalf("the list read twice:\n%s\n%s", first.Body, again.Body)
		}
		var items []map[string]any
		if err := json.Unmarshal(again.Body, &items); err != nil || len(items) != want {
			t.Fatalf("alice's threads: %s (%v), want %d", again.Body, err, want)
		}
		for _, item := range items {
			var one map[string]any
			n.JSON("GET", fmt.Sprintf("/api/v1/notifications/threads/%v", item["id"]), alice, nil, http.StatusOK, &one)
			if !reflect.DeepEqual(item, one) {
				t.Fatalf("in the list:\n%v\nalone:\n%v", item, one)
			}
		}
		return items
	}
	items := asAlone(2)
	// The repository's description and the thread's status reach the
	// list.
	n.must(http.StatusOK, alice, "PATCH", base, map[string]any{"description": "now described"})
	n.must(http.StatusResetContent, alice, "PATCH", fmt.Sprintf("/api/v1/notifications/threads/%v", items[0]["id"]), nil)
	var after []threadJSON
	n.JSON("GET", list, alice, nil, http.StatusOK, &after)
	var repo []struct {
		Repository struct{ Description string }
	}
	n.JSON("GET", list, alice, nil, http.StatusOK, &repo)
	if len(after) != 2 || after[0].Unread || !after[1].Unread || repo[0].Repository.Description != "now described" || repo[1].Repository.Description != "now described" {
		t.Fatalf("after the repository's edit and a thread read: %+v %+v", after, repo)
	}
	// A repository offered to alice: a thread whose subject is the
	// repository, shown with its pending offer.
	n.repo(bob, "gift", false)
	if res := n.WalletCall("POST", "/api/v1/repos/"+bob.Name()+"/gift/transfer", bob, map[string]string{"new_owner": alice.Name()}); res.Status != http.StatusCreated {
		t.Fatalf("offer bob's gift to alice: %d %s", res.Status, res.Body)
	}
	if offered := asAlone(3)[0]; offered["subject"].(map[string]any)["type"] != "Repository" || offered["repository"].(map[string]any)["repo_transfer"] == nil {
		t.Fatalf("the offer's thread: %v", offered)
	}
}
