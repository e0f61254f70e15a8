package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/index"
)

// The feed (GET /user/feed) and Gitea's activity feeds read the one
// activity projection Home reads: bob follows alice and stars carol's
// repository; what alice does and what happens in that repository shows,
// a stranger's elsewhere does not, nor private work bob cannot read.

// feedLines is bob's feed as activityLine's, newest first.
func (n *issuesNode) feedLines(u *forgetest.User, path string) []string {
	n.t.Helper()
	var list []index.Activity
	if err := json.Unmarshal(n.must(http.StatusOK, u, "GET", path, nil).body, &list); err != nil {
		n.t.Fatal(err)
	}
	out := []string{}
	for _, a := range list {
		out = append(out, activityLine(a))
	}
	return out
}

func hasLine(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

func TestFeed(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testFeed(t, &issuesNode{Node: forgetest.Start(t, opts...), t: t})
		})
	}
}

func testFeed(t *testing.T, n *issuesNode) {
	alice, bob, carol, dave := n.NewUser(), n.NewUser("all"), n.NewUser(), n.NewUser()
	n.repo(alice, "lamp", false)
	n.repo(alice, "vault", true)
	n.repo(carol, "tower", false)
	n.repo(dave, "noise", false)
	lamp, vault := "/api/v1/repos/"+alice.Name()+"/lamp", "/api/v1/repos/"+alice.Name()+"/vault"
	tower, noise := "/api/v1/repos/"+carol.Name()+"/tower", "/api/v1/repos/"+dave.Name()+"/noise"

	// 1. Signed out there is no feed; signed in, bob's is his own work.
	n.must(http.StatusUnauthorized, nil, "GET", "/api/v1/user/feed", nil)
	n.must(http.StatusNoContent, bob, "PUT", "/api/v1/user/following/"+alice.Name(), nil)
	n.must(http.StatusNoContent, bob, "PUT", "/api/v1/user/starred/"+carol.Name()+"/tower", nil)

	// 2. Alice's issue, dave's comment in the starred repository, dave's
	// issue in his own (a stranger's work), alice's private issue.
	n.must(http.StatusCreated, alice, "POST", lamp+"/issues", map[string]any{"title": "Dim light"})
	n.must(http.StatusCreated, carol, "POST", tower+"/issues", map[string]any{"title": "Crack"})
	var cm struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal(n.must(http.StatusCreated, dave, "POST", tower+"/issues/1/comments", map[string]any{"body": "Seen it too."}).body, &cm)
	n.must(http.StatusCreated, dave, "POST", noise+"/issues", map[string]any{"title": "Loud"})
	n.must(http.StatusCreated, alice, "POST", vault+"/issues", map[string]any{"title": "Hidden key"})

	feed := n.feedLines(bob, "/api/v1/user/feed")
	aliceIssue := "issue.open " + alice.Name() + " " + alice.Name() + `/lamp #1 "Dim light"`
	daveComment := "comment " + dave.Name() + " " + carol.Name() + `/tower #1 "Crack"`
	carolIssue := "issue.open " + carol.Name() + " " + carol.Name() + `/tower #1 "Crack"`
	strangerIssue := "issue.open " + dave.Name() + " " + dave.Name() + `/noise #1 "Loud"`
	secretIssue := "issue.open " + alice.Name() + " " + alice.Name() + `/vault #1 "Hidden key"`
	if len(feed) == 0 || feed[0] != daveComment || !hasLine(feed, aliceIssue) || !hasLine(feed, carolIssue) {
		t.Fatalf("bob's feed:\n%s", strings.Join(feed, "\n"))
	}
	if hasLine(feed, strangerIssue) || hasLine(feed, secretIssue) {
		t.Fatalf("bob's feed shows a stranger's or private work:\n%s", strings.Join(feed, "\n"))
	}
	// Home's list holds the stranger's too, and never the private issue.
	home := n.feedLines(nil, "/api/v1/activity?limit=50")
	if !hasLine(home, strangerIssue) || !hasLine(home, daveComment) || hasLine(home, secretIssue) {
		t.Fatalf("home:\n%s", strings.Join(home, "\n"))
	}
	// Alice's own feed holds her private work.
	if !hasLine(n.feedLines(alice, "/api/v1/user/feed"), secretIssue) {
		t.Fatal("alice's feed misses her private issue")
	}

	// 3. Paged: one item a page, with the total.
	res := n.must(http.StatusOK, bob, "GET", "/api/v1/user/feed?page=2&limit=1", nil)
	if res.header.Get("X-Total-Count") != itoa(int64(len(feed))) || !strings.Contains(res.header.Get("Link"), `rel="next"`) {
		t.Fatalf("page 2: %v %s", res.header, res.body)
	}
	n.must(http.StatusBadRequest, bob, "GET", "/api/v1/user/feed?limit=x", nil)

	// 4. Made a collaborator, bob reads the vault, and its issue shows;
	// under a public-only token it does not.
	n.must(http.StatusNoContent, alice, "PUT", vault+"/collaborators/"+bob.Name(), map[string]any{"permission": "read"})
	if !hasLine(n.feedLines(bob, "/api/v1/user/feed"), secretIssue) {
		t.Fatal("the collaborator's feed misses the private issue")
	}
	var tok struct {
		SHA1 string `json:"sha1"`
	}
	json.Unmarshal(n.must(http.StatusCreated, bob, "POST", "/api/v1/users/"+bob.Name()+"/tokens",
		map[string]any{"name": "pub", "scopes": []string{"public-only", "read:user", "read:repository"}}).body, &tok)
	public := &forgetest.User{Address: bob.Address, Token: tok.SHA1}
	if hasLine(n.feedLines(public, "/api/v1/user/feed"), secretIssue) {
		t.Fatal("a public-only token sees the private issue")
	}

	// 5. A deleted comment leaves the feed and Home.
	n.must(http.StatusNoContent, dave, "DELETE", tower+"/issues/comments/"+itoa(cm.ID), nil)
	if hasLine(n.feedLines(bob, "/api/v1/user/feed"), daveComment) || hasLine(n.feedLines(nil, "/api/v1/activity?limit=50"), daveComment) {
		t.Fatal("the deleted comment still shows")
	}

	// 6. Gitea's feeds, through its SDK: a user's own actions, a
	// repository's, a day's; a private repository is 404 to others.
	c := sdkClient(t, n.Node, carol)
	acts, _, err := c.ListUserActivityFeeds(alice.Name(), gitea.ListUserActivityFeedsOptions{OnlyPerformedBy: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		if a.ActUser == nil || a.ActUser.UserName != alice.Name() || a.Repo == nil || a.Repo.Private || a.ID == 0 {
			t.Fatalf("alice's activity for carol: %+v", a)
		}
	}
	if len(acts) != 3 || acts[0].OpType != "create_issue" || acts[0].Content != "1|Dim light" || acts[0].Repo.Name != "lamp" {
		t.Fatalf("alice's activity for carol: %d, first %+v", len(acts), acts[0])
	}
	acts, _, err = c.ListRepoActivityFeeds(carol.Name(), "tower", gitea.ListRepoActivityFeedsOptions{})
	if err != nil || len(acts) != 3 || acts[0].OpType != "create_issue" || acts[len(acts)-1].OpType != "create_repo" {
		t.Fatalf("tower's activity: %+v %v", acts, err)
	}
	day := acts[0].Created.UTC().Format("2006-01-02")
	acts, _, err = c.ListRepoActivityFeeds(carol.Name(), "tower", gitea.ListRepoActivityFeedsOptions{Date: day})
	if err != nil || len(acts) != 3 {
		t.Fatalf("tower's activity on %s: %d %v", day, len(acts), err)
	}
	acts, _, err = c.ListRepoActivityFeeds(carol.Name(), "tower", gitea.ListRepoActivityFeedsOptions{Date: "1999-01-01"})
	if err != nil || len(acts) != 0 {
		t.Fatalf("tower's activity in 1999: %d %v", len(acts), err)
	}
	n.must(http.StatusUnprocessableEntity, carol, "GET", tower+"/activities/feeds?date=yesterday", nil)
	n.must(http.StatusNotFound, carol, "GET", vault+"/activities/feeds", nil)
	var giteaActs []map[string]any
	json.Unmarshal(n.must(http.StatusOK, bob, "GET", vault+"/activities/feeds", nil).body, &giteaActs)
	if len(giteaActs) != 3 || giteaActs[0]["op_type"] != "create_issue" || giteaActs[0]["is_private"] != true {
		t.Fatalf("the vault's activity for its collaborator: %+v", giteaActs)
	}
	n.must(http.StatusNotFound, carol, "GET", "/api/v1/users/nobody-here/activities/feeds", nil)
}

// TestFeedShowsEachRepositoryAsItIs: a feed read twice is the same bytes,
// and its items (the repository's creation, its first push and an issue)
// follow their repository's edit, its stars and an offer to a new owner,
// though each item and repository is kept encoded.
func TestFeedShowsEachRepositoryAsItIs(t *testing.T) {
	t.Parallel()
	n := &issuesNode{Node: forgetest.Start(t), t: t}
	alice, bob := n.NewUser(), n.NewUser()
	n.repo(alice, "lamp", false)
	base := "/api/v1/repos/" + alice.Name() + "/lamp"
	n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "Dim light"})
	feed := "/api/v1/users/" + alice.Name() + "/activities/feeds"
	type item struct {
		OpType string `json:"op_type"`
		Repo   struct {
			Description  string `json:"description"`
			Stars        int    `json:"stars_count"`
			RepoTransfer *struct {
				Recipient struct{ Login string }
			} `json:"repo_transfer"`
		} `json:"repo"`
	}
	read := func() []item {
		t.Helper()
		first, again := n.must(http.StatusOK, bob, "GET", feed, nil).body, n.must(http.StatusOK, bob, "GET", feed, nil).body
		if string(first) != string(again) {
			t.Fatalf("the feed read twice:\n%s\n%s", first, again)
		}
		var items []item
		if err := json.Unmarshal(again, &items); err != nil || len(items) != 3 {
			t.Fatalf("alice's feed: %s (%v)", again, err)
		}
		return items
	}
	if items := read(); items[0].OpType != "create_issue" || items[2].OpType != "create_repo" || items[0].Repo.Description != "" {
		t.Fatalf("alice's feed: %+v", items)
	}
	n.must(http.StatusOK, alice, "PATCH", base, map[string]any{"description": "now described"})
	n.must(http.StatusNoContent, bob, "PUT", "/api/v1/user/starred/"+alice.Name()+"/lamp", nil)
	for _, it := range read() {
		if it.Repo.Description != "now described" || it.Repo.Stars != 1 || it.Repo.RepoTransfer != nil {
			t.Fatalf("after the edit and bob's star: %+v", it)
		}
	}
	if res := n.WalletCall("POST", base+"/transfer", alice, map[string]string{"new_owner": bob.Name()}); res.Status != http.StatusCreated {
		t.Fatalf("offer lamp to bob: %d %s", res.Status, res.Body)
	}
	for _, it := range read() {
		if it.Repo.RepoTransfer == nil || it.Repo.RepoTransfer.Recipient.Login != bob.Name() {
			t.Fatalf("after the offer to bob: %+v", it)
		}
	}
}
