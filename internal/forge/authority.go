package forge

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/usererr"
)

// Authority (own-keys rules): the node relays a user's public action only
// under the user's live delegation to its operator key, which the user
// signs at sign-in; a sensitive action it hands back for the user's
// wallet to sign. The chain decides either way; asking first gives the
// user a clear answer instead of a refused transaction.

// Codes of the refusals a client branches on.
const (
	// CodeNotDelegated (401): the user's delegation to this node is
	// missing, expired or revoked; signing in again renews it.
	CodeNotDelegated = "not_delegated"
	// CodeSignatureRequired (403): the action needs the user's own
	// signature; the answer's "sign" holds the transaction to sign.
	CodeSignatureRequired = "wallet_signature_required"
)

// checkAuthority refuses an action the chain would refuse for want of
// authority, before anything is signed.
func (s *Service) checkAuthority(ctx context.Context, actor common.Address, action, payload string) error {
	on, err := s.ownKeysApply()
	if err != nil || !on {
		return err
	}
	if chainforge.Sensitive(action) {
		// Refuse what would fail anyway before asking for a signature.
		if err := s.chain.PrecheckAction(actor, action, payload); err != nil {
			return rejection(err)
		}
		return s.signatureRequired(actor, action, payload)
	}
	d, ok, err := s.chain.Delegation(actor, s.operator)
	if err != nil {
		return fmt.Errorf("read the delegation of %s: %w", actor.Hex(), err)
	}
	if scope := chainforge.ScopeOf(action); !ok || !d.Live(s.chain.Height()+1, scope) {
		return notDelegated()
	}
	return nil
}

// ownKeysApply says whether the chain runs the own-keys rules. An applied
// upgrade is never undone, so once it has, the answer is kept and the
// chain's lock is not taken again for it on every action.
func (s *Service) ownKeysApply() (bool, error) {
	if s.ownKeys.Load() {
		return true, nil
	}
	on, err := s.chain.OwnKeys()
	if on {
		s.ownKeys.Store(true)
	}
	return on, err
}

func notDelegated() error {
	return usererr.New(usererr.Unauthenticated, CodeNotDelegated,
		"this node may no longer act for you: your authorization expired or was revoked; sign in again to renew it")
}

// signatureRequired is the refusal of a sensitive action, carrying the
// Forge transaction the user's wallet signs instead (POST /api/v1/chain/txs).
func (s *Service) signatureRequired(actor common.Address, action, payload string) error {
	nonce, err := s.chain.PendingNonce(actor)
	if err != nil {
		return fmt.Errorf("read the nonce of %s: %w", actor.Hex(), err)
	}
	e := usererr.New(usererr.Forbidden, CodeSignatureRequired,
		"this action needs your own wallet's signature: no node may do it in your name")
	e.Sign = map[string]any{"type": string(tx.KindForge), "message": map[string]any{
		"from": actor.Hex(), "actor": actor.Hex(), "action": action, "payload": payload, "nonce": strconv.FormatUint(nonce, 10),
	}}
	return e
}

// signedKey carries a transaction the user's wallet signed for the
// request's action (the X-Dforge-Signed-Tx header).
type signedKey struct{}

// WithSigned returns ctx carrying env: the request's action, signed by
// the user's own wallet, which the service submits instead of relaying
// one of its own (sensitive actions; any action a user prefers to sign).
func WithSigned(ctx context.Context, env tx.Envelope) context.Context {
	return context.WithValue(ctx, signedKey{}, env)
}

// submitSigned submits the user's own signed transaction for the action
// the request asked for; one for anything else is refused, so a signature
// can never be spent on what the user did not ask.
func (s *Service) submitSigned(ctx context.Context, env tx.Envelope, actor common.Address, action, payload string) (*chain.Pending, uint64, error) {
	t, err := tx.Verify(env, s.chain.Params().ChainID)
	if err != nil {
		return nil, 0, rejection(err)
	}
	if t.Kind != tx.KindForge || t.From != actor || t.Actor != actor || t.Action != action || t.Payload != payload {
		return nil, 0, usererr.BadFieldf("X-Dforge-Signed-Tx", "the signed transaction is not this request's action by you: sign the transaction the node offered")
	}
	pending, err := s.chain.Broadcast(ctx, env)
	if err != nil {
		return nil, 0, s.authorityRefusal(err, actor, action, payload)
	}
	return pending, t.Nonce, nil
}

// authorityRefusal turns the chain's refusal of a sensitive change it
// alone could recognise (an Owners team's members) into the same answer.
func (s *Service) authorityRefusal(err error, actor common.Address, action, payload string) error {
	if errors.Is(err, &tx.Error{Code: tx.CodeSignatureRequired}) {
		return s.signatureRequired(actor, action, payload)
	}
	return rejection(err)
}
