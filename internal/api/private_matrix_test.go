package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestPrivateRepositoryLooksMissingOnEveryRoute is an authorization matrix
// over every operation the OpenAPI document lists under
// /repos/{owner}/{repo}: for someone who cannot read a private repository
// (anonymous, or signed in as a stranger), each answers exactly as it does
// for a repository that does not exist, status and code alike, so no route
// (a new one included) reveals it exists (403 instead of 404), shows its
// data (200) or lets a write through; and none answers 500.
func TestPrivateRepositoryLooksMissingOnEveryRoute(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, stranger := n.NewUser(), n.NewUser()
	create(t, n, alice, "secret", true)
	n.JSON("POST", repoPath(alice, "secret")+"/issues", alice, map[string]any{"title": "private issue"}, http.StatusCreated, nil)
	var branch struct {
		Commit struct{ ID string } `json:"commit"`
	}
	n.JSON("GET", repoPath(alice, "secret")+"/branches/main", alice, nil, http.StatusOK, &branch)

	ops := repoOperations(t)
	if len(ops) < 100 {
		t.Fatalf("only %d operations under /repos/{owner}/{repo} in the OpenAPI document", len(ops))
	}
	fill := strings.NewReplacer("{owner}", alice.Name(), "{id}", "1", "{tag}", "v1", "{attachment_id}", "1", "{path}", "README.md",
		"{ref}", "main", "{basehead}", "main...main", "{commitish}", "main", "{branch}", "main", "{index}", "1",
		"{collaborator}", stranger.Name(), "{archive}", "main.zip", "{name}", "main", "{user}", stranger.Name(), "{sub}", "heads",
		"{team}", "x", "{topic}", "go", "{sha}", branch.Commit.ID, "{delivery}", "1")
	answer := func(res forgetest.Response) string {
		var e struct{ Code string }
		json.Unmarshal(res.Body, &e)
		return http.StatusText(res.Status) + " " + e.Code
	}
	for _, op := range ops {
		method, tmpl, _ := strings.Cut(op, " ")
		var body any
		if method != "GET" && method != "DELETE" {
			body = map[string]any{}
		}
		for _, who := range []*forgetest.User{nil, stranger} {
			if who == nil && method != "GET" {
				continue // anonymous writes meet the per-address quota first
			}
			secret := n.Call(method, fill.Replace(strings.Replace(tmpl, "{repo}", "secret", 1)), who, body)
			missing := n.Call(method, fill.Replace(strings.Replace(tmpl, "{repo}", "no-such-repo", 1)), who, body)
			if secret.Status >= 500 || answer(secret) != answer(missing) {
				t.Errorf("%s as %s: the private repository answers %q (%s), a missing one %q",
					op, whoName(who), answer(secret), trim(secret.Body), answer(missing))
			}
		}
	}
}

func whoName(u *forgetest.User) string {
	if u == nil {
		return "anonymous"
	}
	return "a stranger"
}

func trim(b []byte) string {
	if len(b) > 160 {
		return string(b[:160]) + "…"
	}
	return string(b)
}

// repoOperations lists "METHOD /path" for every operation under
// /api/v1/repos/{owner}/{repo} in the OpenAPI document, sorted.
func repoOperations(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(openapiFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	under := regexp.MustCompile(`^/api/v1/repos/\{owner\}/\{repo\}(/|$)`)
	var ops []string
	for path, methods := range doc.Paths {
		if !under.MatchString(path) {
			continue
		}
		for m := range methods {
			if m := strings.ToUpper(m); m == "GET" || m == "POST" || m == "PUT" || m == "PATCH" || m == "DELETE" {
				ops = append(ops, m+" "+path)
			}
		}
	}
	sort.Strings(ops)
	return ops
}
