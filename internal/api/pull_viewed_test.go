package api_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// "Viewed" marks are kept for the reviewer on the node, whatever browser
// they come back with: each user lists only their own, a mark replaces the
// earlier one for its file, unmarking a file never marked is no error, bad
// input is a 422 that stores nothing, and a private repository's pull
// request is as missing for an outsider as any.
func TestViewedFilesAreKeptForTheReviewer(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser(), n.NewUser()
	n.repo(alice, "app", false)
	n.push(alice, alice, "app", "feature", "main", map[string]string{"src/app.go": "package app\n", "README.md": "# app\n"}, "Add app")
	base := "/api/v1/repos/" + alice.Name() + "/app/pulls"
	n.must(http.StatusCreated, alice, "POST", base, map[string]any{"head": "feature", "base": "main", "title": "Add app"})
	viewed := base + "/1/viewed"
	marks := func(u *forgetest.User) []map[string]any {
		t.Helper()
		return n.must(http.StatusOK, u, "GET", viewed, nil).list()
	}
	mark := func(path, version string) map[string]any { return map[string]any{"path": path, "version": version} }

	if got := marks(bob); len(got) != 0 {
		t.Fatalf("marks before any: %v", got)
	}
	n.must(http.StatusNoContent, bob, "PUT", viewed, mark("src/app.go", "aaaa"))
	n.must(http.StatusNoContent, bob, "PUT", viewed, mark("README.md", "bbbb"))
	n.must(http.StatusNoContent, bob, "PUT", viewed, mark("src/app.go", "cccc")) // a later version replaces the mark
	if got, want := marks(bob), []map[string]any{mark("README.md", "bbbb"), mark("src/app.go", "cccc")}; !reflect.DeepEqual(got, want) {
		t.Fatalf("bob's marks: %v, want %v", got, want)
	}
	// Alice has her own, and sees none of Bob's.
	if got := marks(alice); len(got) != 0 {
		t.Fatalf("alice sees marks: %v", got)
	}
	n.must(http.StatusNoContent, alice, "PUT", viewed, mark("README.md", "dddd"))
	n.must(http.StatusNoContent, bob, "DELETE", viewed, map[string]any{"path": "README.md"})
	n.must(http.StatusNoContent, bob, "DELETE", viewed, map[string]any{"path": "never/marked.go"})
	if got, want := marks(bob), []map[string]any{mark("src/app.go", "cccc")}; !reflect.DeepEqual(got, want) {
		t.Fatalf("bob's marks after unmarking: %v, want %v", got, want)
	}
	if got, want := marks(alice), []map[string]any{mark("README.md", "dddd")}; !reflect.DeepEqual(got, want) {
		t.Fatalf("alice's marks: %v, want %v", got, want)
	}

	// Bad input: refused, nothing stored.
	for _, bad := range []map[string]any{
		mark("", "aaaa"),
		mark("/etc/passwd", "aaaa"),
		mark(strings.Repeat("a", 4097), "aaaa"),
		mark("src/x.go", ""),
		mark("src/x.go", "has space"),
		mark("src/x.go", strings.Repeat("f", 129)),
	} {
		n.must(http.StatusUnprocessableEntity, bob, "PUT", viewed, bad)
	}
	if got := marks(bob); len(got) != 1 {
		t.Fatalf("a refused mark was stored: %v", got)
	}
	// Signed out: no marks to read or write; an unknown pull request is a 404.
	n.must(http.StatusUnauthorized, nil, "GET", viewed, nil)
	n.must(http.StatusUnauthorized, nil, "PUT", viewed, mark("src/app.go", "aaaa"))
	n.must(http.StatusNotFound, bob, "GET", base+"/99/viewed", nil)
	n.must(http.StatusNotFound, bob, "PUT", base+"/99/viewed", mark("src/app.go", "aaaa"))

	// A private repository's pull request: an outsider finds nothing, not even a 403.
	n.repo(alice, "vault", true)
	n.push(alice, alice, "vault", "feature", "main", map[string]string{"secret.go": "package vault\n"}, "Add vault")
	private := "/api/v1/repos/" + alice.Name() + "/vault/pulls"
	n.must(http.StatusCreated, alice, "POST", private, map[string]any{"head": "feature", "base": "main", "title": "Add vault"})
	n.must(http.StatusNoContent, alice, "PUT", private+"/1/viewed", mark("secret.go", "eeee"))
	n.must(http.StatusNotFound, bob, "GET", private+"/1/viewed", nil)
	n.must(http.StatusNotFound, bob, "PUT", private+"/1/viewed", mark("secret.go", "eeee"))
}
