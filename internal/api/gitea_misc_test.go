package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// Gitea's small endpoints: /settings/*, /user/settings, a repository's
// languages, assignees and reviewers, its website, its teams by name and
// a user's permissions in an organization.

func TestGiteaNodeSettings(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	var ui struct {
		AllowedReactions []string `json:"allowed_reactions"`
		CustomEmojis     []string `json:"custom_emojis"`
	}
	n.JSON("GET", "/api/v1/settings/ui", nil, nil, http.StatusOK, &ui)
	if !slices.Equal(ui.AllowedReactions, []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"}) || ui.CustomEmojis == nil {
		t.Fatalf("ui settings: %+v", ui)
	}
	var repo map[string]bool
	n.JSON("GET", "/api/v1/settings/repository", nil, nil, http.StatusOK, &repo)
	if repo["http_git_disabled"] || !repo["mirrors_disabled"] || repo["stars_disabled"] || repo["lfs_disabled"] {
		t.Fatalf("repository settings: %v", repo)
	}
	var api map[string]int64
	n.JSON("GET", "/api/v1/settings/api", nil, nil, http.StatusOK, &api)
	if api["max_response_items"] != 100 || api["default_paging_num"] != 20 || api["default_git_trees_per_page"] != 1000 {
		t.Fatalf("api settings: %v", api)
	}
	var att struct {
		Enabled  bool  `json:"enabled"`
		MaxSize  int64 `json:"max_size"`
		MaxFiles int   `json:"max_files"`
	}
	n.JSON("GET", "/api/v1/settings/attachment", nil, nil, http.StatusOK, &att)
	if !att.Enabled || att.MaxSize != 1<<30 || att.MaxFiles != 100 {
		t.Fatalf("attachment settings: %+v", att)
	}
	// The paging the API settings announce is the paging lists obey.
	n.JSON("GET", "/api/v1/repos/search?limit=500", nil, nil, http.StatusOK, nil)
}

func TestGiteaUserSettings(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	n.JSON("GET", "/api/v1/user/settings", nil, nil, http.StatusUnauthorized, nil)
	var patched, got map[string]any
	n.JSON("PATCH", "/api/v1/user/settings", alice, map[string]string{"full_name": "Alice", "website": "https://alice.example"}, http.StatusOK, &patched)
	n.JSON("GET", "/api/v1/user/settings", alice, nil, http.StatusOK, &got)
	for _, k := range []string{"full_name", "website", "description", "location", "language", "theme", "diff_view_style", "hide_email", "hide_activity"} {
		if _, ok := got[k]; !ok {
			t.Fatalf("GET /user/settings lacks %s: %v", k, got)
		}
	}
	if got["full_name"] != "Alice" || got["website"] != "https://alice.example" || len(got) != len(patched) {
		t.Fatalf("GET /user/settings = %v; PATCH answered %v", got, patched)
	}
	for k, v := range got {
		if patched[k] != v {
			t.Fatalf("PATCH and GET /user/settings differ on %s: %v, %v", k, patched[k], v)
		}
	}
}

func TestRepoLanguages(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice := n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "polyglot"}, http.StatusCreated, nil)
	repo := "/api/v1/repos/" + alice.Name() + "/polyglot"
	var empty map[string]int64
	n.JSON("GET", repo+"/languages", alice, nil, http.StatusOK, &empty)
	if empty == nil || len(empty) != 0 {
		t.Fatalf("languages of an empty repository: %v", empty)
	}
	files := map[string]string{
		"main.go": "package main\n", "cmd/tool/tool.go": "package tool\n\nfunc X() {}\n", "web/app.tsx": "export {}\n",
		"README.md": "# Polyglot\n", "vendor/lib/lib.go": "package lib\n", ".hidden.go": "package x\n", "Makefile": "all:\n",
	}
	for _, p := range []string{"main.go", "cmd/tool/tool.go", "web/app.tsx", "README.md", "vendor/lib/lib.go", ".hidden.go", "Makefile"} {
		n.JSON("POST", repo+"/contents/"+p, alice, map[string]string{"content": b64(files[p])}, http.StatusCreated, nil)
	}
	var langs map[string]int64
	n.JSON("GET", repo+"/languages", nil, nil, http.StatusOK, &langs)
	want := map[string]int64{"Go": int64(len(files["main.go"]) + len(files["cmd/tool/tool.go"])), "TSX": int64(len(files["web/app.tsx"])), "Makefile": 5}
	if len(langs) != len(want) {
		t.Fatalf("languages = %v, want %v", langs, want)
	}
	for k, v := range want {
		if langs[k] != v {
			t.Fatalf("languages = %v, want %v", langs, want)
		}
	}
	n.JSON("GET", "/api/v1/repos/"+alice.Name()+"/nope/languages", nil, nil, http.StatusNotFound, nil)
}

func TestAssigneesAndReviewers(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob, carol, dave := n.NewUser(), n.NewUser(), n.NewUser(), n.NewUser()
	for _, private := range []bool{false, true} {
		name := "public"
		if private {
			name = "private"
		}
		n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": name, "private": private, "auto_init": true}, http.StatusCreated, nil)
		repo := "/api/v1/repos/" + alice.Name() + "/" + name
		n.JSON("PUT", repo+"/collaborators/"+bob.Name(), alice, map[string]string{"permission": "write"}, http.StatusNoContent, nil)
		n.JSON("PUT", repo+"/collaborators/"+carol.Name(), alice, map[string]string{"permission": "read"}, http.StatusNoContent, nil)

		var assignees, reviewers []loginJSON
		n.JSON("GET", repo+"/assignees", carol, nil, http.StatusOK, &assignees)
		if got := loginsOf(assignees); !slices.Equal(got, sortedLower(alice.Name(), bob.Name())) {
			t.Fatalf("%s assignees = %v", name, got)
		}
		// Reviewers are the writers but the one asking.
		n.JSON("GET", repo+"/reviewers", alice, nil, http.StatusOK, &reviewers)
		if got := loginsOf(reviewers); !slices.Equal(got, []string{bob.Name()}) {
			t.Fatalf("%s reviewers = %v", name, got)
		}
		if private { // nobody else learns the repository exists
			n.JSON("GET", repo+"/assignees", dave, nil, http.StatusNotFound, nil)
			n.JSON("GET", repo+"/reviewers", nil, nil, http.StatusNotFound, nil)
		}
	}
}

type loginJSON struct {
	Login string `json:"login"`
}

func loginsOf(list []loginJSON) []string {
	out := []string{}
	for _, u := range list {
		out = append(out, u.Login)
	}
	return out
}

func sortedLower(names ...string) []string {
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return names
}

func TestRepoWebsite(t *testing.T) {
	t.Parallel()
	for store, opts := range forgetest.Stores() {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			n := forgetest.Start(t, opts...)
			alice, bob := n.NewUser(), n.NewUser()
			n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "site"}, http.StatusCreated, nil)
			repo := "/api/v1/repos/" + alice.Name() + "/site"
			var got struct {
				Website     string `json:"website"`
				Description string `json:"description"`
			}
			n.JSON("PATCH", repo, alice, map[string]string{"website": "https://site.example/docs?x=1"}, http.StatusOK, &got)
			if got.Website != "https://site.example/docs?x=1" {
				t.Fatalf("PATCH website: %+v", got)
			}
			n.JSON("GET", repo, nil, nil, http.StatusOK, &got)
			if got.Website != "https://site.example/docs?x=1" {
				t.Fatalf("GET after PATCH website: %+v", got)
			}
			// Bad websites are refused naming the field, and nothing changes.
			for _, bad := range []string{"javascript:alert(1)", "site.example", "https://", "https://a b.example", "https://x.example/\x00",
				"https://x.example/" + strings.Repeat("a", 250)} {
				res := n.Call("PATCH", repo, alice, map[string]string{"website": bad, "description": "changed"})
				if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), "website") {
					t.Fatalf("PATCH website %q: %d %s", bad, res.Status, res.Body)
				}
			}
			n.JSON("PATCH", repo, bob, map[string]string{"website": "https://bob.example"}, http.StatusForbidden, nil)
			n.JSON("GET", repo, nil, nil, http.StatusOK, &got)
			if got.Website != "https://site.example/docs?x=1" || got.Description != "" {
				t.Fatalf("a refused PATCH changed the repository: %+v", got)
			}
			// Other edits keep it; an empty string clears it.
			n.JSON("PATCH", repo, alice, map[string]string{"description": "The site"}, http.StatusOK, &got)
			if got.Website != "https://site.example/docs?x=1" {
				t.Fatalf("a description edit lost the website: %+v", got)
			}
			n.JSON("PATCH", repo, alice, map[string]string{"website": ""}, http.StatusOK, &got)
			if got.Website != "" || got.Description != "The site" {
				t.Fatalf("clearing the website: %+v", got)
			}
			// A private repository keeps one too, shown to its readers only.
			n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "hidden", "private": true}, http.StatusCreated, nil)
			hidden := "/api/v1/repos/" + alice.Name() + "/hidden"
			n.JSON("PATCH", hidden, alice, map[string]string{"website": "http://hidden.example"}, http.StatusOK, nil)
			n.JSON("GET", hidden, alice, nil, http.StatusOK, &got)
			if got.Website != "http://hidden.example" {
				t.Fatalf("private repository website: %+v", got)
			}
			n.JSON("GET", hidden, bob, nil, http.StatusNotFound, nil)
		})
	}
}

func TestRepoTeamsAndOrgPermissions(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	n.JSON("POST", "/api/v1/orgs", alice, map[string]string{"username": "acme"}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/orgs/acme/repos", alice, map[string]any{"name": "tool"}, http.StatusCreated, nil)
	var team struct {
		ID int64 `json:"id"`
	}
	n.JSON("POST", "/api/v1/orgs/acme/teams", alice, map[string]any{"name": "Developers", "permission": "write", "can_create_org_repo": true}, http.StatusCreated, &team)
	n.JSON("PUT", "/api/v1/teams/"+itoa(team.ID)+"/members/"+bob.Name(), alice, nil, http.StatusNoContent, nil)

	repo := "/api/v1/repos/acme/tool/teams/"
	n.JSON("GET", repo+"developers", nil, nil, http.StatusNotFound, nil)
	n.JSON("PUT", repo+"developers", bob, nil, http.StatusForbidden, nil)
	n.JSON("PUT", repo+"developers", alice, nil, http.StatusNoContent, nil)
	n.JSON("PUT", repo+"Developers", alice, nil, http.StatusUnprocessableEntity, nil)
	n.JSON("PUT", repo+"nobody", alice, nil, http.StatusNotFound, nil)
	var got struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	n.JSON("GET", repo+"DEVELOPERS", nil, nil, http.StatusOK, &got)
	if got.ID != team.ID || got.Name != "Developers" {
		t.Fatalf("GET repo team: %+v", got)
	}
	// The team's write reaches bob: he is an assignee now.
	var assignees []loginJSON
	n.JSON("GET", "/api/v1/repos/acme/tool/assignees", nil, nil, http.StatusOK, &assignees)
	if l := loginsOf(assignees); !slices.Equal(l, sortedLower(alice.Name(), bob.Name())) {
		t.Fatalf("org repo assignees = %v", l)
	}
	n.JSON("DELETE", repo+"developers", alice, nil, http.StatusNoContent, nil)
	n.JSON("DELETE", repo+"developers", alice, nil, http.StatusUnprocessableEntity, nil)
	n.JSON("GET", repo+"developers", nil, nil, http.StatusNotFound, nil)

	type perms struct {
		IsOwner, IsAdmin, CanWrite, CanRead, CanCreateRepository bool
	}
	read := func(u *forgetest.User) perms {
		var p struct {
			IsOwner             bool `json:"is_owner"`
			IsAdmin             bool `json:"is_admin"`
			CanWrite            bool `json:"can_write"`
			CanRead             bool `json:"can_read"`
			CanCreateRepository bool `json:"can_create_repository"`
		}
		n.JSON("GET", "/api/v1/users/"+u.Name()+"/orgs/acme/permissions", alice, nil, http.StatusOK, &p)
		return perms(p)
	}
	if p := read(alice); p != (perms{true, true, true, true, true}) {
		t.Fatalf("owner's permissions: %+v", p)
	}
	if p := read(bob); p != (perms{false, false, true, true, true}) {
		t.Fatalf("writer's permissions: %+v", p)
	}
	if p := read(carol); p != (perms{}) {
		t.Fatalf("outsider's permissions: %+v", p)
	}
	n.JSON("GET", "/api/v1/users/"+bob.Name()+"/orgs/nope/permissions", alice, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/users/nobody-here/orgs/acme/permissions", alice, nil, http.StatusNotFound, nil)
}
