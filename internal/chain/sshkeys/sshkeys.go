// Package sshkeys is the chain module of SSH public keys (key.add,
// key.delete): an account's keys are on chain, so every node lets the same
// keys into git over SSH. A key belongs to one account (its fingerprint is
// unique chain-wide); ids are sequential and never reused. Parsing is
// golang.org/x/crypto/ssh's, which reads bytes only: pure.
//
// Its actions are forge actions: init registers them into the forge
// module's one actions table (forge.Register); the record their events
// carry (forge.Key) stays in the forge package. README.md is the spec.
package sshkeys

import (
	"crypto/rsa"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

func init() {
	forge.Register("key.add", Add{}, add)
	forge.Register("key.delete", Delete{}, del)
}

// Add registers an SSH public key for the actor. Key is one
// authorized_keys line ("ssh-ed25519 AAAA... comment"; options allowed
// and dropped).
type Add struct {
	Title string `json:"title"`
	Key   string `json:"key"`
}

// Delete removes one of the actor's keys.
type Delete struct {
	ID uint64 `json:"id"`
}

func (Add) ActionName() string    { return "key.add" }
func (Delete) ActionName() string { return "key.delete" }

// Bounds of a key's title and text. The largest RSA key OpenSSH makes
// (16384 bits) is about 2,800 characters in authorized_keys form.
const (
	MaxKeyTitle = 255
	MaxKeyText  = 8192
	MinRSABits  = 2048
)

// keyTypes are the key types taken; DSA and certificates are not.
var keyTypes = map[string]bool{
	ssh.KeyAlgoED25519:    true,
	ssh.KeyAlgoSKED25519:  true,
	ssh.KeyAlgoECDSA256:   true,
	ssh.KeyAlgoECDSA384:   true,
	ssh.KeyAlgoECDSA521:   true,
	ssh.KeyAlgoSKECDSA256: true,
	ssh.KeyAlgoRSA:        true,
}

// ParsedKey is a key as the chain stores it.
type ParsedKey struct {
	Key         string // "<type> <base64>"
	Fingerprint string
	Type        string
}

// ParseKey reads one authorized_keys line and holds it to the rules:
// one key, of a type taken, RSA of MinRSABits or more. Errors are
// *tx.Error of CodeInvalidKey naming field "key". The API checks a key
// with it before relaying, the module again when applying.
func ParseKey(text string) (ParsedKey, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return ParsedKey{}, badKey("is empty; paste a public key such as the content of ~/.ssh/id_ed25519.pub")
	case len(text) > MaxKeyText:
		return ParsedKey{}, badKey("is longer than %d bytes", MaxKeyText)
	case strings.ContainsAny(text, "\r\n"):
		return ParsedKey{}, badKey("holds more than one line; add one key at a time")
	}
	pk, _, _, rest, err := ssh.ParseAuthorizedKey([]byte(text))
	if err != nil {
		return ParsedKey{}, badKey("is not an SSH public key in authorized_keys form (%v)", err)
	}
	if len(rest) > 0 {
		return ParsedKey{}, badKey("holds more than one key")
	}
	if !keyTypes[pk.Type()] {
		return ParsedKey{}, badKey("is of type %s, which is not taken; use ssh-ed25519, ecdsa or ssh-rsa of %d bits or more", pk.Type(), MinRSABits)
	}
	if cpk, ok := pk.(ssh.CryptoPublicKey); ok {
		if rk, ok := cpk.CryptoPublicKey().(*rsa.PublicKey); ok && rk.N.BitLen() < MinRSABits {
			return ParsedKey{}, badKey("is an RSA key of %d bits; the least is %d", rk.N.BitLen(), MinRSABits)
		}
	}
	return ParsedKey{
		Key:         strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pk))),
		Fingerprint: ssh.FingerprintSHA256(pk),
		Type:        pk.Type(),
	}, nil
}

func badKey(format string, args ...any) error {
	e := tx.NewError(tx.CodeInvalidKey, "field \"key\" "+format, args...)
	e.Field = "key"
	return e
}

// State keys: forge/key/<id> and forge/keyfp/<fingerprint>, under the
// forge module's prefix, where they were before the keys had their own
// package (the app hash depends on them).
func keyKey(id uint64) []byte { return forge.StateKey([]byte("key"), state.Uint64(id)) }
func fingerprintKey(fp string) []byte {
	return forge.StateKey([]byte("keyfp"), []byte(fp))
}

func add(s *forge.Session, payload []byte) error {
	var p Add
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	title := strings.TrimSpace(p.Title)
	if title == "" || len(title) > MaxKeyTitle {
		return forge.Invalid("title", "must be 1 to %d bytes", MaxKeyTitle)
	}
	pk, err := ParseKey(p.Key)
	if err != nil {
		return err
	}
	taken, err := s.GetID(fingerprintKey(pk.Fingerprint))
	if err != nil {
		return err
	}
	if taken != 0 {
		return tx.NewError(tx.CodeKeyTaken, "the key %s is registered already; a key belongs to one account", pk.Fingerprint)
	}
	id, err := s.NextID("key")
	if err != nil {
		return err
	}
	k := forge.Key{ID: id, Owner: s.Actor(), Title: title, Key: pk.Key, Fingerprint: pk.Fingerprint, CreatedHeight: s.Env().Height}
	if err := s.PutJSON(keyKey(id), k); err != nil {
		return err
	}
	if err := s.KV().Set(fingerprintKey(pk.Fingerprint), state.Uint64(id)); err != nil {
		return err
	}
	s.Change().Key = &k
	return nil
}

func del(s *forge.Session, payload []byte) error {
	var p Delete
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	var k forge.Key
	ok, err := s.GetJSON(keyKey(p.ID), &k)
	if err != nil {
		return err
	}
	if !ok || p.ID == 0 {
		return forge.NotFound("key %d does not exist", p.ID)
	}
	if k.Owner != s.Actor() {
		return forge.Forbidden("key %d is not yours", p.ID)
	}
	if err := s.KV().Set(keyKey(p.ID), forge.None()); err != nil {
		return err
	}
	if err := s.KV().Set(fingerprintKey(k.Fingerprint), forge.None()); err != nil {
		return err
	}
	s.Change().DeletedKey = &k
	return nil
}
