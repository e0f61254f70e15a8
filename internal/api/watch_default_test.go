package api_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestOwnersWatchByDefault: a repository's owner, its collaborators with
// write and its organization's owners watch it without asking, as on
// Gitea: they hear of another's new issue and pull request, the
// subscription route and the repository's watched_by_me say so, and an
// explicit unwatch is remembered until they watch again.
func TestOwnersWatchByDefault(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testOwnersWatchByDefault(t, &issuesNode{Node: forgetest.Start(t, opts...), t: t})
		})
	}
}

// viewerFlags is a repository's starred_by_me and watched_by_me as u reads
// them ("absent" when the answer leaves them out).
func (n *issuesNode) viewerFlags(u *forgetest.User, base string) (starred, watched string) {
	n.t.Helper()
	obj := n.must(http.StatusOK, u, "GET", base, nil).obj()
	show := func(v any) string {
		if b, ok := v.(bool); ok {
			if b {
				return "true"
			}
			return "false"
		}
		return "absent"
	}
	return show(obj["starred_by_me"]), show(obj["watched_by_me"])
}

// logins is the sorted logins of the users path lists, as u sees them.
func (n *issuesNode) logins(u *forgetest.User, path string) string {
	n.t.Helper()
	var out []string
	for _, o := range n.must(http.StatusOK, u, "GET", path, nil).list() {
		out = append(out, o["login"].(string))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func sortedLogins(us ...*forgetest.User) string {
	var out []string
	for _, u := range us {
		out = append(out, u.Name())
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// fullNames is the full names of the repositories path lists, as u sees them.
func (n *issuesNode) fullNames(u *forgetest.User, path string) string {
	n.t.Helper()
	var out []string
	for _, o := range n.must(http.StatusOK, u, "GET", path, nil).list() {
		out = append(out, o["full_name"].(string))
	}
	return strings.Join(out, " ")
}

func testOwnersWatchByDefault(t *testing.T, n *issuesNode) {
	alice, bob, dave := n.NewUser(), n.NewUser(), n.NewUser()
	repo := n.repo(alice, "app", false)
	base := "/api/v1/repos/" + alice.Name() + "/app"
	n.must(http.StatusNoContent, alice, "PUT", base+"/collaborators/"+dave.Name(), map[string]any{"permission": "write"})

	// 1. The owner watches by default; a reader does not, and Gitea's
	// subscription route still answers 404 for no.
	if s, w := n.viewerFlags(alice, base); s != "false" || w != "true" {
		t.Fatalf("alice's starred_by_me %s, watched_by_me %s", s, w)
	}
	if s, w := n.viewerFlags(bob, base); s != "false" || w != "false" {
		t.Fatalf("bob's starred_by_me %s, watched_by_me %s", s, w)
	}
	if s, w := n.viewerFlags(nil, base); s != "absent" || w != "absent" {
		t.Fatalf("signed out: starred_by_me %s, watched_by_me %s", s, w)
	}
	if sub := n.must(http.StatusOK, alice, "GET", base+"/subscription", nil).obj(); sub["subscribed"] != true {
		t.Fatalf("alice's subscription: %v", sub)
	}
	n.must(http.StatusOK, dave, "GET", base+"/subscription", nil)
	n.must(http.StatusNotFound, bob, "GET", base+"/subscription", nil)
	if got := n.logins(nil, base+"/subscribers"); got != sortedLogins(alice, dave) {
		t.Fatalf("subscribers: %s", got)
	}
	if got := n.fullNames(alice, "/api/v1/user/subscriptions"); got != alice.Name()+"/app" {
		t.Fatalf("alice's subscriptions: %q", got)
	}
	n.must(http.StatusNoContent, bob, "PUT", "/api/v1/user/starred/"+alice.Name()+"/app", nil)
	if s, w := n.viewerFlags(bob, base); s != "true" || w != "false" {
		t.Fatalf("bob after starring: starred_by_me %s, watched_by_me %s", s, w)
	}

	// 2. bob's issue and pull request reach the owner and the writer.
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "Crash on start"})
	n.fork(bob, repo)
	n.push(bob, bob, "app", "fix", "main", map[string]string{"fix.txt": "fixed\n"})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":fix", "base": "main", "title": "Fix the crash"})
	want := "Pull Fix the crash subscribed; Issue Crash on start subscribed"
	if got := n.reasons(alice, ""); got != want {
		t.Fatalf("alice's notifications: %q, want %q", got, want)
	}
	if got := n.reasons(dave, ""); got != want {
		t.Fatalf("dave's notifications: %q, want %q", got, want)
	}

	// 3. alice unwatches: the subscription is gone and new threads pass
	// her by; dave still hears of them.
	n.must(http.StatusNoContent, alice, "DELETE", base+"/subscription", nil)
	n.must(http.StatusNotFound, alice, "GET", base+"/subscription", nil)
	if got := n.logins(nil, base+"/subscribers"); got != dave.Name() {
		t.Fatalf("subscribers after alice unwatched: %s", got)
	}
	if got := n.fullNames(alice, "/api/v1/user/subscriptions"); got != "" {
		t.Fatalf("alice's subscriptions after unwatching: %q", got)
	}
	if _, w := n.viewerFlags(alice, base); w != "false" {
		t.Fatalf("alice's watched_by_me after unwatching: %s", w)
	}
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "Slow start"})
	n.push(bob, bob, "app", "speed", "main", map[string]string{"speed.txt": "faster\n"})
	n.must(http.StatusCreated, bob, "POST", base+"/pulls", map[string]any{"head": bob.Name() + ":speed", "base": "main", "title": "Start faster"})
	if got := n.reasons(alice, ""); got != want {
		t.Fatalf("alice's notifications after unwatching: %q, want %q", got, want)
	}
	if got := n.reasons(dave, ""); got != "Pull Start faster subscribed; Issue Slow start subscribed; "+want {
		t.Fatalf("dave's notifications: %q", got)
	}

	// 4. Watching again undoes the unwatch.
	n.must(http.StatusOK, alice, "PUT", base+"/subscription", nil)
	n.must(http.StatusCreated, bob, "POST", base+"/issues", map[string]any{"title": "Typo"})
	if got := n.reasons(alice, ""); got != "Issue Typo subscribed; "+want {
		t.Fatalf("alice's notifications after watching again: %q", got)
	}

	// 5. An organization's owners watch its repositories.
	n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs", map[string]string{"username": "watchorg"})
	n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs/watchorg/repos", map[string]any{"name": "shared"})
	n.must(http.StatusOK, alice, "GET", "/api/v1/repos/watchorg/shared/subscription", nil)
	n.must(http.StatusCreated, bob, "POST", "/api/v1/repos/watchorg/shared/issues", map[string]any{"title": "Org bug"})
	if got := n.reasons(alice, "?subject-type=issue"); got != "Issue Org bug subscribed; Issue Typo subscribed; Issue Crash on start subscribed" {
		t.Fatalf("alice's issues after the organization's: %q", got)
	}
}
