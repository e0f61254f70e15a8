package sshkeys_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/dforge/dforge/internal/chain/forge/actiontest"
	"github.com/dforge/dforge/internal/chain/tx"
)

type m = actiontest.M

var (
	owner    = actiontest.Owner
	stranger = actiontest.Stranger
)

func authorizedKey(t *testing.T, pub any) string {
	t.Helper()
	pk, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pk)))
}

func ed25519Key(t *testing.T, seed byte) string {
	seedBytes := make([]byte, ed25519.SeedSize)
	seedBytes[0] = seed
	priv := ed25519.NewKeyFromSeed(seedBytes)
	return authorizedKey(t, priv.Public())
}

// A key is added with its fingerprint, belongs to one account, and is
// deleted by its owner alone; what is not a good key is refused with
// invalid_key before anything is written.
func TestKeys(t *testing.T) {
	w := actiontest.New(t)
	key := ed25519Key(t, 1)
	c := w.OK(owner, "key.add", m{"title": "laptop", "key": "no-pty " + key + " me@host"})
	if c.Key == nil || c.Key.ID != 1 || c.Key.Owner != owner || c.Key.Key != key || !strings.HasPrefix(c.Key.Fingerprint, "SHA256:") || c.Key.Title != "laptop" {
		t.Fatalf("added %+v", c.Key)
	}
	w.Fails(tx.CodeKeyTaken, stranger, "key.add", m{"title": "mine", "key": key})
	w.Fails(tx.CodeKeyTaken, owner, "key.add", m{"title": "again", "key": key + " other comment"})
	w.Fails(tx.CodeInvalidField, owner, "key.add", m{"title": " ", "key": ed25519Key(t, 2)})

	weak, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "ssh-ed25519", "ssh-ed25519 AAAA", "hello world", authorizedKey(t, &weak.PublicKey),
		strings.Replace(key, "ssh-ed25519", "ssh-rsa", 1)} {
		w.Fails(tx.CodeInvalidKey, owner, "key.add", m{"title": "bad", "key": bad})
	}
	w.Fails(tx.CodeInvalidText, owner, "key.add", m{"title": "two", "key": key + "\n" + ed25519Key(t, 3)})

	w.Fails(tx.CodeForbidden, stranger, "key.delete", m{"id": c.Key.ID})
	w.Fails(tx.CodeNotFound, owner, "key.delete", m{"id": 99})
	d := w.OK(owner, "key.delete", m{"id": c.Key.ID})
	if d.DeletedKey == nil || d.DeletedKey.ID != c.Key.ID {
		t.Fatalf("deleted %+v", d.DeletedKey)
	}
	w.Fails(tx.CodeNotFound, owner, "key.delete", m{"id": c.Key.ID})
	// Once deleted, the key may be registered again, by anyone, as a new key.
	if again := w.OK(stranger, "key.add", m{"title": "mine", "key": key}); again.Key.ID != 2 {
		t.Fatalf("re-added %+v", again.Key)
	}
}
