package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// Issue 11: names Gitea, git or Windows would refuse are answered 422
// before anything is written, on creation, renaming and a default branch.
func TestRefusedRepoAndBranchNames(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	code := func(res forgetest.Response) string {
		var body struct {
			Code string `json:"code"`
		}
		json.Unmarshal(res.Body, &body)
		return body.Code
	}
	for _, name := range []string{"HEAD", "api", "CON", "-lead", "a..b"} {
		res := n.Call("POST", "/api/v1/user/repos", alice, map[string]any{"name": name, "auto_init": true})
		if res.Status != http.StatusUnprocessableEntity || code(res) != "invalid_name" {
			t.Errorf("create %q: %d %s", name, res.Status, res.Body)
		}
	}
	res := n.Call("POST", "/api/v1/user/repos", alice, map[string]any{"name": "ok", "default_branch": "HEAD", "auto_init": true})
	if res.Status != http.StatusUnprocessableEntity {
		t.Errorf("create with default branch HEAD: %d %s", res.Status, res.Body)
	}
	var mine []repoOut
	n.JSON("GET", "/api/v1/user/repos", alice, nil, http.StatusOK, &mine)
	if len(mine) != 0 {
		t.Fatalf("refused names left repositories: %+v", mine)
	}

	// An empty repository (no branch to look up) and one with a README.
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "empty"}, http.StatusCreated, nil)
	create(t, n, alice, "code", false)
	for _, name := range []string{"empty", "code"} {
		if res := n.Call("PATCH", repoPath(alice, name), alice, map[string]any{"default_branch": "HEAD"}); res.Status != http.StatusUnprocessableEntity {
			t.Errorf("%s: default branch HEAD: %d %s", name, res.Status, res.Body)
		}
		if res := n.Call("PATCH", repoPath(alice, name), alice, map[string]any{"name": "api"}); res.Status != http.StatusUnprocessableEntity || code(res) != "invalid_name" {
			t.Errorf("%s: rename to api: %d %s", name, res.Status, res.Body)
		}
	}
	var got repoOut
	n.JSON("GET", repoPath(alice, "empty"), alice, nil, http.StatusOK, &got)
	if got.DefaultBranch != "main" {
		t.Fatalf("default branch after refusals: %q", got.DefaultBranch)
	}
}
