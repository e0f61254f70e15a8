package api_test

import (
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"golang.org/x/crypto/ssh"

	"github.com/dforge/dforge/internal/forgetest"
)

type keyOut struct {
	ID          int64  `json:"id"`
	Key         string `json:"key"`
	Title       string `json:"title"`
	Fingerprint string `json:"fingerprint"`
	CreatedAt   string `json:"created_at"`
	KeyType     string `json:"key_type"`
	User        struct {
		Login string `json:"login"`
	} `json:"user"`
}

// SSH keys through the API: added on chain, listed for their owner and for
// anyone under /users/{username}/keys, one account per key, deleted by
// their owner only; a malformed key is a 422 naming the field, and nothing
// is added.
func TestSSHKeys(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testSSHKeys(t, forgetest.Start(t, opts...))
		})
	}
}

func testSSHKeys(t *testing.T, n *forgetest.Node) {
	alice, bob := n.NewUser(), n.NewUser()
	_, pub := n.SSHKey()

	k := walletAddKey(t, n, alice, "laptop", pub)
	fields := strings.Fields(pub)
	if k.ID == 0 || k.Title != "laptop" || k.Key != fields[0]+" "+fields[1] || !strings.HasPrefix(k.Fingerprint, "SHA256:") ||
		k.User.Login != alice.Name() || k.KeyType != "user" || k.CreatedAt == "" {
		t.Fatalf("created %+v", k)
	}
	var mine, theirs []keyOut
	res := n.JSON("GET", "/api/v1/user/keys", alice, nil, http.StatusOK, &mine)
	if len(mine) != 1 || mine[0].ID != k.ID || res.Header.Get("X-Total-Count") != "1" {
		t.Fatalf("my keys %+v", mine)
	}
	n.JSON("GET", "/api/v1/users/"+alice.Name()+"/keys", nil, nil, http.StatusOK, &theirs)
	if len(theirs) != 1 || theirs[0].Fingerprint != k.Fingerprint {
		t.Fatalf("alice's keys %+v", theirs)
	}
	n.JSON("GET", "/api/v1/users/nobody-here/keys", nil, nil, http.StatusNotFound, nil)
	path := "/api/v1/user/keys/" + strconv.FormatInt(k.ID, 10)
	n.JSON("GET", path, alice, nil, http.StatusOK, nil)
	n.JSON("GET", path, bob, nil, http.StatusNotFound, nil)
	n.JSON("GET", path, nil, nil, http.StatusUnauthorized, nil)

	// A key belongs to one account.
	res = n.JSON("POST", "/api/v1/user/keys", bob, map[string]any{"title": "stolen", "key": pub}, http.StatusUnprocessableEntity, nil)
	if !strings.Contains(string(res.Body), "key_taken") {
		t.Fatalf("duplicate key: %s", res.Body)
	}
	for _, bad := range []string{"", "ssh-ed25519", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5", weakRSA(t), "not a key at all",
		pub + "\n" + pub} {
		res := n.JSON("POST", "/api/v1/user/keys", bob, map[string]any{"title": "bad", "key": bad}, http.StatusUnprocessableEntity, nil)
		if !strings.Contains(string(res.Body), `"key"`) {
			t.Errorf("key %q: %s does not name the field", bad, res.Body)
		}
	}
	n.JSON("POST", "/api/v1/user/keys", bob, map[string]any{"title": "", "key": pub}, http.StatusUnprocessableEntity, nil)
	var none []keyOut
	n.JSON("GET", "/api/v1/user/keys", bob, nil, http.StatusOK, &none)
	if len(none) != 0 {
		t.Fatalf("bob's keys after refusals: %+v", none)
	}

	n.JSON("DELETE", path, bob, nil, http.StatusForbidden, nil)
	n.JSON("DELETE", "/api/v1/user/keys/999", alice, nil, http.StatusNotFound, nil)
	n.JSON("DELETE", path, alice, nil, http.StatusNoContent, nil)
	n.JSON("GET", path, alice, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/user/keys", alice, nil, http.StatusOK, &mine)
	if len(mine) != 0 {
		t.Fatalf("keys after delete: %+v", mine)
	}
}

// The Gitea SDK manages keys as on Gitea.
func TestSSHKeysGiteaSDK(t *testing.T) {
	t.Parallel()
	n := forgetest.Start(t)
	u := signUpForSDK(t, n)
	_, pub := n.SSHKey()
	// Adding a key is never delegated: a token gets 403, and the wallet
	// signs it (a deliberate difference from Gitea: docs/architecture.md, Who signs what).
	if _, res, err := u.client.CreatePublicKey(gitea.CreateKeyOption{Title: "sdk", Key: pub}); err == nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("CreatePublicKey with a token: %v", err)
	}
	added := walletAddKey(t, n, u.wallet(), "sdk", pub)
	k, _, err := u.client.GetPublicKey(added.ID)
	if err != nil || k.ID == 0 || k.Title != "sdk" || k.Fingerprint == "" || k.Owner == nil || k.Owner.UserName != u.login || k.Created.IsZero() {
		t.Fatalf("GetPublicKey: %+v, %v", k, err)
	}
	mine, _, err := u.client.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
	if err != nil || len(mine) != 1 || mine[0].ID != k.ID {
		t.Fatalf("ListMyPublicKeys: %+v, %v", mine, err)
	}
	got, _, err := u.client.GetPublicKey(k.ID)
	if err != nil || got.Fingerprint != k.Fingerprint {
		t.Fatalf("GetPublicKey: %+v, %v", got, err)
	}
	listed, _, err := u.client.ListPublicKeys(u.login, gitea.ListPublicKeysOptions{})
	if err != nil || len(listed) != 1 || listed[0].Key != k.Key {
		t.Fatalf("ListPublicKeys: %+v, %v", listed, err)
	}
	if _, _, err := u.client.CreatePublicKey(gitea.CreateKeyOption{Title: "bad", Key: "ssh-rsa AAAA"}); err == nil {
		t.Fatal("a malformed key was taken")
	}
	if _, err := u.client.DeletePublicKey(k.ID); err != nil {
		t.Fatalf("DeletePublicKey: %v", err)
	}
	if _, res, err := u.client.GetPublicKey(k.ID); err == nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("GetPublicKey after delete: %v", err)
	}
}

// weakRSA is a 1024-bit RSA key in authorized_keys form: too weak.
func weakRSA(t *testing.T) string {
	k, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := ssh.NewPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return string(ssh.MarshalAuthorizedKey(pk))
}
