// Package names is the chain module for usernames. Every account has a
// default name derived from its address; an account may claim another name
// once no other account holds it. Names are unique across the chain without
// regard to case. The module owns its state keys, its ClaimUsername event
// (events.go) and the codes of its rule violations (errors.go), and is
// pure: it reads and writes only the store it is given.
package names

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/state"
)

// MaxLen is the longest username, as on GitHub.
const MaxLen = 39

// defaultPrefix starts every default name; the rest is hex from the address.
const (
	defaultPrefix  = "user-"
	defaultHexLen  = 12
	defaultNameLen = len(defaultPrefix) + defaultHexLen
)

// Default is the name an account has until it claims one: "user-" and the
// first twelve hex digits of its address, in lower case.
func Default(a common.Address) string {
	return defaultPrefix + strings.ToLower(a.Hex()[2:2+defaultHexLen])
}

// reserved are names that would shadow a page or an API path of the forge,
// or that people would mistake for the platform itself.
var reserved = []string{
	"about", "admin", "administrator", "analytics", "api", "assets", "blog", "bounties", "careers",
	"changelog", "community", "dashboard", "dforge", "docs", "events", "explore", "explorer", "faq",
	"feed", "forum", "ghost", "governance", "grants", "groups", "help", "home", "ipfs", "issues",
	"login", "logout", "marketplace", "messages", "metrics", "monitoring", "new", "notifications",
	"org", "playground", "pricing", "privacy", "profile", "pulls", "repo", "reports", "rewards",
	"root", "search", "security", "settings", "staking", "status", "support", "system", "team",
	"terms", "treasury", "user", "users", "validators", "wallet",
	// Files the web app serves at the root: /NAME/x must never be a repository page.
	"favicon.ico", "favicon.svg", "icons", "index.html", "manifest.webmanifest", "music", "registerSW.js",
	"robots.txt", "sw.js",
}

// Validate checks a name against the forge's rules (Gitea's): 1 to MaxLen
// letters, digits, '-', '_' and '.', starting and ending with a letter or
// digit, with no two of '-', '_', '.' in a row, not ending in ".git" and
// not reserved. Default names are refused too: they belong to addresses.
func Validate(name string) error {
	if err := checkShape(name); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	lower := strings.ToLower(name)
	if slices.Contains(reserved, lower) || strings.HasSuffix(lower, ".git") {
		return fmt.Errorf("%w: %q is used by the forge itself", ErrReserved, name)
	}
	if looksDefault(lower) {
		return fmt.Errorf("%w: names of the form user-<12 hex digits> are the default names of addresses", ErrReserved)
	}
	return nil
}

// CanOwn reports whether name may appear as an owner in a URL: the shape of
// a username (claimed or default) and not a reserved word.
func CanOwn(name string) bool {
	return checkShape(name) == nil && !slices.Contains(reserved, strings.ToLower(name))
}

func checkShape(name string) error {
	if name == "" || len(name) > MaxLen {
		return fmt.Errorf("a username has 1 to %d characters", MaxLen)
	}
	prevSpecial := true // a name may not start with a special character
	for _, r := range name {
		special := r == '-' || r == '_' || r == '.'
		switch {
		case !special && !isAlnum(r):
			return errors.New("a username may contain only letters, digits, '-', '_' and '.'")
		case special && prevSpecial:
			return errors.New("a username starts with a letter or digit and has no two of '-', '_', '.' in a row")
		}
		prevSpecial = special
	}
	if prevSpecial {
		return errors.New("a username ends with a letter or digit")
	}
	return nil
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

func looksDefault(lower string) bool {
	hex, ok := strings.CutPrefix(lower, defaultPrefix)
	if !ok || len(lower) != defaultNameLen {
		return false
	}
	return strings.IndexFunc(hex, func(r rune) bool { return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') }) < 0
}

// free marks a key whose name or owner was released; the store has no
// delete, and an empty value is not allowed.
var free = []byte{0}

func ownerKey(lower string) []byte    { return append([]byte("names/owner/"), lower...) }
func nameKey(a common.Address) []byte { return append([]byte("names/name/"), a.Bytes()...) }

// Of is a's current username: the claimed one, else Default(a).
func Of(kv state.KV, a common.Address) (string, error) {
	v, err := kv.Get(nameKey(a))
	if err != nil {
		return "", fmt.Errorf("read username of %s: %w", a.Hex(), err)
	}
	if v == nil || len(v) == len(free) && v[0] == 0 {
		return Default(a), nil
	}
	return string(v), nil
}

// Owner is the account holding name (any case), if any. Default names
// belong to their address, which they encode only in part, so they are
// looked up by the caller, not here.
func Owner(kv state.KV, name string) (common.Address, bool, error) {
	v, err := kv.Get(ownerKey(strings.ToLower(name)))
	if err != nil {
		return common.Address{}, false, fmt.Errorf("read owner of %q: %w", name, err)
	}
	if len(v) != common.AddressLength {
		return common.Address{}, false, nil
	}
	return common.BytesToAddress(v), true, nil
}

// Claim gives name to a and frees a's previous claimed name, which it
// returns ("" when a had only its default). Claiming Default(a) gives up
// the claimed name. A change of case of one's own name is a claim too.
func Claim(kv state.KV, a common.Address, name string) (string, error) {
	previous, err := claimed(kv, a)
	if err != nil {
		return "", err
	}
	if strings.EqualFold(name, Default(a)) {
		return previous, release(kv, a, previous)
	}
	if err := Validate(name); err != nil {
		return "", err
	}
	owner, taken, err := Owner(kv, name)
	if err != nil {
		return "", err
	}
	if taken && owner != a {
		return "", fmt.Errorf("%w: %q belongs to another account", ErrTaken, name)
	}
	if err := release(kv, a, previous); err != nil {
		return "", err
	}
	if err := kv.Set(ownerKey(strings.ToLower(name)), a.Bytes()); err != nil {
		return "", fmt.Errorf("claim %q: %w", name, err)
	}
	if err := kv.Set(nameKey(a), []byte(name)); err != nil {
		return "", fmt.Errorf("claim %q: %w", name, err)
	}
	return previous, nil
}

// claimed is a's claimed name, "" if none.
func claimed(kv state.KV, a common.Address) (string, error) {
	name, err := Of(kv, a)
	if err != nil || name == Default(a) {
		return "", err
	}
	return name, nil
}

func release(kv state.KV, a common.Address, previous string) error {
	if previous == "" {
		return nil
	}
	if err := kv.Set(ownerKey(strings.ToLower(previous)), free); err != nil {
		return fmt.Errorf("release %q: %w", previous, err)
	}
	if err := kv.Set(nameKey(a), free); err != nil {
		return fmt.Errorf("release %q: %w", previous, err)
	}
	return nil
}
