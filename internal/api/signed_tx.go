package api

import (
	"encoding/base64"
	"net/http"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/usererr"
)

// SignedTxHeader carries a transaction the user's own wallet signed for
// the request's action: the Forge transaction a 403
// wallet_signature_required answer offered, base64 of its JSON envelope.
// Sent again with it, the request does what it asked, side effects and
// answer included, under the user's own signature.
const SignedTxHeader = "X-Dforge-Signed-Tx"

// withSignedTx puts the header's transaction in the request's context
// for the forge service; a malformed one is a 400.
func withSignedTx(r *http.Request) (*http.Request, error) {
	raw := r.Header.Get(SignedTxHeader)
	if raw == "" {
		return r, nil
	}
	b, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return r, usererr.BadFieldf(SignedTxHeader, "the %s header must be the base64 of a signed transaction's JSON", SignedTxHeader)
	}
	env, err := tx.Decode(b)
	if err != nil {
		return r, usererr.BadFieldf(SignedTxHeader, "the %s header does not hold a transaction: %v", SignedTxHeader, err)
	}
	return r.WithContext(forge.WithSigned(r.Context(), env)), nil
}

// CheckRelayedSigner refuses a wallet-signed transaction whose signer (or,
// for a forge action, whose actor) this node's moderators suspended; a
// transaction that does not verify is left for the chain to refuse.
func (a *API) CheckRelayedSigner(r *http.Request, env tx.Envelope) error {
	if a.Mod == nil {
		return nil
	}
	t, err := tx.Verify(env, a.Chain.Params().ChainID)
	if err != nil {
		return nil
	}
	for _, addr := range []common.Address{t.From, t.Actor} {
		if addr == (common.Address{}) {
			continue
		}
		if err := a.Mod.CheckWriter(r.Context(), addr); err != nil {
			return err
		}
	}
	return nil
}
