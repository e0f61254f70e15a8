package forge

import (
	"crypto/rsa"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"golang.org/x/crypto/ssh"

	"github.com/dforge/dforge/internal/chain/tx"
)

// SSH public keys: an account's keys are on chain, so every node lets the
// same keys into git over SSH. A key belongs to one account (its
// fingerprint is unique chain-wide); ids are sequential and never reused.
// Parsing is golang.org/x/crypto/ssh's, which reads bytes only: pure.

// Key is a registered SSH public key.
type Key struct {
	ID    uint64         `json:"id"`
	Owner common.Address `json:"owner"`
	Title string         `json:"title"`
	// Key is the key in authorized_keys form, "<type> <base64>", without
	// options or comment.
	Key string `json:"key"`
	// Fingerprint is OpenSSH's "SHA256:<unpadded base64>".
	Fingerprint   string `json:"fingerprint"`
	CreatedHeight uint64 `json:"createdHeight"`
}

// KeyAdd registers an SSH public key for the actor. Key is one
// authorized_keys line ("ssh-ed25519 AAAA... comment"; options allowed
// and dropped).
type KeyAdd struct {
	Title string `json:"title"`
	Key   string `json:"key"`
}

// KeyDelete removes one of the actor's keys.
type KeyDelete struct {
	ID uint64 `json:"id"`
}

func (KeyAdd) ActionName() string    { return "key.add" }
func (KeyDelete) ActionName() string { return "key.delete" }

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

func keyKey(id uint64) []byte { return key([]byte("key"), u64(id)) }
func keyFingerprintKey(fp string) []byte {
	return key([]byte("keyfp"), []byte(fp))
}

func keyAdd(s *session, payload []byte) error {
	var p KeyAdd
	if err := decode(payload, &p); err != nil {
		return err
	}
	title := strings.TrimSpace(p.Title)
	if title == "" || len(title) > MaxKeyTitle {
		return invalid("title", "must be 1 to %d bytes", MaxKeyTitle)
	}
	pk, err := ParseKey(p.Key)
	if err != nil {
		return err
	}
	taken, err := s.getID(keyFingerprintKey(pk.Fingerprint))
	if err != nil {
		return err
	}
	if taken != 0 {
		return tx.NewError(tx.CodeKeyTaken, "the key %s is registered already; a key belongs to one account", pk.Fingerprint)
	}
	id, err := s.nextID("key")
	if err != nil {
		return err
	}
	k := Key{ID: id, Owner: s.actor, Title: title, Key: pk.Key, Fingerprint: pk.Fingerprint, CreatedHeight: s.env.Height}
	if err := s.putJSON(keyKey(id), k); err != nil {
		return err
	}
	if err := s.kv.Set(keyFingerprintKey(pk.Fingerprint), u64(id)); err != nil {
		return err
	}
	s.change.Key = &k
	return nil
}

func keyDelete(s *session, payload []byte) error {
	var p KeyDelete
	if err := decode(payload, &p); err != nil {
		return err
	}
	var k Key
	ok, err := s.getJSON(keyKey(p.ID), &k)
	if err != nil {
		return err
	}
	if !ok || p.ID == 0 {
		return notFound("key %d does not exist", p.ID)
	}
	if k.Owner != s.actor {
		return forbidden("key %d is not yours", p.ID)
	}
	if err := s.kv.Set(keyKey(p.ID), none); err != nil {
		return err
	}
	if err := s.kv.Set(keyFingerprintKey(k.Fingerprint), none); err != nil {
		return err
	}
	s.change.DeletedKey = &k
	return nil
}
