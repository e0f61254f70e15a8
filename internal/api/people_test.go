package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

type contributor struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Commits int    `json:"commits"`
	Login   string `json:"login"`
}

// One person is counted once among a repository's contributors: commits
// under the web commit address (user-...@noreply), the wallet's address
// email and, once claimed on chain, any email of theirs count as the
// account's. Another account cannot take a claimed email.
func TestContributorsByAccount(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testContributorsByAccount(t, forgetest.Start(t, opts...))
		})
	}
}

func testContributorsByAccount(t *testing.T, n *forgetest.Node) {
	alice, bob := n.NewUser(), n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "app", "auto_init": true}, http.StatusCreated, nil)
	wt := n.Clone(n.Remote(alice, alice.Name(), "app"))
	as := func(name, email, file string) {
		n.GitAt(wt, []string{"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email}, "commit", "--quiet", "--allow-empty", "-m", file)
	}
	as("Alice", "alice@example.org", "one")
	as("Alice", "alice@example.org", "two")
	as(alice.Name(), strings.ToLower(alice.Address.Hex())+"@users.dforge", "three")
	as("Bob", "bob@example.org", "four")
	n.Git(wt, "push", "-q", "origin", "main")
	contributors := "/api/v1/repos/" + alice.Name() + "/app/contributors"

	// 1. Before the claim: the README (web commit) and the wallet email
	// are alice's; "Alice <alice@example.org>" is nobody's yet.
	list := func() ([]contributor, string) {
		var out []contributor // fresh: decoding into a used slice keeps omitted fields
		res := n.JSON("GET", contributors, nil, nil, http.StatusOK, &out)
		return out, res.Header.Get("X-Total-Count")
	}
	if got, _ := list(); summary(got) != "Alice:2 "+alice.Name()+":2 Bob:1" {
		t.Fatalf("before the claim: %+v", got)
	}
	commitAccounts := func() string {
		var commits []struct {
			Commit struct {
				Message string `json:"message"`
			} `json:"commit"`
			Author *struct {
				Login string `json:"login"`
			} `json:"author"`
		}
		n.JSON("GET", "/api/v1/repos/"+alice.Name()+"/app/commits?files=false", nil, nil, http.StatusOK, &commits)
		linked := []string{}
		for _, c := range commits {
			who := "-"
			if c.Author != nil {
				who = c.Author.Login
			}
			linked = append(linked, strings.TrimSpace(c.Commit.Message)+":"+who)
		}
		return strings.Join(linked, " ")
	}
	unclaimed := "four:- three:" + alice.Name() + " two:- one:-"
	if got := commitAccounts(); !strings.HasPrefix(got, unclaimed) {
		t.Fatalf("commit accounts before the claim %v, want them to start %q", got, unclaimed)
	}

	// 2. Alice claims her email (any case); now she is one contributor.
	var added []struct {
		Email string `json:"email"`
	}
	n.JSON("POST", "/api/v1/user/emails", alice, map[string]any{"emails": []string{" Alice@Example.org"}}, http.StatusCreated, &added)
	if len(added) != 1 || added[0].Email != "alice@example.org" {
		t.Fatalf("added %+v", added)
	}
	if got, total := list(); summary(got) != alice.Name()+":4 Bob:1" || total != "2" {
		t.Fatalf("after the claim: %+v (total %s)", got, total)
	}
	// The commits list links each commit to the account its email names,
	// as Gitea does; Bob's email names nobody, so his commit has none.
	// Commits are kept encoded between reads, so a claim must still show.
	if want := "four:- three:" + alice.Name() + " two:" + alice.Name() + " one:" + alice.Name(); !strings.HasPrefix(commitAccounts(), want) {
		t.Fatalf("commit accounts %v, want them to start %q", commitAccounts(), want)
	}

	// 3. The claim is public and alice's alone.
	var emails []struct {
		Email    string `json:"email"`
		Primary  bool   `json:"primary"`
		Verified bool   `json:"verified"`
	}
	n.JSON("GET", "/api/v1/users/"+alice.Name()+"/emails", nil, nil, http.StatusOK, &emails)
	if len(emails) != 2 || !emails[0].Primary || !strings.HasSuffix(emails[0].Email, "@users.dforge") || emails[1].Email != "alice@example.org" || emails[1].Verified {
		t.Fatalf("alice's emails %+v", emails)
	}
	n.JSON("POST", "/api/v1/user/emails", bob, map[string]any{"emails": []string{"alice@example.org"}}, http.StatusUnprocessableEntity, nil)
	n.JSON("POST", "/api/v1/user/emails", bob, map[string]any{"emails": []string{"not an email"}}, http.StatusUnprocessableEntity, nil)
	n.JSON("DELETE", "/api/v1/user/emails", bob, map[string]any{"emails": []string{"alice@example.org"}}, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/user/emails", bob, nil, http.StatusOK, &emails)
	if len(emails) != 1 {
		t.Fatalf("bob's emails %+v", emails)
	}

	// 4. Letting it go splits the count again, and frees it for bob.
	n.JSON("DELETE", "/api/v1/user/emails", alice, map[string]any{"emails": []string{"alice@example.org"}}, http.StatusNoContent, nil)
	if got, _ := list(); summary(got) != "Alice:2 "+alice.Name()+":2 Bob:1" {
		t.Fatalf("after letting it go: %+v", got)
	}
	if got := commitAccounts(); !strings.HasPrefix(got, unclaimed) {
		t.Fatalf("commit accounts after letting it go %v, want them to start %q", got, unclaimed)
	}
	n.JSON("POST", "/api/v1/user/emails", bob, map[string]any{"emails": []string{"alice@example.org"}}, http.StatusCreated, nil)
}

// summary is "name:commits" per contributor in order, by login if linked.
func summary(list []contributor) string {
	var parts []string
	for _, c := range list {
		who := c.Name
		if c.Login != "" {
			who = c.Login
		}
		parts = append(parts, who+":"+strconv.Itoa(c.Commits))
	}
	return strings.Join(parts, " ")
}

// Forks, starred and watched repositories, Gitea's lists: each shows only
// what the viewer may see.
func TestRepoListsByPeople(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testRepoListsByPeople(t, forgetest.Start(t, opts...))
		})
	}
}

func testRepoListsByPeople(t *testing.T, n *forgetest.Node) {
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "app", "auto_init": true}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/user/repos", alice, map[string]any{"name": "secret", "private": true}, http.StatusCreated, nil)
	n.JSON("POST", "/api/v1/repos/"+alice.Name()+"/app/forks", bob, map[string]any{}, http.StatusAccepted, nil)
	for _, r := range []string{"app", "secret"} {
		n.JSON("PUT", "/api/v1/user/starred/"+alice.Name()+"/"+r, alice, nil, http.StatusNoContent, nil)
		n.JSON("PUT", "/api/v1/repos/"+alice.Name()+"/"+r+"/subscription", alice, nil, http.StatusOK, nil)
	}
	names := func(path string, u *forgetest.User) string {
		var out []struct {
			FullName string `json:"full_name"`
		}
		n.JSON("GET", path, u, nil, http.StatusOK, &out)
		var list []string
		for _, r := range out {
			list = append(list, r.FullName)
		}
		return strings.Join(list, " ")
	}
	if got := names("/api/v1/repos/"+alice.Name()+"/app/forks", nil); got != bob.Name()+"/app" {
		t.Fatalf("forks: %s", got)
	}
	app, secret := alice.Name()+"/app", alice.Name()+"/secret"
	for _, c := range []struct {
		path string
		as   *forgetest.User
		want string
	}{
		{"/api/v1/user/starred", alice, app + " " + secret},
		{"/api/v1/users/" + alice.Name() + "/starred", carol, app},
		{"/api/v1/user/subscriptions", alice, app + " " + secret},
		{"/api/v1/users/" + alice.Name() + "/subscriptions", nil, app},
		{"/api/v1/user/starred", carol, ""},
	} {
		if got := names(c.path, c.as); got != c.want && !(strings.Contains(c.want, " ") && got == secret+" "+app) {
			t.Errorf("%s: %q, want %q", c.path, got, c.want)
		}
	}
	n.JSON("GET", "/api/v1/users/nobody-here/starred", nil, nil, http.StatusNotFound, nil)
}
