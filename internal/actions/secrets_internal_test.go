package actions

import (
	"context"
	"crypto/rand"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// A sealed secret opens under its own key, scope and name only: a row
// copied into another repository's, or renamed, or read with another
// node's key, does not open.
func TestASealedSecretOpensOnlyWhereItWasSealed(t *testing.T) {
	key, other := make([]byte, 32), make([]byte, 32)
	rand.Read(key)
	rand.Read(other)
	s := New(Config{SecretKey: key})
	sc := Scope{Repo: 7}
	sealed, err := s.seal(sc, "TOKEN", "hunter2-value")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.seal(sc, "TOKEN", "hunter2-value")
	if again == sealed {
		t.Fatal("two seals of one value are equal: the nonce is not fresh")
	}
	if v, err := s.open(sc, "TOKEN", sealed); err != nil || v != "hunter2-value" {
		t.Fatalf("open: %q %v", v, err)
	}
	for _, c := range []struct {
		s    *Service
		sc   Scope
		name string
	}{
		{s, Scope{Repo: 8}, "TOKEN"},
		{s, Scope{Owner: common.HexToAddress("0x01")}, "TOKEN"},
		{s, sc, "OTHER"},
		{New(Config{SecretKey: other}), sc, "TOKEN"},
	} {
		if v, err := c.s.open(c.sc, c.name, sealed); err == nil {
			t.Fatalf("opened as %+v %s: %q", c.sc, c.name, v)
		}
	}
	if _, err := New(Config{}).seal(sc, "TOKEN", "x"); err == nil {
		t.Fatal("a node without a key sealed a secret")
	}
}

// A fork's pull request gets no secrets, whatever its repository holds.
func TestAForksJobGetsNoSecrets(t *testing.T) {
	got, err := New(Config{}).taskSecrets(context.Background(), 1, true)
	if err != nil || len(got) != 0 {
		t.Fatalf("a fork's secrets: %v %v", got, err)
	}
}
