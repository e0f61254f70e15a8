package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// gitDir is where repository r of owner keeps its git data on n.
func gitDir(n *forgetest.Node, owner *forgetest.User, r repoOut) string {
	return filepath.Join(n.Dir, "git", strings.ToLower(owner.Address.Hex()), strconv.FormatUint(r.ID, 10)+".git")
}

// gone checks that who finds owner's repository name nowhere: not in the
// API, not by git, and not on disk.
func gone(t *testing.T, n *forgetest.Node, who, owner *forgetest.User, r repoOut, clone string) {
	t.Helper()
	for _, p := range []string{"", "/contents", "/commits"} {
		n.JSON("GET", repoPath(owner, r.Name)+p, who, nil, http.StatusNotFound, nil)
	}
	if out, err := n.TryGit("", "clone", n.Remote(who, owner.Name(), r.Name), filepath.Join(t.TempDir(), "c")); err == nil || !strings.Contains(out, "not found") {
		t.Fatalf("%s cloned a revoked fork: %v\n%s", r.FullName, err, out)
	}
	if clone != "" {
		n.Commit(clone, "After the revocation", map[string]string{"late.txt": "late\n"})
		if out, err := n.TryGit(clone, "push", "origin", "HEAD"); err == nil {
			t.Fatalf("pushed to the revoked fork %s:\n%s", r.FullName, out)
		}
	}
	if _, err := os.Stat(gitDir(n, owner, r)); !os.IsNotExist(err) {
		t.Fatalf("git data of the revoked fork %s: %v", r.FullName, err)
	}
}

// A collaborator removed from a private repository loses their fork of
// it, and the forks made of that fork go with it (as on GitHub).
func TestRemovedCollaboratorLosesPrivateFork(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	create(t, n, alice, "secret", true)
	n.JSON("PUT", repoPath(alice, "secret")+"/collaborators/"+bob.Name(), alice, map[string]string{"permission": "write"}, http.StatusNoContent, nil)
	var fork repoOut
	n.JSON("POST", repoPath(alice, "secret")+"/forks", bob, map[string]any{}, http.StatusAccepted, &fork)
	if !fork.Private || fork.OnChain {
		t.Fatalf("fork of a private repository %+v", fork)
	}
	clone := n.Clone(n.Remote(bob, bob.Name(), "secret"))
	n.Commit(clone, "Bob's work", map[string]string{"bob.txt": "bob\n"})
	n.Git(clone, "push", "--quiet", "origin", "main")
	n.JSON("GET", repoPath(bob, "secret")+"/contents/bob.txt", bob, nil, http.StatusOK, nil)
	// Carol forks bob's fork.
	n.JSON("PUT", repoPath(bob, "secret")+"/collaborators/"+carol.Name(), bob, map[string]string{"permission": "read"}, http.StatusNoContent, nil)
	var carols repoOut
	n.JSON("POST", repoPath(bob, "secret")+"/forks", carol, map[string]any{}, http.StatusAccepted, &carols)
	if _, err := os.Stat(gitDir(n, carol, carols)); err != nil {
		t.Fatal(err)
	}

	n.JSON("DELETE", repoPath(alice, "secret")+"/collaborators/"+bob.Name(), alice, nil, http.StatusNoContent, nil)
	gone(t, n, bob, bob, fork, clone)
	gone(t, n, carol, carol, carols, "")
	var src repoOut
	n.JSON("GET", repoPath(alice, "secret"), alice, nil, http.StatusOK, &src)
	if src.Forks != 0 {
		t.Fatalf("the source counts %d forks", src.Forks)
	}
	// Let in again, bob forks afresh.
	n.JSON("PUT", repoPath(alice, "secret")+"/collaborators/"+bob.Name(), alice, map[string]string{"permission": "read"}, http.StatusNoContent, nil)
	n.JSON("POST", repoPath(alice, "secret")+"/forks", bob, map[string]any{}, http.StatusAccepted, nil)
	n.JSON("GET", repoPath(bob, "secret")+"/contents/README.md", bob, nil, http.StatusOK, nil)

	// A public repository is not made private, so its forks stay public.
	create(t, n, alice, "open", false)
	n.JSON("POST", repoPath(alice, "open")+"/forks", bob, map[string]any{}, http.StatusAccepted, nil)
	n.JSON("PATCH", repoPath(alice, "open"), alice, map[string]any{"private": true}, http.StatusUnprocessableEntity, nil)
	n.JSON("GET", repoPath(bob, "open")+"/contents/README.md", nil, nil, http.StatusOK, nil)
}

// A private repository's former owner loses their forks in its fork
// network once it is transferred; a collaborator keeps theirs.
func TestTransferDropsFormerOwnersPrivateForks(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	create(t, n, alice, "secret", true)
	n.JSON("PUT", repoPath(alice, "secret")+"/collaborators/"+bob.Name(), alice, map[string]string{"permission": "write"}, http.StatusNoContent, nil)
	var bobs, alices repoOut
	n.JSON("POST", repoPath(alice, "secret")+"/forks", bob, map[string]any{}, http.StatusAccepted, &bobs)
	n.JSON("PUT", repoPath(bob, "secret")+"/collaborators/"+alice.Name(), bob, map[string]string{"permission": "read"}, http.StatusNoContent, nil)
	n.JSON("POST", repoPath(bob, "secret")+"/forks", alice, map[string]any{"name": "mine"}, http.StatusAccepted, &alices)
	clone := n.Clone(n.Remote(alice, alice.Name(), "mine"))

	// Offered, carol may read it to decide (as in Gitea); accepted, it moves.
	n.JSON("POST", repoPath(alice, "secret")+"/transfer", alice, map[string]string{"new_owner": carol.Name()}, http.StatusCreated, nil)
	n.JSON("GET", repoPath(alice, "secret"), carol, nil, http.StatusOK, nil)
	n.JSON("POST", repoPath(alice, "secret")+"/transfer/accept", carol, nil, http.StatusAccepted, nil)
	gone(t, n, alice, alice, alices, clone)
	n.JSON("GET", repoPath(carol, "secret"), carol, nil, http.StatusOK, nil)
	n.JSON("GET", repoPath(carol, "secret"), alice, nil, http.StatusNotFound, nil)
	n.Clone(n.Remote(bob, bob.Name(), "secret"))
	if _, err := os.Stat(gitDir(n, bob, bobs)); err != nil {
		t.Fatalf("the collaborator's fork: %v", err)
	}
}

// A private repository never comes to belong to an organization. An
// organization's repositories are public and its teams live on chain, out
// of the private store's sight, so there a transfer into one was checked
// against no owner: a stranger to the organization moved his private
// repository into it (202) and its owners could then read it, and losing
// a team could not take anyone's forks of it away. A transfer and a fork
// into an organization are refused instead, whoever asks.
func TestPrivateRepositoriesStayOutOfOrganizations(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	alice, bob := n.NewUser(), n.NewUser()
	create(t, n, alice, "secret", true)
	create(t, n, bob, "bsecret", true)
	n.JSON("POST", "/api/v1/orgs", alice, map[string]any{"username": "acme"}, http.StatusCreated, nil)
	n.JSON("PUT", repoPath(alice, "secret")+"/collaborators/"+bob.Name(), alice, map[string]string{"permission": "read"}, http.StatusNoContent, nil)

	refused := func(who *forgetest.User, path string, body map[string]any, field string) {
		t.Helper()
		res := n.Call("POST", path, who, body)
		var got struct{ Code, Field string }
		json.Unmarshal(res.Body, &got)
		if res.Status != http.StatusUnprocessableEntity || got.Field != field {
			t.Fatalf("POST %s %v: %d %s, want 422 naming %s", path, body, res.Status, res.Body, field)
		}
	}
	refused(bob, repoPath(bob, "bsecret")+"/transfer", map[string]any{"new_owner": "acme"}, "new_owner")    // a stranger to acme
	refused(alice, repoPath(alice, "secret")+"/transfer", map[string]any{"new_owner": "acme"}, "new_owner") // its owner
	refused(bob, repoPath(alice, "secret")+"/forks", map[string]any{"organization": "acme"}, "organization")

	for _, name := range []string{"secret", "bsecret"} {
		n.JSON("GET", "/api/v1/repos/acme/"+name, alice, nil, http.StatusNotFound, nil)
	}
	n.JSON("GET", repoPath(alice, "secret")+"/contents/README.md", alice, nil, http.StatusOK, nil)
	n.JSON("GET", repoPath(bob, "bsecret")+"/contents/README.md", bob, nil, http.StatusOK, nil)
	n.JSON("GET", repoPath(bob, "bsecret"), alice, nil, http.StatusNotFound, nil)
	var repos []repoOut
	n.JSON("GET", "/api/v1/orgs/acme/repos", alice, nil, http.StatusOK, &repos)
	if len(repos) != 0 {
		t.Fatalf("acme's repositories: %+v", repos)
	}
	// A public repository still moves into an organization its owner owns.
	create(t, n, alice, "open", false)
	if res := n.WalletCall("POST", repoPath(alice, "open")+"/transfer", alice, map[string]any{"new_owner": "acme"}); res.Status != http.StatusAccepted {
		t.Fatalf("transfer signed by alice's wallet: %d %s", res.Status, res.Body)
	}
	n.JSON("GET", "/api/v1/repos/acme/open", nil, nil, http.StatusOK, nil)
}
