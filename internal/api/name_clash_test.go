package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestPublicAndPrivateCannotShareAName: a public and a private repository
// of one owner with the same name sent the owner's push for the private
// one into the public one (a security test found it). The node refuses the
// clash for its own users' actions, and where it cannot refuse without
// telling the actor about someone's private repository (a transfer in), the
// private one keeps the name on its node.
func TestPublicAndPrivateCannotShareAName(t *testing.T) {
	t.Parallel()
	n := startIssuesNode(t)
	alice, bob := n.NewUser("write", "admin"), n.NewUser("write", "admin")
	create := func(u *forgetest.User, name string, private bool, want int) {
		t.Helper()
		res := n.Call("POST", "/api/v1/user/repos", u, map[string]any{"name": name, "private": private})
		if res.Status != want {
			t.Fatalf("create %s (private %v) = %d %s, want %d", name, private, res.Status, res.Body, want)
		}
		if want == http.StatusConflict && !strings.Contains(string(res.Body), "name_taken") {
			t.Fatalf("the refusal has no name_taken code: %s", res.Body)
		}
	}

	// 1. The same name with the other visibility, either way round, in any case.
	create(alice, "seq1", false, http.StatusCreated)
	create(alice, "SEQ1", true, http.StatusConflict)
	create(alice, "vault", true, http.StatusCreated)
	create(alice, "Vault", false, http.StatusConflict)
	// 2. Renaming, and forking someone's public repository, onto a private name.
	n.JSON("PATCH", "/api/v1/repos/"+alice.Name()+"/seq1", alice, map[string]any{"name": "vault"}, http.StatusConflict, nil)
	create(bob, "vault", false, http.StatusCreated)
	n.JSON("POST", "/api/v1/repos/"+bob.Name()+"/vault/forks", alice, map[string]any{}, http.StatusConflict, nil)

	// 3. Bob offers his public "vault" to alice: refusing would tell bob
	// that alice has a private "vault". Her acceptance is refused (it is
	// her own action); alice/vault stays her private repository on this
	// node, so her push stays private.
	if res := n.WalletCall("POST", "/api/v1/repos/"+bob.Name()+"/vault/transfer", bob, map[string]string{"new_owner": alice.Name()}); res.Status != http.StatusCreated {
		t.Fatalf("transfer signed by bob's wallet: %d %s", res.Status, res.Body)
	}
	if res := n.Call("POST", "/api/v1/repos/"+bob.Name()+"/vault/transfer/accept", alice, nil); res.Status != http.StatusConflict || !strings.Contains(string(res.Body), "name_taken") {
		t.Fatalf("accepting a public vault beside her private one = %d %s, want 409 name_taken", res.Status, res.Body)
	}
	if res := n.Call("GET", "/api/v1/repos/"+alice.Name()+"/vault", nil, nil); res.Status != http.StatusNotFound {
		t.Fatalf("anonymous alice/vault after the transfer = %d %s, want 404 (her private repository)", res.Status, res.Body)
	}
	wt := n.Clone(n.Remote(alice, alice.Name(), "vault"))
	n.Commit(wt, "secret", map[string]string{"secret.txt": "TOPSECRET\n"})
	n.Git(wt, "push", "-q", "origin", "HEAD:refs/heads/wip")
	for _, path := range []string{"/raw/secret.txt?ref=wip", "/contents/secret.txt?ref=wip"} {
		if res := n.Call("GET", "/api/v1/repos/"+alice.Name()+"/vault"+path, nil, nil); res.Status != http.StatusNotFound {
			t.Errorf("anonymous GET alice/vault%s = %d %s, want 404", path, res.Status, res.Body)
		}
	}
	var got struct{ Private bool }
	n.JSON("GET", "/api/v1/repos/"+alice.Name()+"/vault", alice, nil, http.StatusOK, &got)
	if !got.Private {
		t.Fatal("alice/vault resolves to the public repository for alice")
	}
	blob := strings.TrimSpace(n.Git(wt, "rev-parse", "HEAD:secret.txt"))
	// Blocks are served from git through the blockstore's index: ask it.
	if n.Blocks.HasGitObject(blob) {
		t.Fatal("the pushed secret became a public IPFS block")
	}
}
