// Package names is the chain module for usernames. Every account has a
// default name derived from its address ("user-" and 20 hex digits since
// the own-keys upgrade, 12 before it: DefaultIn); an account may claim another name
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
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// MaxLen is the longest username, as on GitHub.
const MaxLen = 39

// defaultPrefix starts every default name; the rest is hex from the
// address: 20 digits (80 bits) since the own-keys upgrade, 12 before it.
// 48 bits could be ground in hours to take over another wallet's name;
// 80 cannot.
const (
	defaultPrefix = "user-"
	defaultHexLen = 20
	legacyHexLen  = 12
)

// Default is the name an account has until it claims one, on a chain past
// the own-keys upgrade (every new chain): "user-" and the first twenty hex
// digits of its address, in lower case. Off-chain code names accounts
// with it; the state machine asks DefaultIn, which knows the rules in
// force.
func Default(a common.Address) string { return defaultOf(a, defaultHexLen) }

// LegacyDefault is the default name before the own-keys upgrade: "user-"
// and the first twelve hex digits. Only chains made before the upgrade
// hold it, until they cross it.
func LegacyDefault(a common.Address) string { return defaultOf(a, legacyHexLen) }

func defaultOf(a common.Address, digits int) string {
	return defaultPrefix + strings.ToLower(a.Hex()[2:2+digits])
}

// DefaultIn is a's default name under the rules in force in kv: Default
// once the own-keys upgrade applies, LegacyDefault before, so that old
// blocks replay to the same state.
func DefaultIn(kv state.Reader, a common.Address) (string, error) {
	wide, err := upgrade.Done(kv, upgrade.OwnKeys)
	if err != nil {
		return "", fmt.Errorf("default name of %s: %w", a.Hex(), err)
	}
	if wide {
		return Default(a), nil
	}
	return LegacyDefault(a), nil
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

// routeNames are pages of the web app the reserved list missed, reserved
// from the route-names upgrade on (before it, blocks that claimed one
// replay as they ran, and its holder keeps it).
var routeNames = []string{
	"ambassadors", "code-examples", "integrations", "issue", "leaderboard", "license", "partners", "pr",
	"press", "repository", "roadmap", "tutorials", "whitepaper",
}

// rules are the naming rules in force: which upgrades have applied.
type rules struct {
	wide   bool // own-keys: default names carry 20 hex digits
	routes bool // route-names: routeNames are reserved
}

// Validate checks a name against the forge's rules (Gitea's): 1 to MaxLen
// letters, digits, '-', '_' and '.', starting and ending with a letter or
// digit, with no two of '-', '_', '.' in a row, not ending in ".git" and
// not reserved. Names shaped like a default name, old or new, are refused
// too: they belong to addresses.
func Validate(name string) error {
	return validate(name, rules{wide: true, routes: true})
}

// ValidateIn is Validate under the rules in force in kv: before the
// own-keys upgrade only the old default shape was refused, and blocks of
// that time must replay as they ran.
func ValidateIn(kv state.Reader, name string) error {
	wide, err := upgrade.Done(kv, upgrade.OwnKeys)
	if err != nil {
		return fmt.Errorf("validate username: %w", err)
	}
	routes, err := upgrade.Done(kv, upgrade.RouteNames)
	if err != nil {
		return fmt.Errorf("validate username: %w", err)
	}
	return validate(name, rules{wide: wide, routes: routes})
}

func validate(name string, r rules) error {
	if err := checkShape(name); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	lower := strings.ToLower(name)
	if slices.Contains(reserved, lower) || r.routes && slices.Contains(routeNames, lower) || strings.HasSuffix(lower, ".git") {
		return fmt.Errorf("%w: %q is used by the forge itself", ErrReserved, name)
	}
	if looksDefault(lower, legacyHexLen) || r.wide && looksDefault(lower, defaultHexLen) {
		return fmt.Errorf("%w: names of the form user-<12 or 20 hex digits> are the default names of addresses", ErrReserved)
	}
	return nil
}

// IsDefaultShape reports whether name has the shape of a default name (the
// wide one, or the legacy one): such a name belongs to an address, and no
// account can claim it.
func IsDefaultShape(name string) bool {
	lower := strings.ToLower(name)
	return looksDefault(lower, defaultHexLen) || looksDefault(lower, legacyHexLen)
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

func looksDefault(lower string, digits int) bool {
	hex, ok := strings.CutPrefix(lower, defaultPrefix)
	if !ok || len(hex) != digits {
		return false
	}
	return strings.IndexFunc(hex, func(r rune) bool { return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') }) < 0
}

// free marks a key whose name or owner was released; the store has no
// delete, and an empty value is not allowed.
var free = []byte{0}

func ownerKey(lower string) []byte    { return append([]byte("names/owner/"), lower...) }
func nameKey(a common.Address) []byte { return append([]byte("names/name/"), a.Bytes()...) }

// Of is a's current username: the claimed one, else its default under the
// rules in force (DefaultIn).
func Of(kv state.KV, a common.Address) (string, error) {
	name, err := claimed(kv, a)
	if err != nil || name != "" {
		return name, err
	}
	return DefaultIn(kv, a)
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
// returns ("" when a had only its default). Claiming a's default name (the
// one in force, DefaultIn) gives up the claimed name. A change of case of
// one's own name is a claim too.
func Claim(kv state.KV, a common.Address, name string) (string, error) {
	previous, err := claimed(kv, a)
	if err != nil {
		return "", err
	}
	def, err := DefaultIn(kv, a)
	if err != nil {
		return "", err
	}
	if strings.EqualFold(name, def) {
		return previous, release(kv, a, previous)
	}
	if err := ValidateIn(kv, name); err != nil {
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

// claimed is a's claimed name, "" if none. It is read as stored, not
// compared with a default: a name claimed before own-keys that happens to
// have the wide default's shape stays a claimed name, released like any.
func claimed(kv state.Reader, a common.Address) (string, error) {
	v, err := kv.Get(nameKey(a))
	if err != nil {
		return "", fmt.Errorf("read username of %s: %w", a.Hex(), err)
	}
	if v == nil || len(v) == len(free) && v[0] == 0 {
		return "", nil
	}
	return string(v), nil
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
