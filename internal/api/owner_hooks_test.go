package api_test

import (
	"net/http"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
	dnode "github.com/dforge/dforge/internal/node"
)

// TestOrgHooks: an organization's owner manages its webhooks; a stranger
// or a member outside the owners team is refused (403), a missing
// organization is 404; the hook receives the
// events of every repository the organization owns and none of its
// owner's own repositories.
func TestOrgHooks(t *testing.T) {
	t.Parallel()
	onStores(t, testOrgHooks)
}

func testOrgHooks(t *testing.T, opts []forgetest.Option) {
	n := startHooksNode(t, dnode.WebhookConfig{AllowPrivate: true}, opts...)
	rc := newReceiver(t)
	alice, bob := n.NewUser(), n.NewUser()
	n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs", map[string]any{"username": "hookorg"})
	n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs/hookorg/repos", map[string]any{"name": "one"})
	n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs/hookorg/repos", map[string]any{"name": "two"})
	n.repo(alice, "own", false)

	body := map[string]any{"type": "gitea", "active": true, "events": []string{"issues"},
		"config": map[string]string{"url": rc.URL + "/org", "content_type": "json"}}
	n.must(http.StatusForbidden, bob, "POST", "/api/v1/orgs/hookorg/hooks", body)
	n.must(http.StatusNotFound, alice, "POST", "/api/v1/orgs/no-such-org/hooks", body)
	n.must(http.StatusUnauthorized, nil, "GET", "/api/v1/orgs/hookorg/hooks", nil)
	bad := map[string]any{"type": "gitea", "config": map[string]string{"url": "ftp://x"}}
	n.must(http.StatusUnprocessableEntity, alice, "POST", "/api/v1/orgs/hookorg/hooks", bad)
	hook := n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs/hookorg/hooks", body).obj()
	path := "/api/v1/orgs/hookorg/hooks/" + num(hook["id"])
	n.must(http.StatusForbidden, bob, "GET", path, nil)
	n.must(http.StatusForbidden, bob, "GET", "/api/v1/orgs/hookorg/hooks", nil)
	n.must(http.StatusForbidden, bob, "DELETE", path, nil)
	// A member outside the owners team is refused too.
	team := n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs/hookorg/teams", map[string]any{"name": "devs", "permission": "write"}).obj()
	n.must(http.StatusNoContent, alice, "PUT", "/api/v1/teams/"+num(team["id"])+"/members/"+bob.Name(), nil)
	n.must(http.StatusForbidden, bob, "GET", path, nil)
	if list := n.must(http.StatusOK, alice, "GET", "/api/v1/orgs/hookorg/hooks", nil).list(); len(list) != 1 {
		t.Fatalf("org hooks: %v", list)
	}
	// The organization's hook is not a repository's: its id is no hook there.
	n.must(http.StatusNotFound, alice, "GET", "/api/v1/repos/hookorg/one/hooks/"+num(hook["id"]), nil)

	for _, repo := range []string{"hookorg/one", "hookorg/two", alice.Name() + "/own"} {
		n.must(http.StatusCreated, alice, "POST", "/api/v1/repos/"+repo+"/issues", map[string]any{"title": "in " + repo})
	}
	for _, repo := range []string{"hookorg/one", "hookorg/two"} {
		rc.wait(t, "issue in "+repo, ofType(t, "issues", func(p map[string]any) bool {
			return p["repository"].(map[string]any)["full_name"] == repo
		}))
	}
	n.must(http.StatusOK, alice, "PATCH", path, map[string]any{"active": false})
	if got := n.must(http.StatusOK, alice, "GET", path, nil).obj(); got["active"] != false {
		t.Fatalf("edited hook: %v", got)
	}
	deliveries := n.must(http.StatusOK, alice, "GET", path+"/deliveries", nil).list()
	if len(deliveries) != 2 {
		t.Fatalf("org hook deliveries: %d, want 2 (the user's own repository is not the organization's)", len(deliveries))
	}
	n.must(http.StatusNoContent, alice, "DELETE", path, nil)
	n.must(http.StatusNotFound, alice, "GET", path, nil)
}

// TestMyHooks: a user's own hooks fire for every repository the user
// owns and for no one else's; another user cannot see them by id.
func TestMyHooks(t *testing.T) {
	t.Parallel()
	onStores(t, testMyHooks)
}

func testMyHooks(t *testing.T, opts []forgetest.Option) {
	n := startHooksNode(t, dnode.WebhookConfig{AllowPrivate: true}, opts...)
	rc := newReceiver(t)
	alice, bob := n.NewUser(), n.NewUser()
	n.repo(alice, "a1", false)
	n.repo(alice, "a2", true)
	n.repo(bob, "b1", false)

	hook := n.must(http.StatusCreated, alice, "POST", "/api/v1/user/hooks", map[string]any{"type": "gitea", "active": true,
		"events": []string{"issues"}, "config": map[string]string{"url": rc.URL + "/me", "content_type": "json"}}).obj()
	path := "/api/v1/user/hooks/" + num(hook["id"])
	n.must(http.StatusNotFound, bob, "GET", path, nil)
	n.must(http.StatusNotFound, bob, "PATCH", path, map[string]any{"active": false})
	if list := n.must(http.StatusOK, bob, "GET", "/api/v1/user/hooks", nil).list(); len(list) != 0 {
		t.Fatalf("bob sees hooks: %v", list)
	}
	n.must(http.StatusUnprocessableEntity, alice, "PATCH", path, map[string]any{"events": []string{"no-such-event"}})

	n.must(http.StatusCreated, bob, "POST", "/api/v1/repos/"+bob.Name()+"/b1/issues", map[string]any{"title": "bob's"})
	for _, repo := range []string{"a1", "a2"} {
		full := alice.Name() + "/" + repo
		n.must(http.StatusCreated, alice, "POST", "/api/v1/repos/"+full+"/issues", map[string]any{"title": "in " + repo})
		rc.wait(t, "issue in "+full, ofType(t, "issues", func(p map[string]any) bool {
			return p["repository"].(map[string]any)["full_name"] == full
		}))
	}
	deliveries := n.must(http.StatusOK, alice, "GET", path+"/deliveries", nil).list()
	if len(deliveries) != 2 {
		t.Fatalf("user hook deliveries: %d, want 2 (bob's repository is not alice's)", len(deliveries))
	}
	n.must(http.StatusNoContent, alice, "DELETE", path, nil)
	n.must(http.StatusNotFound, alice, "GET", path, nil)
}
