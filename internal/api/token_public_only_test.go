package api_test

import (
	"net/http"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// Gitea's public-only token scope: the token reaches public repositories
// only; its user's private ones answer as to a stranger (404, left out of
// lists and search, no git clone), while the same user's other tokens
// still see everything.
func TestPublicOnlyTokenHidesPrivateRepos(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser("all")
	open := create(t, n, alice, "pubonly-open", false)
	secret := create(t, n, alice, "pubonly-secret", true)
	tokens := "/api/v1/users/" + alice.Name() + "/tokens"
	mint := func(name string, scopes ...string) *forgetest.User {
		t.Helper()
		var tok tokenOut
		n.JSON("POST", tokens, alice, map[string]any{"name": name, "scopes": scopes}, http.StatusCreated, &tok)
		return &forgetest.User{Address: alice.Address, Token: tok.SHA1}
	}
	reader := mint("pub-read", "public-only", "read:repository", "read:issue", "read:user")
	writer := mint("pub-write", "public-only", "write:repository", "write:issue", "read:user")
	full := mint("full", "read:repository", "read:issue")
	for _, repo := range []string{open.Name, secret.Name} {
		n.JSON("POST", repoPath(alice, repo)+"/issues", alice, map[string]any{"title": "Findme in " + repo}, http.StatusCreated, nil)
	}
	found := func(u *forgetest.User) []string {
		t.Helper()
		var list []struct {
			Repository struct {
				Name string `json:"name"`
			} `json:"repository"`
		}
		res := n.Call("GET", "/api/v1/repos/issues/search?q=Findme", u, nil)
		res.Decode(t, &list)
		out := []string{res.Header.Get("X-Total-Count")}
		for _, is := range list {
			out = append(out, is.Repository.Name)
		}
		sort.Strings(out[1:])
		return out
	}

	names := func(u *forgetest.User, path string, search bool) []string {
		t.Helper()
		var list []repoOut
		if search {
			var body struct {
				OK   bool      `json:"ok"`
				Data []repoOut `json:"data"`
			}
			n.JSON("GET", path, u, nil, http.StatusOK, &body)
			list = body.Data
		} else {
			n.JSON("GET", path, u, nil, http.StatusOK, &list)
		}
		var out []string
		for _, r := range list {
			out = append(out, r.Name)
		}
		sort.Strings(out)
		return out
	}

	for label, u := range map[string]*forgetest.User{"public-only,read:repository": reader, "public-only,write:repository": writer} {
		// The private repository and what is under it: 404, never 403.
		// (A read token's writes are refused for their scope first, 403,
		// as Gitea checks scopes before resolving the repository.)
		for _, c := range []struct{ method, path string }{
			{"GET", repoPath(alice, secret.Name)},
			{"GET", repoPath(alice, secret.Name) + "/contents/README.md"},
			{"GET", repoPath(alice, secret.Name) + "/issues"},
			{"GET", repoPath(alice, secret.Name) + "/branches"},
			{"GET", "/api/v1/repositories/" + strconv.FormatUint(secret.ID, 10)},
			{"PATCH", repoPath(alice, secret.Name)},
			{"POST", repoPath(alice, secret.Name) + "/issues"},
		} {
			if c.method != "GET" && u == reader {
				continue
			}
			if res := n.Call(c.method, c.path, u, map[string]any{"title": "Leak", "description": "changed"}); res.Status != http.StatusNotFound {
				t.Errorf("%s: %s %s = %d %s, want 404", label, c.method, c.path, res.Status, res.Body)
			}
		}
		// Lists and search leave it out; the public one is there.
		if got := names(u, "/api/v1/user/repos", false); strings.Join(got, ",") != open.Name {
			t.Errorf("%s: /user/repos = %v, want only %s", label, got, open.Name)
		}
		if got := names(u, "/api/v1/users/"+alice.Name()+"/repos", false); strings.Join(got, ",") != open.Name {
			t.Errorf("%s: /users/%s/repos = %v, want only %s", label, alice.Name(), got, open.Name)
		}
		if got := names(u, "/api/v1/repos/search?q=pubonly", true); strings.Join(got, ",") != open.Name {
			t.Errorf("%s: search = %v, want only %s", label, got, open.Name)
		}
		if got := found(u); strings.Join(got, ",") != "1,"+open.Name {
			t.Errorf("%s: issue search = %v, want 1 issue, in %s", label, got, open.Name)
		}
		// Git answers as to a stranger.
		if out, err := n.TryGit("", "clone", n.Remote(u, alice.Name(), secret.Name), filepath.Join(t.TempDir(), "secret")); err == nil || !strings.Contains(out, "not found") {
			t.Errorf("%s: clone of the private repository: %v\n%s", label, err, out)
		}
		// The public repository works as usual.
		var got repoOut
		n.JSON("GET", repoPath(alice, open.Name), u, nil, http.StatusOK, &got)
		if !got.Permissions.Admin {
			t.Errorf("%s: permissions on the public repository %+v, want admin", label, got.Permissions)
		}
		n.Clone(n.Remote(u, alice.Name(), open.Name))
	}

	// The writer still writes to the public repository: an issue, a push.
	n.JSON("POST", repoPath(alice, open.Name)+"/issues", writer, map[string]any{"title": "Public"}, http.StatusCreated, nil)
	dir := n.Clone(n.Remote(writer, alice.Name(), open.Name))
	n.Commit(dir, "Public change", map[string]string{"NOTES.md": "notes\n"})
	n.Git(dir, "push", "--quiet", n.Remote(writer, alice.Name(), open.Name), "HEAD:main")

	// The same user's token without public-only sees everything.
	n.JSON("GET", repoPath(alice, secret.Name), full, nil, http.StatusOK, nil)
	if got := names(full, "/api/v1/user/repos", false); strings.Join(got, ",") != open.Name+","+secret.Name {
		t.Errorf("full token: /user/repos = %v, want both", got)
	}
	if got := names(full, "/api/v1/repos/search?q=pubonly", true); len(got) != 2 {
		t.Errorf("full token: search = %v, want both", got)
	}
	if got := found(full); strings.Join(got, ",") != "2,"+open.Name+","+secret.Name {
		t.Errorf("full token: issue search = %v, want both", got)
	}
	n.Clone(n.Remote(full, alice.Name(), secret.Name))
}

// A public-only token does not read its user's notifications about a
// private repository: left out of the list and the count, 404 by id.
func TestPublicOnlyTokenHidesPrivateNotifications(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser("all")
	create(t, n, alice, "hidden", true)
	base := repoPath(alice, "hidden")
	n.JSON("PUT", base+"/collaborators/"+bob.Name(), alice, map[string]string{"permission": "write"}, http.StatusNoContent, nil)
	n.JSON("PUT", base+"/subscription", bob, nil, http.StatusOK, nil)
	n.JSON("POST", base+"/issues", alice, map[string]any{"title": "Secret plan"}, http.StatusCreated, nil)

	var all []struct {
		ID int64 `json:"id"`
	}
	n.JSON("GET", "/api/v1/notifications", bob, nil, http.StatusOK, &all)
	if len(all) != 1 {
		t.Fatalf("bob's notifications with his session: %+v, want 1", all)
	}
	var tok tokenOut
	n.JSON("POST", "/api/v1/users/"+bob.Name()+"/tokens", bob, map[string]any{"name": "pub", "scopes": []string{"public-only", "write:notification"}}, http.StatusCreated, &tok)
	pub := &forgetest.User{Address: bob.Address, Token: tok.SHA1}
	var list []struct {
		ID int64 `json:"id"`
	}
	n.JSON("GET", "/api/v1/notifications", pub, nil, http.StatusOK, &list)
	if len(list) != 0 {
		t.Errorf("public-only notifications: %+v, want none", list)
	}
	var count struct{ New int64 }
	n.JSON("GET", "/api/v1/notifications/new", pub, nil, http.StatusOK, &count)
	if count.New != 0 {
		t.Errorf("public-only unread count %d, want 0", count.New)
	}
	thread := "/api/v1/notifications/threads/" + strconv.FormatInt(all[0].ID, 10)
	for _, method := range []string{"GET", "PATCH"} {
		if res := n.Call(method, thread, pub, nil); res.Status != http.StatusNotFound {
			t.Errorf("public-only %s of the thread = %d %s, want 404", method, res.Status, res.Body)
		}
	}
	n.JSON("GET", thread, bob, nil, http.StatusOK, nil)
}
