package api_test

import (
	"fmt"
	"net/http"
	"slices"
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
