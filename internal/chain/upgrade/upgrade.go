// Package upgrade is how the chain changes its rules without a new
// genesis. A governance proposal of type upgrade schedules a named
// upgrade at a height; at the start of that block the upgrade is marked
// done, and the rules it names apply from that block's first transaction
// on. Blocks before it replay under the old rules, to the same app
// hashes. A binary that does not know a scheduled upgrade halts at its
// height, naming it, rather than compute a different state.
//
// Modules ask Done(kv, name) for the rules in force: the answer is part of
// the state, so it is the same on every node at every height.
package upgrade

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/dforge/dforge/internal/chain/state"
)

// OwnKeys is the first upgrade: a forge action is valid only when its
// signer is the actor or holds the actor's live delegation for the
// action's scope; sensitive actions need the actor's own signature; any
// key may register a node; default names carry 80 bits of the address.
const OwnKeys = "own-keys"

// SafeURLs makes every URL a record holds on chain an http(s) address:
// an organization's website was only bounded in length, so it could hold
// a javascript: link its page would show.
const SafeURLs = "safe-urls"

// RouteNames reserves the names of the web app's pages that the first
// list missed (issue, pr, roadmap, ...): a user holding one would have a
// profile the app can never show.
const RouteNames = "route-names"

// PendingTransfers makes repo.transfer an offer the new owner accepts or
// rejects (repo.transfer.accept, repo.transfer.reject), as Gitea's pending
// transfers: before it, anyone's repository could be moved onto another
// user without their consent. A transfer into an organization the signer
// may create repositories in stays immediate.
const PendingTransfers = "pending-transfers"

// AppVersion numbers the rules: from it on, the chain's app version (what
// Info tells CometBFT, and every block header's version.app) is 2, and
// each later upgrade moves it up by one, so a block says which rules made
// it and a node can tell a peer on other rules. Before it every chain said
// 1, whatever its upgrades.
const AppVersion = "app-version"

// known lists the upgrades this binary implements, oldest first. A new
// rule change is one more name here and a Done check where it applies.
var known = []string{OwnKeys, SafeURLs, RouteNames, PendingTransfers, AppVersion}

// extra are names a node was told to treat as known with no rule change
// (Allow): how an operator crosses an upgrade whose rules this release
// does not need, and how tests make an "old" and a "new" binary of one.
var extra []string

// Known reports whether this binary implements the upgrade name.
func Known(name string) bool { return slices.Contains(known, name) || slices.Contains(extra, name) }

// All lists the upgrades this binary implements: what a new chain's
// genesis turns on from its first block.
func All() []string { return slices.Clone(known) }

// Allow makes this process treat name as a known upgrade that changes no
// rule. It is set once at start (dforge serve --allow-upgrade).
func Allow(name string) { extra = append(extra, name) }

// Plan is an upgrade scheduled at a height.
type Plan struct {
	Name   string `json:"name"`
	Height uint64 `json:"height"`
}

// MaxNameLen bounds an upgrade's name.
const MaxNameLen = 64

var (
	// ErrInvalid is a plan whose name or height cannot be scheduled.
	ErrInvalid = errors.New("invalid upgrade")
	// ErrUnknown is an upgrade, due now, that this binary does not know.
	ErrUnknown = errors.New("unknown upgrade")
)

var plansKey = []byte("upgrade/plans")

func doneKey(name string) []byte { return append([]byte("upgrade/done/"), name...) }

// ValidName checks an upgrade's name: 1 to MaxNameLen lower-case letters,
// digits and '-'.
func ValidName(name string) error {
	if name == "" || len(name) > MaxNameLen {
		return fmt.Errorf("%w: the name has 1 to %d characters", ErrInvalid, MaxNameLen)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return fmt.Errorf("%w: the name may hold only lower-case letters, digits and '-'", ErrInvalid)
		}
	}
	return nil
}

// Schedule records p, to apply at the start of block p.Height, which must
// be after height (the block scheduling it). A plan of the same name
// replaces the earlier one while neither is done.
func Schedule(kv state.KV, p Plan, height uint64) error {
	if err := ValidName(p.Name); err != nil {
		return err
	}
	if p.Height <= height {
		return fmt.Errorf("%w: height %d has passed (this is block %d)", ErrInvalid, p.Height, height)
	}
	done, err := Done(kv, p.Name)
	if err != nil {
		return err
	}
	if done {
		return fmt.Errorf("%w: %q is applied already", ErrInvalid, p.Name)
	}
	plans, err := Plans(kv)
	if err != nil {
		return err
	}
	plans = slices.DeleteFunc(plans, func(q Plan) bool { return q.Name == p.Name })
	return savePlans(kv, append(plans, p))
}

// Plans lists the scheduled upgrades not yet applied, in the order they
// were scheduled.
func Plans(kv state.Reader) ([]Plan, error) {
	raw, err := kv.Get(plansKey)
	if err != nil || len(raw) == 0 {
		return nil, err
	}
	var plans []Plan
	if err := json.Unmarshal(raw, &plans); err != nil {
		return nil, fmt.Errorf("read upgrade plans: %w", state.ErrCorrupt)
	}
	return plans, nil
}

func savePlans(kv state.KV, plans []Plan) error {
	raw, err := json.Marshal(plans)
	if err != nil {
		return fmt.Errorf("encode upgrade plans: %w", err)
	}
	if len(plans) == 0 {
		raw = []byte("[]") // the store keeps no empty value
	}
	return kv.Set(plansKey, raw)
}

// Done reports whether the upgrade name applies, as of kv.
func Done(kv state.Reader, name string) (bool, error) {
	v, err := kv.Get(doneKey(name))
	if err != nil {
		return false, fmt.Errorf("read upgrade %s: %w", name, err)
	}
	return len(v) > 0, nil
}

// DoneAt is the height upgrade name applied from, or false.
func DoneAt(kv state.Reader, name string) (uint64, bool, error) {
	v, err := kv.Get(doneKey(name))
	if err != nil || len(v) == 0 {
		return 0, false, err
	}
	h, ok := state.ParseUint64(v)
	if !ok {
		return 0, false, fmt.Errorf("read upgrade %s: %w", name, state.ErrCorrupt)
	}
	return h, true, nil
}

// Apply marks name done from height: the genesis (height 0) does so for
// every upgrade a new chain starts with. From app-version on, each one
// moves the app version up by one.
func Apply(kv state.KV, name string, height uint64) error {
	if err := kv.Set(doneKey(name), state.Uint64(height)); err != nil {
		return fmt.Errorf("apply upgrade %s: %w", name, err)
	}
	v, err := Version(kv)
	if err != nil {
		return err
	}
	// The counter is written only once app-version is done: a chain
	// before it keeps the state (and app hashes) it always had.
	if name == AppVersion || v > 1 {
		if err := kv.Set(versionKey, state.Uint64(v+1)); err != nil {
			return fmt.Errorf("apply upgrade %s: %w", name, err)
		}
	}
	return nil
}

var versionKey = []byte("upgrade/app-version")

// Version is the chain's app version: 1 until the app-version upgrade,
// then one more for it and for each upgrade after it.
func Version(kv state.Reader) (uint64, error) {
	v, err := kv.Get(versionKey)
	if err != nil {
		return 0, fmt.Errorf("read the app version: %w", err)
	}
	if len(v) == 0 {
		return 1, nil
	}
	n, ok := state.ParseUint64(v)
	if !ok || n < 2 {
		return 0, fmt.Errorf("read the app version: %w", state.ErrCorrupt)
	}
	return n, nil
}

// BeginBlock applies the plans due at height and returns them. A due plan
// this binary does not know is ErrUnknown, and nothing is applied: the
// node must stop before it computes a state the upgraded nodes would not.
func BeginBlock(kv state.KV, height uint64) ([]Plan, error) {
	plans, err := Plans(kv)
	if err != nil || len(plans) == 0 {
		return nil, err
	}
	var due, rest []Plan
	for _, p := range plans {
		if p.Height == height {
			due = append(due, p)
		} else {
			rest = append(rest, p)
		}
	}
	if len(due) == 0 {
		return nil, nil
	}
	for _, p := range due {
		if !Known(p.Name) {
			return nil, fmt.Errorf("%w: the chain upgrades to %q at height %d, which this dforge release does not implement; install a release that knows %q and start the node again", ErrUnknown, p.Name, p.Height, p.Name)
		}
	}
	for _, p := range due {
		if err := Apply(kv, p.Name, height); err != nil {
			return nil, err
		}
	}
	return due, savePlans(kv, rest)
}
