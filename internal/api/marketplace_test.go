package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

type marketListing struct {
	ID          uint64   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Events      []string `json:"events"`
	URLTemplate string   `json:"url_template"`
	Homepage    string   `json:"homepage"`
	Installs    int64    `json:"installs"`
	Publisher   struct {
		Login string `json:"login"`
	} `json:"publisher"`
}

type marketInstall struct {
	Listing marketListing `json:"listing"`
	RepoID  uint64        `json:"repo_id"`
	HookID  int64         `json:"hook_id"`
}

type marketHook struct {
	ID     int64             `json:"id"`
	Type   string            `json:"type"`
	Config map[string]string `json:"config"`
	Events []string          `json:"events"`
	Active bool              `json:"active"`
}

func ciBody(name string) map[string]any {
	return map[string]any{"name": name, "description": "Runs the build.\nOn every push.", "events": []string{"push", "pull_request"},
		"url_template": "https://ci.example/hooks/{owner}/{repo}?id={repo_id}", "homepage": "https://ci.example"}
}

// The marketplace end to end: publish, list and search, install into a
// repository in one step (a webhook with the filled URL and the listing's
// events, an install counted once), refusals that apply nothing, and
// uninstall removing both.
func TestMarketplace(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testMarketplace(t, forgetest.Start(t, opts...))
		})
	}
}

func testMarketplace(t *testing.T, n *forgetest.Node) {
	pub, alice, bob, maint := n.NewUser(), n.NewUser(), n.NewUser(), n.NewUser()

	// Publish: signed in only; bad fields are 422 naming the field.
	n.JSON("POST", "/api/v1/marketplace/listings", nil, ciBody("CI"), http.StatusUnauthorized, nil)
	var ci marketListing
	n.JSON("POST", "/api/v1/marketplace/listings", pub, ciBody("CI"), http.StatusCreated, &ci)
	if ci.ID == 0 || ci.Name != "CI" || ci.Installs != 0 || ci.Publisher.Login != pub.Name() || len(ci.Events) != 2 {
		t.Fatalf("published %+v", ci)
	}
	var other marketListing
	n.JSON("POST", "/api/v1/marketplace/listings", alice, ciBody("Chat notifier"), http.StatusCreated, &other)
	refused := func(method, path string, u *forgetest.User, body any, status int, code, field string) {
		t.Helper()
		var e struct{ Code, Field string }
		n.JSON(method, path, u, body, status, &e)
		if e.Code != code || e.Field != field {
			t.Fatalf("%s %s: code %q field %q, want %q %q", method, path, e.Code, e.Field, code, field)
		}
	}
	with := func(k string, v any) map[string]any {
		b := ciBody("Other")
		b[k] = v
		return b
	}
	refused("POST", "/api/v1/marketplace/listings", pub, with("url_template", "ftp://ci.example/{repo}"), 422, "invalid_url", "url_template")
	refused("POST", "/api/v1/marketplace/listings", pub, with("url_template", "javascript:alert(1)"), 422, "invalid_url", "url_template")
	refused("POST", "/api/v1/marketplace/listings", pub, with("url_template", "https://ci.example/{branch}"), 422, "invalid_url", "url_template")
	refused("POST", "/api/v1/marketplace/listings", pub, with("events", []string{"push", "nope"}), 422, "invalid_field", "events")
	refused("POST", "/api/v1/marketplace/listings", pub, with("events", []string{}), 422, "invalid_field", "events")
	refused("POST", "/api/v1/marketplace/listings", pub, with("name", ""), 422, "invalid_field", "name")
	refused("POST", "/api/v1/marketplace/listings", pub, with("name", "a\x00b"), 422, "invalid_text", "name")
	refused("POST", "/api/v1/marketplace/listings", pub, with("homepage", "javascript:x"), 422, "invalid_url", "homepage")
	refused("POST", "/api/v1/marketplace/listings", alice, ciBody("ci"), 409, "name_taken", "name")
	refused("PATCH", fmt.Sprintf("/api/v1/marketplace/listings/%d", ci.ID), alice, map[string]any{"name": "Mine"}, 403, "forbidden", "")
	refused("PATCH", fmt.Sprintf("/api/v1/marketplace/listings/%d", ci.ID), pub, map[string]any{"url_template": "ftp://x"}, 422, "invalid_url", "url_template")
	var list []marketListing
	res := n.JSON("GET", "/api/v1/marketplace/listings", nil, nil, http.StatusOK, &list)
	if len(list) != 2 || res.Header.Get("X-Total-Count") != "2" {
		t.Fatalf("listings %+v (total %s): the refused ones must not exist", list, res.Header.Get("X-Total-Count"))
	}
	n.JSON("GET", "/api/v1/marketplace/listings?q=chat", nil, nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].ID != other.ID {
		t.Fatalf("search chat: %+v", list)
	}

	// A repository of alice's, with bob writing (not an administrator)
	// and maint maintaining it.
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "app"}, http.StatusCreated, nil)
	repo := "/api/v1/repos/" + alice.Name() + "/app"
	n.JSON("PUT", repo+"/collaborators/"+bob.Name(), alice, map[string]any{"permission": "write"}, http.StatusNoContent, nil)
	n.JSON("PUT", repo+"/collaborators/"+maint.Name(), alice, map[string]any{"permission": "maintain"}, http.StatusNoContent, nil)
	var repoJSON struct{ ID uint64 }
	n.JSON("GET", repo, alice, nil, http.StatusOK, &repoJSON)

	// Not an administrator: 403, and nothing is applied.
	refused("POST", repo+"/marketplace/installs", bob, map[string]any{"listing": ci.ID}, 403, "forbidden", "")
	refused("POST", repo+"/marketplace/installs", maint, map[string]any{"listing": 9999}, 422, "not_found", "listing")
	refused("POST", repo+"/marketplace/installs", maint, map[string]any{}, 422, "invalid_field", "listing")
	hooks := func() []marketHook {
		var hs []marketHook
		n.JSON("GET", repo+"/hooks", alice, nil, http.StatusOK, &hs)
		return hs
	}
	if hs := hooks(); len(hs) != 0 {
		t.Fatalf("refused installs left hooks: %+v", hs)
	}

	// Install in one step: the webhook and the count.
	var in marketInstall
	n.JSON("POST", repo+"/marketplace/installs", maint, map[string]any{"listing": ci.ID}, http.StatusCreated, &in)
	if in.Listing.ID != ci.ID || in.RepoID != repoJSON.ID || in.HookID == 0 || in.Listing.Installs != 1 {
		t.Fatalf("install %+v", in)
	}
	hs := hooks()
	wantURL := fmt.Sprintf("https://ci.example/hooks/%s/app?id=%d", alice.Name(), repoJSON.ID)
	if len(hs) != 1 || hs[0].ID != in.HookID || hs[0].Config["url"] != wantURL || hs[0].Config["content_type"] != "json" ||
		!hs[0].Active || hs[0].Type != "gitea" || !slices.Equal(hs[0].Events, []string{"push", "pull_request"}) {
		t.Fatalf("hooks %+v, want one to %s for push and pull_request", hs, wantURL)
	}
	var got marketListing
	n.JSON("GET", fmt.Sprintf("/api/v1/marketplace/listings/%d", ci.ID), nil, nil, http.StatusOK, &got)
	if got.Installs != 1 {
		t.Fatalf("installs %d, want 1", got.Installs)
	}
	n.JSON("GET", "/api/v1/marketplace/listings", nil, nil, http.StatusOK, &list)
	if len(list) != 2 || list[0].ID != ci.ID {
		t.Fatalf("most installed first: %+v", list)
	}
	// Twice: 409, and no second hook.
	refused("POST", repo+"/marketplace/installs", alice, map[string]any{"listing": ci.ID}, 409, "conflict", "")
	if hs := hooks(); len(hs) != 1 {
		t.Fatalf("a duplicate install left hooks: %+v", hs)
	}
	var installs []marketInstall
	n.JSON("GET", repo+"/marketplace/installs", nil, nil, http.StatusOK, &installs)
	if len(installs) != 1 || installs[0].Listing.ID != ci.ID || installs[0].HookID != 0 {
		t.Fatalf("installs seen anonymously %+v (no hook ids)", installs)
	}
	n.JSON("GET", repo+"/marketplace/installs", alice, nil, http.StatusOK, &installs)
	if len(installs) != 1 || installs[0].HookID != in.HookID {
		t.Fatalf("installs seen by the owner %+v", installs)
	}

	// A private repository takes no install (installs are public records).
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "vault", "private": true}, http.StatusCreated, nil)
	vault := "/api/v1/repos/" + alice.Name() + "/vault"
	refused("POST", vault+"/marketplace/installs", alice, map[string]any{"listing": ci.ID}, 422, "private_repo", "repo")
	refused("POST", vault+"/marketplace/installs", bob, map[string]any{"listing": ci.ID}, 404, "not_found", "")
	var vh []marketHook
	n.JSON("GET", vault+"/hooks", alice, nil, http.StatusOK, &vh)
	if len(vh) != 0 {
		t.Fatalf("a refused private install left hooks: %+v", vh)
	}

	// Uninstall: the webhook goes and the count drops.
	refused("DELETE", fmt.Sprintf("%s/marketplace/installs/%d", repo, ci.ID), bob, nil, 403, "forbidden", "")
	refused("DELETE", fmt.Sprintf("%s/marketplace/installs/%d", repo, other.ID), alice, nil, 404, "not_found", "")
	n.JSON("DELETE", fmt.Sprintf("%s/marketplace/installs/%d", repo, ci.ID), alice, nil, http.StatusNoContent, nil)
	if hs := hooks(); len(hs) != 0 {
		t.Fatalf("uninstall left hooks: %+v", hs)
	}
	n.JSON("GET", fmt.Sprintf("/api/v1/marketplace/listings/%d", ci.ID), nil, nil, http.StatusOK, &got)
	if got.Installs != 0 {
		t.Fatalf("installs %d after uninstall, want 0", got.Installs)
	}

	// A deleted listing is hidden but its install (and webhook) stay,
	// removable; only its publisher deletes it.
	n.JSON("POST", repo+"/marketplace/installs", alice, map[string]any{"listing": other.ID}, http.StatusCreated, &in)
	refused("DELETE", fmt.Sprintf("/api/v1/marketplace/listings/%d", other.ID), pub, nil, 403, "forbidden", "")
	n.JSON("DELETE", fmt.Sprintf("/api/v1/marketplace/listings/%d", other.ID), alice, nil, http.StatusNoContent, nil)
	n.JSON("GET", fmt.Sprintf("/api/v1/marketplace/listings/%d", other.ID), nil, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/marketplace/listings", nil, nil, http.StatusOK, &list)
	if len(list) != 1 || list[0].ID != ci.ID {
		t.Fatalf("a deleted listing is listed: %+v", list)
	}
	if hs := hooks(); len(hs) != 1 || !strings.HasPrefix(hs[0].Config["url"], "https://ci.example/") {
		t.Fatalf("the deleted listing's hook must stay: %+v", hs)
	}
	n.JSON("DELETE", fmt.Sprintf("%s/marketplace/installs/%d", repo, other.ID), alice, nil, http.StatusNoContent, nil)
	if hs := hooks(); len(hs) != 0 {
		t.Fatalf("uninstalling the deleted listing left hooks: %+v", hs)
	}
}

// An organization's owners install into its repositories (the forge's own
// permission check); two installs of one listing at once leave one
// install and one webhook, whichever the chain refuses cleaned up.
func TestMarketplaceOrgAndRace(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testMarketplaceOrgAndRace(t, forgetest.Start(t, opts...))
		})
	}
}

func testMarketplaceOrgAndRace(t *testing.T, n *forgetest.Node) {
	pub, alice := n.NewUser(), n.NewUser()
	var ci marketListing
	n.JSON("POST", "/api/v1/marketplace/listings", pub, ciBody("Org CI"), http.StatusCreated, &ci)
	org := "acme-" + strings.ToLower(alice.Name()[5:11])
	n.JSON("POST", "/api/v1/orgs", alice, map[string]any{"username": org}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/orgs/"+org+"/repos", alice, map[string]any{"name": "tool"}, http.StatusCreated, nil)
	repo := "/api/v1/repos/" + org + "/tool"
	n.JSON("POST", repo+"/marketplace/installs", pub, map[string]any{"listing": ci.ID}, http.StatusForbidden, nil)

	statuses := make([]int, 2)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = n.Call("POST", repo+"/marketplace/installs", alice, map[string]any{"listing": ci.ID}).Status
		}()
	}
	wg.Wait()
	slices.Sort(statuses)
	if !slices.Equal(statuses, []int{http.StatusCreated, http.StatusConflict}) {
		t.Fatalf("two installs at once answered %v, want one 201 and one 409", statuses)
	}
	var hs []marketHook
	n.JSON("GET", repo+"/hooks", alice, nil, http.StatusOK, &hs)
	if len(hs) != 1 || hs[0].Config["url"] != fmt.Sprintf("https://ci.example/hooks/%s/tool?id=%d", org, mustRepoID(t, n, repo, alice)) {
		t.Fatalf("hooks after two installs at once: %+v, want one", hs)
	}
	var got marketListing
	n.JSON("GET", fmt.Sprintf("/api/v1/marketplace/listings/%d", ci.ID), nil, nil, http.StatusOK, &got)
	if got.Installs != 1 {
		t.Fatalf("installs %d, want 1", got.Installs)
	}
}

func mustRepoID(t *testing.T, n *forgetest.Node, path string, u *forgetest.User) uint64 {
	t.Helper()
	var r struct{ ID uint64 }
	n.JSON("GET", path, u, nil, http.StatusOK, &r)
	return r.ID
}
