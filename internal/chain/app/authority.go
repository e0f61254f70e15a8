package app

import (
	"fmt"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/delegation"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// Who may sign a forge action (own-keys rules, from the upgrade of that
// name): the actor itself, or a key the actor delegated the action's scope
// to, live at this height. Sensitive actions need the actor's own key.
// Before the upgrade, the genesis operators were trusted to name the user
// they acted for (operators.go); blocks of that time replay so.

// Flood bounds, per block: how many forge actions one account may be the
// actor of, and how many one key may sign for others. An honest user
// makes a handful a block and an honest node a few hundred; a flood's
// excess is refused at CheckTx, so it never fills the blocks.
// Node registrations are bounded for the whole chain: a block takes
// MaxRegistrationsPerBlock, whoever signs them.
const (
	MaxActionsPerAccount     = 32
	MaxRelayedPerSigner      = 512
	MaxRegistrationsPerBlock = 16
)

// ownKeys reports whether the own-keys rules apply in kv.
func ownKeys(kv state.Reader) (bool, error) { return upgrade.Done(kv, upgrade.OwnKeys) }

// authorize decides whether t.From may sign t's forge action for t.Actor
// at height and counts it against the flood bounds; it returns the Env
// to apply the action in.
func authorize(kv state.KV, t tx.Tx, height uint64) (forge.Env, error) {
	env := forge.Env{Height: height}
	if t.From != t.Actor && forge.Sensitive(t.Action) {
		return env, tx.NewError(tx.CodeSignatureRequired, "%s needs the actor's own wallet signature: no delegate may do it in their name", t.Action)
	}
	used, err := delegation.Check(kv, t.Actor, t.From, forge.ScopeOf(t.Action), height)
	if err != nil {
		return env, err
	}
	env.Delegated = used != (common.Address{})
	if err := count(kv, "actor", t.Actor, height, MaxActionsPerAccount); err != nil {
		return env, err
	}
	if env.Delegated {
		if err := count(kv, "signer", t.From, height, MaxRelayedPerSigner); err != nil {
			return env, err
		}
	}
	return env, nil
}

// count adds one to who's count of kind at height, refusing past limit.
// The value is (height, count): a new height starts again at one, so the
// state holds one entry per account, not one per block.
func count(kv state.KV, kind string, who common.Address, height uint64, limit uint64) error {
	k := append([]byte("app/limit/"+kind+"/"), who.Bytes()...)
	v, err := kv.Get(k)
	if err != nil {
		return fmt.Errorf("read the %s count of %s: %w", kind, who.Hex(), err)
	}
	n := uint64(0)
	if len(v) == 16 {
		if at, _ := state.ParseUint64(v[:8]); at == height {
			n, _ = state.ParseUint64(v[8:])
		}
	}
	if n >= limit && kind == "register" {
		return tx.NewError(tx.CodeRateLimited, "block %d holds %d node registrations already, the most one block takes; try again in the next block", height, limit)
	}
	if n >= limit {
		return tx.NewError(tx.CodeRateLimited, "%s signed or acted in %d forge actions in block %d already, the most one block takes; try again in the next block", who.Hex(), limit, height)
	}
	return kv.Set(k, append(state.Uint64(height), state.Uint64(n+1)...))
}

// signed adds the signer and the delegation used to the forge event, so
// the record says who signed it.
func signed(ch *forge.Change, t tx.Tx, env forge.Env) {
	ch.Signer = t.From.Hex()
	if env.Delegated {
		ch.Delegation = t.From.Hex()
	}
}

// applyDelegate applies a Delegate: the sender authorizes t.Delegate.
func applyDelegate(_ *App, kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	if err := needOwnKeys(kv, t.Kind); err != nil {
		return nil, err
	}
	scopes, err := delegation.ParseScopes(t.Scopes)
	if err != nil {
		return nil, err
	}
	d, err := delegation.Give(kv, delegation.Delegation{Account: t.From, Delegate: t.Delegate, Scopes: scopes, Expiry: t.Expiry}, uint64(height))
	if err != nil {
		return nil, err
	}
	return []abci.Event{delegation.DelegateEvent(d)}, nil
}

// applyUndelegate applies an Undelegate, signed by the account or by the
// delegate.
func applyUndelegate(_ *App, kv state.KV, t tx.Tx, _ int64) ([]abci.Event, error) {
	if err := needOwnKeys(kv, t.Kind); err != nil {
		return nil, err
	}
	d, err := delegation.Revoke(kv, t.From, t.Account, t.Delegate)
	if err != nil {
		return nil, err
	}
	return []abci.Event{delegation.UndelegateEvent(d, t.From)}, nil
}

func needOwnKeys(kv state.Reader, kind tx.Kind) error {
	on, err := ownKeys(kv)
	if err != nil {
		return err
	}
	if !on {
		return tx.NewError(tx.CodeUnknownType, "%s transactions are enabled by the %s upgrade, which this chain has not reached", kind, upgrade.OwnKeys)
	}
	return nil
}

// Delegations lists account's delegations as of the last finalized block.
func (a *App) Delegations(account common.Address) ([]delegation.Delegation, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return delegation.List(a.state, account)
}

// Delegation is account's delegation to delegate as of the mempool's
// state (committed plus admitted), so a node sees at once the delegation
// a user just signed.
func (a *App) Delegation(account, delegate common.Address) (delegation.Delegation, bool, error) {
	defer a.lockCheck()()
	return delegation.Get(a.checks.overlay, account, delegate)
}

// OwnKeys reports whether the own-keys rules apply as of the last
// committed block.
func (a *App) OwnKeys() (bool, error) {
	defer a.lockCheck()()
	if a.checks.base != nil {
		return ownKeys(a.checks.base)
	}
	return ownKeys(a.state)
}

// Height is the last committed block's height. It takes no lock, so a
// relayer reads it beside a block being executed.
func (a *App) Height() int64 { return a.state.Committed() }

// PrecheckAction says whether actor's own signature would get action
// through, on top of committed state plus the admitted transactions,
// without signing anything: a node asks before it hands a sensitive
// action to the user's wallet, so a malformed one is refused at once.
// The refusal is a *tx.Error.
func (a *App) PrecheckAction(actor common.Address, action, payload string) error {
	defer a.lockCheck()()
	_, err := forge.ApplyChange(state.NewOverlay(a.checks.overlay), forge.Env{Height: uint64(a.checkHeight())}, actor, action, payload)
	return err
}
