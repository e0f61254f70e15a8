package app

import (
	"errors"
	"fmt"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/rewards"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Operators are the keys nodes relayed forge actions with before the
// own-keys upgrade: fixed at genesis, trusted to name the user they acted
// for (never to bypass the rules). From that upgrade on they gate nothing:
// authority comes from the users' own keys (authority.go).

func operatorKey(a common.Address) []byte { return append([]byte("app/operator/"), a.Bytes()...) }

func initOperators(kv state.KV, ops []common.Address) error {
	for _, op := range ops {
		if err := kv.Set(operatorKey(op), []byte{1}); err != nil {
			return fmt.Errorf("genesis operator %s: %w", op.Hex(), err)
		}
	}
	return nil
}

func isOperator(kv state.KV, a common.Address) (bool, error) {
	v, err := kv.Get(operatorKey(a))
	if err != nil {
		return false, fmt.Errorf("read operator %s: %w", a.Hex(), err)
	}
	return len(v) == 1 && v[0] == 1, nil
}

// IsOperator reports whether a is an operator as of the last finalized block.
func (a *App) IsOperator(addr common.Address) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return isOperator(a.state, addr)
}

// PendingNonce is the nonce the next transaction from addr must carry to
// enter the mempool: the committed nonce plus the transactions of addr
// already admitted. A relayer signing several transactions ahead of the
// blocks numbers them from here.
func (a *App) PendingNonce(addr common.Address) (uint64, error) {
	defer a.lockCheck()()
	return ledger.Nonce(a.checks.overlay, addr)
}

// applyForge applies a Forge transaction: signed by the actor or a key it
// delegated to (own-keys rules, authority.go), or, on a chain that has
// not reached that upgrade, by a genesis operator.
func (a *App) applyForge(kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	on, err := ownKeys(kv)
	if err != nil {
		return nil, err
	}
	env, err := a.forgeEnv(kv, t, uint64(height), on)
	if err != nil {
		return nil, err
	}
	ch, err := forge.ApplyChange(kv, env, t.Actor, t.Action, t.Payload)
	var te *tx.Error
	if errors.As(err, &te) {
		return nil, actionFailure{te}
	}
	if err != nil {
		return nil, err
	}
	if on {
		signed(&ch, t, env)
	}
	events := []abci.Event{ch.Event()}
	// A merge that closes issues pays their bounties to the pull
	// request's author, in this same transaction.
	paid, err := payBounties(kv, ch, uint64(height))
	if err != nil {
		return nil, err
	}
	events = append(events, paid...)
	// The state machine mints the rewards of the work the action accepted.
	outcomes, err := rewards.Grant(kv, a.params, uint64(height), TreasuryAddress, ch.Contributions)
	if err != nil {
		return nil, err
	}
	for _, o := range outcomes {
		events = append(events, rewards.Events(o, TreasuryAddress)...)
		// Reputation earned raises the contributor's voting power at once.
		if err := gov.Refresh(kv, a.params.Reputation, o.Account, uint64(height)); err != nil {
			return nil, err
		}
	}
	return events, nil
}

// forgeEnv decides who may sign t under the rules in force (on: the
// own-keys rules).
func (a *App) forgeEnv(kv state.KV, t tx.Tx, height uint64, on bool) (forge.Env, error) {
	if on && a.forgeAll {
		return forge.Env{Height: height}, nil
	}
	if on {
		// A refusal here is the action's, with the signer's nonce right:
		// in a block it still uses the nonce (deliver), so a relayer
		// whose delegation lapsed between CheckTx and the block is not
		// stranded behind a nonce gap; CheckTx refuses it outright.
		env, err := authorize(kv, t, height)
		var te *tx.Error
		if errors.As(err, &te) {
			return env, actionFailure{te}
		}
		return env, err
	}
	ok, err := isOperator(kv, t.From)
	if err != nil {
		return forge.Env{}, err
	}
	if !ok {
		return forge.Env{}, tx.NewError(tx.CodeNotOperator, "%s is not an operator of this chain: forge actions are relayed only by the operator keys its genesis lists", t.From.Hex())
	}
	return forge.Env{Height: height}, nil
}

// actionFailure is a forge action the module refused, from an operator
// whose nonce was right: the one failure that still uses the nonce.
type actionFailure struct{ err *tx.Error }

func (f actionFailure) Error() string { return f.err.Error() }
func (f actionFailure) Unwrap() error { return f.err }

func isActionFailure(err error) bool {
	var f actionFailure
	return errors.As(err, &f)
}

// isStateFailure says whether err is an action failure that comes from the
// state the action met (another action took the name or moved the ref
// first), not from the action itself: on another node, or in another
// order, the same action may apply.
func isStateFailure(err error) bool {
	var f actionFailure
	if !errors.As(err, &f) {
		return false
	}
	switch f.err.Code {
	case tx.CodeNotFound, tx.CodeForbidden, tx.CodeConflict, tx.CodeNameTaken, tx.CodeProtectedBranch, tx.CodeStaleRef,
		tx.CodeTopicLocked:
		return true
	}
	return false
}

// EventNonceUsed is the one event of a failed transaction that still used
// its sender's nonce (a refused forge action).
const EventNonceUsed = "NonceUsed"

func nonceUsedEvent(t tx.Tx) abci.Event {
	return abci.Event{Type: EventNonceUsed, Attributes: []abci.EventAttribute{{Key: "from", Value: t.From.Hex(), Index: true}}}
}

// ForgeRefs lists a public repository's refs as of the last finalized
// block: the values pushes committed, which every node's git follows.
func (a *App) ForgeRefs(repo uint64) ([]forge.Ref, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return forge.Refs(a.state, repo)
}
