package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// Gitea's token scopes on a real node: the names it accepts and returns,
// the 400 for any other, deleting by id or name, and what each level may do.

type tokenOut struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	SHA1   string   `json:"sha1"`
	Scopes []string `json:"scopes"`
}

func TestGiteaTokenScopes(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser("all")
	tokens := "/api/v1/users/" + alice.Name() + "/tokens"
	made := 0
	mint := func(scopes ...string) tokenOut {
		t.Helper()
		made++
		var tok tokenOut
		n.JSON("POST", tokens, alice, map[string]any{"name": fmt.Sprint("t", made), "scopes": scopes}, http.StatusCreated, &tok)
		return tok
	}

	// 1. Every Gitea scope and dForge's aliases, returned as given: once
	// each, lower case, aliases first, then all, public-only and the
	// categories in Gitea's order.
	cases := map[string][]string{
		"read":                                {"read"},
		"write":                               {"write"},
		"admin read":                          {"read", "admin"},
		"all":                                 {"all"},
		"public-only read:repository":         {"public-only", "read:repository"},
		"write:repository read:issue":         {"read:issue", "write:repository"},
		" Write:Repository  WRITE:repository": {"write:repository"},
	}
	for _, c := range []string{"activitypub", "admin", "issue", "misc", "notification", "organization", "package", "repository", "user"} {
		cases["read:"+c] = []string{"read:" + c}
		cases["write:"+c] = []string{"write:" + c}
	}
	for in, want := range cases {
		var scopes []string
		if strings.HasPrefix(in, " ") {
			scopes = []string{" Write:Repository ", "WRITE:repository"}
		} else {
			scopes = strings.Fields(in)
		}
		if got := mint(scopes...).Scopes; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("scopes %q came back %q, want %q", scopes, got, want)
		}
	}
	var list []tokenOut
	n.JSON("GET", tokens, alice, nil, http.StatusOK, &list)
	if len(list) != made+1 || fmt.Sprint(list[len(list)-1].Scopes) == "[]" {
		t.Fatalf("list has %d tokens, want %d: %+v", len(list), made+1, list)
	}

	// 2. Anything else is a 400 that names the scope, as in Gitea.
	for _, bad := range [][]string{{"sudo"}, {"read:repo"}, {"delete:repository"}, {"write:"}, {"read", "repo"}, {}} {
		res := n.Call("POST", tokens, alice, map[string]any{"name": "bad", "scopes": bad})
		var body struct{ Code, Field, Message string }
		res.Decode(t, &body)
		if res.Status != http.StatusBadRequest || body.Code != "invalid_scope" || body.Field != "scopes" || body.Message == "" {
			t.Errorf("scopes %q = %d %s, want 400 invalid_scope", bad, res.Status, res.Body)
		}
	}

	// 3. read:repository reads and may not push or change anything;
	// write:repository pushes and writes.
	repo := create(t, n, alice, "scoped", false)
	reader := &forgetest.User{Address: alice.Address, Token: mint("read:repository").SHA1}
	writer := &forgetest.User{Address: alice.Address, Token: mint("write:repository").SHA1}
	n.JSON("GET", repoPath(alice, repo.Name), reader, nil, http.StatusOK, nil)
	if res := n.Call("POST", "/api/v1/user/repos", reader, map[string]any{"name": "nope"}); res.Status != http.StatusForbidden || !strings.Contains(string(res.Body), "insufficient_scope") {
		t.Errorf("create a repository with read:repository = %d %s", res.Status, res.Body)
	}
	dir := n.Clone(n.Remote(reader, alice.Name(), repo.Name))
	n.Commit(dir, "Scoped change", map[string]string{"NOTES.md": "notes\n"})
	// A push needs write on repositories itself: write:issue (a write
	// level elsewhere) does not push.
	issues := &forgetest.User{Address: alice.Address, Token: mint("write:issue", "read:repository").SHA1}
	for name, u := range map[string]*forgetest.User{"read:repository": reader, "write:issue": issues} {
		if out, err := n.TryGit(dir, "push", "--quiet", n.Remote(u, alice.Name(), repo.Name), "HEAD:main"); err == nil || !strings.Contains(out, "may not push") {
			t.Errorf("push with %s: %v\n%s", name, err, out)
		}
	}
	n.Git(dir, "push", "--quiet", n.Remote(writer, alice.Name(), repo.Name), "HEAD:main")
	n.JSON("POST", "/api/v1/user/repos", writer, map[string]any{"name": "yes"}, http.StatusCreated, nil)

	// Each category guards its own routes, as in Gitea: issues need
	// write:issue, the repository write:repository, the account read:user.
	byUser := &forgetest.User{Address: alice.Address, Token: mint("read:user").SHA1}
	issue := map[string]any{"title": "Scoped"}
	for _, c := range []struct {
		who          *forgetest.User
		scope        string
		method, path string
		want         int
	}{
		{writer, "write:repository", "POST", repoPath(alice, repo.Name) + "/issues", http.StatusForbidden},
		{issues, "write:issue", "POST", repoPath(alice, repo.Name) + "/issues", http.StatusCreated},
		{issues, "write:issue", "PATCH", repoPath(alice, repo.Name), http.StatusForbidden},
		{writer, "write:repository", "PATCH", repoPath(alice, repo.Name), http.StatusOK},
		{writer, "write:repository", "GET", "/api/v1/user", http.StatusForbidden},
		{byUser, "read:user", "GET", "/api/v1/user", http.StatusOK},
		{byUser, "read:user", "GET", repoPath(alice, repo.Name), http.StatusForbidden},
		{byUser, "read:user", "GET", "/api/v1/version", http.StatusOK},
	} {
		res := n.Call(c.method, c.path, c.who, issue)
		if res.Status != c.want || c.want == http.StatusForbidden && !strings.Contains(string(res.Body), "insufficient_scope") {
			t.Errorf("%s with %s = %d %s, want %d", c.method+" "+c.path, c.scope, res.Status, res.Body, c.want)
		}
	}

	// 4. Managing tokens needs admin: write:admin (or all, or admin) may,
	// read:admin and write:repository may not.
	for scope, want := range map[string]int{"write:admin": http.StatusCreated, "read:admin": http.StatusForbidden, "write:repository": http.StatusForbidden} {
		u := &forgetest.User{Address: alice.Address, Token: mint(scope).SHA1}
		if res := n.Call("POST", tokens, u, map[string]any{"name": "from-" + scope, "scopes": []string{"read"}}); res.Status != want {
			t.Errorf("a %s token made a token: %d %s, want %d", scope, res.Status, res.Body, want)
		}
	}

	// 5. DELETE /users/{username}/tokens/{token} takes the id or the name.
	byName, byID := mint("read"), mint("read")
	n.JSON("DELETE", tokens+"/"+byName.Name, alice, nil, http.StatusNoContent, nil)
	n.JSON("DELETE", tokens+"/"+fmt.Sprint(byID.ID), alice, nil, http.StatusNoContent, nil)
	for _, tok := range []tokenOut{byName, byID} {
		if res := n.Call("GET", "/api/v1/user", &forgetest.User{Token: tok.SHA1}, nil); res.Status != http.StatusUnauthorized {
			t.Errorf("deleted token %s still works: %d", tok.Name, res.Status)
		}
		if res := n.Call("DELETE", tokens+"/"+tok.Name, alice, nil); res.Status != http.StatusNotFound {
			t.Errorf("second delete of %s = %d %s", tok.Name, res.Status, res.Body)
		}
	}
}
