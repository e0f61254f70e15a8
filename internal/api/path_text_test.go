package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestNULAndInvalidUTF8InPathValues puts a NUL, invalid UTF-8 and other
// control bytes in the path values of the API's reads, anonymously and
// signed in, on SQLite and PostgreSQL. A path value reached SQL (where
// PostgreSQL refuses NUL and invalid UTF-8: a 500 on /users/%00/repos,
// /usernames/%00, /collaborators/%00, /releases/tags/%ff,
// /branch_protections/%ff) and git's command line (a NUL tag was a 500 on
// SQLite too). Nothing is named so: a NUL is 404 before any handler, and
// nothing answers 500.
func TestNULAndInvalidUTF8InPathValues(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := forgetest.Start(t, opts...)
			alice := n.NewUser()
			create(t, n, alice, "app", false)
			r := "/api/v1/repos/" + alice.Name() + "/app"
			u := "/api/v1/users/"
			for _, bad := range []string{"%00", "a%00b", "%ff", "%c0%80", "%1b", "a%0ab"} {
				for _, p := range []string{"/api/v1/repos/" + bad + "/x", "/api/v1/repos/" + alice.Name() + "/" + bad, "/api/v1/repos/" + bad + "/x/issues",
					"/api/v1/orgs/" + bad, "/api/v1/orgs/" + bad + "/repos", "/api/v1/teams/" + bad, u + bad, u + bad + "/repos", u + bad + "/starred",
					u + bad + "/followers", u + bad + "/tokens", "/api/v1/usernames/" + bad, "/api/v1/accounts/" + bad,
					"/api/v1/chain/txs/" + bad, "/api/v1/chain/blocks/" + bad, "/api/v1/repos/search?q=" + bad,
					r + "/branches/" + bad, r + "/contents/" + bad, r + "/raw/" + bad, r + "/media/" + bad, r + "/git/refs/" + bad,
					r + "/git/trees/" + bad, r + "/git/blobs/" + bad, r + "/tags/" + bad, r + "/commits/" + bad, r + "/commits/" + bad + "/statuses",
					r + "/compare/" + bad, r + "/archive/" + bad + ".zip", r + "/releases/tags/" + bad, r + "/labels/" + bad,
					r + "/milestones/" + bad, r + "/collaborators/" + bad, r + "/topics/" + bad, r + "/branch_protections/" + bad,
					r + "/issues/" + bad, r + "/pulls/" + bad} {
					for _, who := range []*forgetest.User{nil, alice} {
						res := n.Call("GET", p, who, nil)
						if res.Status >= 500 {
							t.Errorf("GET %s: %d %s", p, res.Status, res.Body)
						}
						if strings.Contains(bad, "%00") && strings.HasPrefix(p, "/api/v1/") && !strings.Contains(p, "?") && res.Status != http.StatusNotFound {
							t.Errorf("GET %s: %d %s, want 404", p, res.Status, res.Body)
						}
					}
				}
			}
			// A file named with control characters other than NUL is a file
			// git allows; it still reads.
			n.JSON("GET", r+"/contents/README.md", nil, nil, http.StatusOK, nil)
		})
	}
}

// TestControlBytesInEveryRepoRouteParameter fills every path parameter of
// every operation the OpenAPI document lists under /repos/{owner}/{repo}
// (writes too, as the repository's owner) with invalid UTF-8 and control
// bytes, on SQLite and PostgreSQL: none answers 500, so a route added
// later is held to it as well.
func TestControlBytesInEveryRepoRouteParameter(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := forgetest.Start(t, opts...)
			alice := n.NewUser()
			create(t, n, alice, "app", false)
			param := regexp.MustCompile(`\{[a-z_]+\}`)
			for _, bad := range []string{"%ff", "%c0%80", "%1b", "a%0ab"} {
				for _, op := range repoOperations(t) {
					method, tmpl, _ := strings.Cut(op, " ")
					if op == "DELETE /api/v1/repos/{owner}/{repo}" || strings.HasSuffix(op, "/transfer") {
						continue // would take the repository away from the rest of the loop
					}
					p := strings.Replace(strings.Replace(tmpl, "{owner}", alice.Name(), 1), "{repo}", "app", 1)
					p = param.ReplaceAllString(p, bad)
					var body any
					if method != "GET" && method != "DELETE" {
						body = map[string]any{}
					}
					if res := n.Call(method, p, alice, body); res.Status >= 500 {
						t.Errorf("%s %s: %d %s", method, p, res.Status, res.Body)
					}
				}
			}
		})
	}
}
