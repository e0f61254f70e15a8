package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestReadsFollowWrites: the index keeps the answers of repeated reads (a
// repository by name, a permission, an issue list's page and total) only
// until the projection changes, so every read after a write sees it.
func TestReadsFollowWrites(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser(), n.NewUser()
	n.repo(alice, "cached", false)
	n.repo(alice, "secret", true)
	base := "/api/v1/repos/" + alice.Name() + "/cached"

	// numbers lists the issue numbers of a list and its X-Total-Count.
	numbers := func(path string) ([]float64, string) {
		t.Helper()
		res := n.must(http.StatusOK, nil, "GET", path, nil)
		var out []float64
		for _, is := range res.list() {
			out = append(out, is["number"].(float64))
		}
		return out, res.header.Get("X-Total-Count")
	}
	expect := func(path string, want []float64, total int) {
		t.Helper()
		got, gotTotal := numbers(path)
		if !slices.Equal(got, want) || gotTotal != fmt.Sprint(total) {
			t.Fatalf("%s: %v of %s, want %v of %d", path, got, gotTotal, want, total)
		}
	}

	// 1. Each new issue shows at once, in the list and its total.
	expect(base+"/issues?state=all", nil, 0)
	for i := 1; i <= 3; i++ {
		n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": fmt.Sprint("issue ", i)})
		var want []float64
		for j := i; j >= 1; j-- {
			want = append(want, float64(j))
		}
		expect(base+"/issues?state=all", want, i)
		expect(base+"/issues", want, i)
	}
	expect(base+"/issues?limit=2", []float64{3, 2}, 3)
	expect(base+"/issues?limit=2&page=2", []float64{1}, 3)

	// 2. A closed issue leaves the open list and joins the closed one.
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/2", map[string]any{"state": "closed"})
	expect(base+"/issues", []float64{3, 1}, 2)
	expect(base+"/issues?state=closed", []float64{2}, 1)
	expect(base+"/issues?limit=2", []float64{3, 1}, 2)
	// Its title changes in the list too.
	n.must(http.StatusCreated, alice, "PATCH", base+"/issues/3", map[string]any{"title": "renamed issue"})
	if list := n.must(http.StatusOK, nil, "GET", base+"/issues", nil).list(); list[0]["title"] != "renamed issue" {
		t.Fatalf("title after the edit: %v", list[0]["title"])
	}

	// 3. A renamed repository answers to its new name only.
	n.must(http.StatusOK, alice, "PATCH", base, map[string]any{"name": "moved"})
	n.must(http.StatusNotFound, nil, "GET", base, nil)
	n.must(http.StatusNotFound, nil, "GET", base+"/issues", nil)
	moved := "/api/v1/repos/" + alice.Name() + "/moved"
	if got := n.must(http.StatusOK, nil, "GET", moved, nil).obj(); got["name"] != "moved" {
		t.Fatalf("renamed: %v", got)
	}
	expect(moved+"/issues", []float64{3, 1}, 2)

	// 4. A collaborator sees a private repository from the moment they are
	// added, and no longer once removed.
	secret := "/api/v1/repos/" + alice.Name() + "/secret"
	n.must(http.StatusNotFound, bob, "GET", secret, nil)
	n.must(http.StatusNoContent, alice, "PUT", secret+"/collaborators/"+bob.Name(), map[string]any{"permission": "read"})
	if got := n.must(http.StatusOK, bob, "GET", secret, nil).obj(); got["permissions"].(map[string]any)["pull"] != true {
		t.Fatalf("bob's view: %v", got)
	}
	n.must(http.StatusNoContent, alice, "DELETE", secret+"/collaborators/"+bob.Name(), nil)
	n.must(http.StatusNotFound, bob, "GET", secret, nil)
}

// TestListItemsFollowChanges: issue lists are put together from issues
// encoded before (itemjson), so an issue that changed must be encoded
// again; comment lists must follow their comments too. Each change here touches something an
// item shows but its own row does not hold (its author's name, its
// repository's name) or a row the list reads beside it (a comment's
// count), after the list was read once.
func TestListItemsFollowChanges(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, carol := n.NewUser(), n.NewUser()
	n.repo(alice, "kept", false)
	base := "/api/v1/repos/" + alice.Name() + "/kept"
	n.must(http.StatusCreated, carol, "POST", base+"/issues", map[string]any{"title": "by carol"})
	n.must(http.StatusCreated, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "first"})
	first := func(path string) map[string]any {
		t.Helper()
		list := n.must(http.StatusOK, nil, "GET", path, nil).list()
		if len(list) == 0 {
			t.Fatalf("%s: empty", path)
		}
		return list[0]
	}
	login := func(item map[string]any) any { return item["user"].(map[string]any)["login"] }
	if is := first(base + "/issues"); login(is) != carol.Name() || is["comments"] != float64(1) {
		t.Fatalf("before: %v", is)
	}
	first(base + "/issues/1/comments")

	// Carol's name, which only the accounts' table holds.
	claimUsername(t, n.Node, carol.Key, "carol-named")
	if got := login(first(base + "/issues")); got != "carol-named" {
		t.Fatalf("author after the claim: %v", got)
	}
	// A second comment: the count in the list, and the comment list.
	n.must(http.StatusCreated, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "second"})
	if got := first(base + "/issues")["comments"]; got != float64(2) {
		t.Fatalf("comments after a second: %v", got)
	}
	if list := n.must(http.StatusOK, nil, "GET", base+"/issues/1/comments", nil).list(); len(list) != 2 || list[1]["body"] != "second" {
		t.Fatalf("comment list: %v", list)
	}
	// An edited comment.
	id := first(base + "/issues/1/comments")["id"]
	n.must(http.StatusOK, alice, "PATCH", fmt.Sprintf("%s/issues/comments/%v", base, id), map[string]any{"body": "first, edited"})
	if got := first(base + "/issues/1/comments"); got["body"] != "first, edited" || got["updated_at"] == got["created_at"] {
		t.Fatalf("comment after the edit (its updated_at is the edit's, as Gitea's): %v", got)
	}
	// The repository's new name, in every item's repository.
	n.must(http.StatusOK, alice, "PATCH", base, map[string]any{"name": "renamed"})
	moved := "/api/v1/repos/" + alice.Name() + "/renamed"
	if got := first(moved + "/issues")["repository"].(map[string]any)["full_name"]; got != alice.Name()+"/renamed" {
		t.Fatalf("repository after the rename: %v", got)
	}
	if got := first(moved + "/issues/1/comments")["issue_url"]; !strings.Contains(fmt.Sprint(got), "/renamed/issues/1") {
		t.Fatalf("comment's issue_url after the rename: %v", got)
	}
}
