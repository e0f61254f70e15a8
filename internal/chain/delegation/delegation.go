// Package delegation is the chain module of delegations: a user
// authorizes another key (a node's relayer key, a bot's) to sign forge
// actions in their name, for some scopes, until a block height. The state
// machine checks every relayed forge action against them, so no node can
// act for a user who did not delegate to it. Sensitive actions are never
// delegated. The module owns its state keys, events and codes, and is
// pure: it reads and writes only the store it is given.
package delegation

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// The scopes, Gitea's token categories, so that a personal access token's
// scopes and the delegation it acts under line up.
const (
	ScopeRepository   = "repository"
	ScopeIssue        = "issue"
	ScopeOrganization = "organization"
	ScopeUser         = "user"
	ScopeNotification = "notification"
	ScopeMisc         = "misc"
)

// Scopes lists every scope, sorted: the canonical order of a delegation's.
var Scopes = []string{ScopeIssue, ScopeMisc, ScopeNotification, ScopeOrganization, ScopeRepository, ScopeUser}

// MaxBlocks bounds how far ahead a delegation may expire: about a year of
// 6-second blocks. A lost session key stays dangerous no longer.
const MaxBlocks = 5_300_000

// Delegation is one account's authority given to a delegate.
type Delegation struct {
	Account  common.Address `json:"account"`
	Delegate common.Address `json:"delegate"`
	Scopes   []string       `json:"scopes"`
	// Expiry is the first height at which the delegation no longer holds.
	Expiry uint64 `json:"expiry"`
	// Since is the height it was given (or last renewed).
	Since uint64 `json:"since"`
}

// Live reports whether d holds at height for scope.
func (d Delegation) Live(height uint64, scope string) bool {
	return height < d.Expiry && slices.Contains(d.Scopes, scope)
}

// ParseScopes reads a comma-separated scope list ("issue,repository") into
// its canonical form: known names, each once, sorted.
func ParseScopes(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, tx.NewError(tx.CodeInvalidScope, "a delegation needs at least one scope of %s", strings.Join(Scopes, ", "))
	}
	var out []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(Scopes, name) {
			return nil, tx.NewError(tx.CodeInvalidScope, "unknown scope %q: the scopes are %s", name, strings.Join(Scopes, ", "))
		}
		if slices.Contains(out, name) {
			return nil, tx.NewError(tx.CodeInvalidScope, "the scope %q is listed twice", name)
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out, nil
}

func key(account, delegate common.Address) []byte {
	k := append([]byte("delegation/"), account.Bytes()...)
	return append(k, delegate.Bytes()...)
}

// revoked marks a key whose delegation was dropped; the store has no delete.
var revoked = []byte{0}

// Get returns account's delegation to delegate, or false.
func Get(kv state.Reader, account, delegate common.Address) (Delegation, bool, error) {
	v, err := kv.Get(key(account, delegate))
	if err != nil {
		return Delegation{}, false, fmt.Errorf("read delegation of %s to %s: %w", account.Hex(), delegate.Hex(), err)
	}
	if len(v) <= 1 {
		return Delegation{}, false, nil
	}
	var d Delegation
	if err := json.Unmarshal(v, &d); err != nil {
		return Delegation{}, false, fmt.Errorf("read delegation of %s to %s: %w", account.Hex(), delegate.Hex(), state.ErrCorrupt)
	}
	return d, true, nil
}

// Give records account's delegation to delegate (replacing an earlier
// one) at height. The scopes must be canonical (ParseScopes).
func Give(kv state.KV, d Delegation, height uint64) (Delegation, error) {
	switch {
	case d.Delegate == (common.Address{}):
		return d, tx.NewError(tx.CodeInvalidField, "field \"delegate\" is the zero address, which no key signs for")
	case d.Delegate == d.Account:
		return d, tx.NewError(tx.CodeInvalidField, "field \"delegate\" is the account itself, which needs no delegation")
	case d.Expiry <= height:
		return d, tx.NewError(tx.CodeDelegationExpired, "the expiry %d has passed: this is block %d", d.Expiry, height)
	case d.Expiry-height > MaxBlocks:
		return d, tx.NewError(tx.CodeInvalidField, "field \"expiry\" is more than %d blocks ahead", MaxBlocks)
	case len(d.Scopes) == 0:
		return d, tx.NewError(tx.CodeInvalidScope, "a delegation needs at least one scope")
	}
	d.Since = height
	raw, err := json.Marshal(d)
	if err != nil {
		return d, fmt.Errorf("encode delegation: %w", err)
	}
	return d, kv.Set(key(d.Account, d.Delegate), raw)
}

// Revoke drops account's delegation to delegate. Only the account or the
// delegate may; by is who signed.
func Revoke(kv state.KV, by, account, delegate common.Address) (Delegation, error) {
	if by != account && by != delegate {
		return Delegation{}, tx.NewError(tx.CodeNotDelegator, "%s is neither the account nor the delegate of this delegation", by.Hex())
	}
	d, ok, err := Get(kv, account, delegate)
	if err != nil {
		return d, err
	}
	if !ok {
		return d, tx.NewError(tx.CodeNotFound, "%s has no delegation to %s", account.Hex(), delegate.Hex())
	}
	return d, kv.Set(key(account, delegate), revoked)
}

// Check says whether signer may sign an action of scope for actor at
// height: itself, or under actor's live delegation. It returns the
// delegation used (the zero address when self-signed) or a *tx.Error
// with CodeNotDelegated.
func Check(kv state.Reader, actor, signer common.Address, scope string, height uint64) (common.Address, error) {
	if signer == actor {
		return common.Address{}, nil
	}
	d, ok, err := Get(kv, actor, signer)
	if err != nil {
		return common.Address{}, err
	}
	switch {
	case !ok:
		return common.Address{}, tx.NewError(tx.CodeNotDelegated, "%s has not delegated to %s: sign in on that node, or sign the action with your own wallet", actor.Hex(), signer.Hex())
	case height >= d.Expiry:
		return common.Address{}, tx.NewError(tx.CodeNotDelegated, "the delegation of %s to %s expired at block %d: sign in again", actor.Hex(), signer.Hex(), d.Expiry)
	case !slices.Contains(d.Scopes, scope):
		return common.Address{}, tx.NewError(tx.CodeNotDelegated, "the delegation of %s to %s does not cover the %s scope", actor.Hex(), signer.Hex(), scope)
	}
	return signer, nil
}

// List returns account's delegations, live or expired, not revoked, in
// the order of their delegates' addresses.
func List(kv state.Scanner, account common.Address) ([]Delegation, error) {
	var out []Delegation
	prefix := append([]byte("delegation/"), account.Bytes()...)
	err := kv.Scan(prefix, func(_, v []byte) error {
		if len(v) <= 1 {
			return nil
		}
		var d Delegation
		if err := json.Unmarshal(v, &d); err != nil {
			return fmt.Errorf("read delegation: %w", state.ErrCorrupt)
		}
		out = append(out, d)
		return nil
	})
	return out, err
}

// Event types, projected by the index.
const (
	EventDelegate   = "Delegate"
	EventUndelegate = "Undelegate"
)

// DelegateEvent records a delegation given.
func DelegateEvent(d Delegation) abci.Event {
	return abci.Event{Type: EventDelegate, Attributes: []abci.EventAttribute{
		{Key: "account", Value: d.Account.Hex(), Index: true},
		{Key: "delegate", Value: d.Delegate.Hex(), Index: true},
		{Key: "scopes", Value: strings.Join(d.Scopes, ",")},
		{Key: "expiry", Value: fmt.Sprint(d.Expiry)},
		{Key: "since", Value: fmt.Sprint(d.Since)},
	}}
}

// UndelegateEvent records a delegation dropped by by.
func UndelegateEvent(d Delegation, by common.Address) abci.Event {
	return abci.Event{Type: EventUndelegate, Attributes: []abci.EventAttribute{
		{Key: "account", Value: d.Account.Hex(), Index: true},
		{Key: "delegate", Value: d.Delegate.Hex(), Index: true},
		{Key: "by", Value: by.Hex()},
	}}
}
