package chainapi

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/delegation"
)

// Delegations (own-keys rules): the node relays a user's forge actions
// only under their delegation to its operator key. Sign-in asks the
// wallet for it (a second signature: the chain checks EIP-712 typed data
// only, and a SIWE text in consensus would put a second verifier and a
// text parser in the state machine); settings list and revoke them.

// DelegationBlocks is how long a sign-in's delegation lasts: about 30
// days of 6-second blocks, a session's lifetime.
const DelegationBlocks = 432_000

// RegisterDelegations serves the delegation routes; they need the chain
// and the forge service (the operator key).
func (a *Handler) RegisterDelegations(mux *http.ServeMux) {
	if a.Chain == nil || a.Forge == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/user/delegation", a.SignedIn(auth.ScopeRead, a.getDelegationRequest))
	mux.HandleFunc("GET /api/v1/user/delegations", a.SignedIn(auth.ScopeRead, a.listDelegations))
}

// delegationRequest is the Delegate message a signed-in user's wallet
// signs to let this node act for them; Needed is false while a live one
// with every scope has more than half its time left.
type delegationRequest struct {
	Needed   bool           `json:"needed"`
	Delegate string         `json:"delegate"`
	Scopes   string         `json:"scopes"`
	Expiry   uint64         `json:"expiry"`
	Message  map[string]any `json:"message"`
}

func (a *Handler) getDelegationRequest(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	operator := a.Forge.Operator()
	height := a.Chain.Height()
	d, ok, err := a.Chain.Delegation(id.User.Address, operator)
	if err != nil {
		return err
	}
	nonce, err := a.Chain.PendingNonce(id.User.Address)
	if err != nil {
		return err
	}
	scopes := strings.Join(delegation.Scopes, ",")
	expiry := height + DelegationBlocks
	fresh := ok && len(d.Scopes) == len(delegation.Scopes) && d.Expiry > height+DelegationBlocks/2
	api.WriteNoStore(w, http.StatusOK, delegationRequest{
		Needed: !fresh, Delegate: operator.Hex(), Scopes: scopes, Expiry: expiry,
		Message: map[string]any{
			"from": id.User.Address.Hex(), "delegate": operator.Hex(), "scopes": scopes,
			"expiry": strconv.FormatUint(expiry, 10), "nonce": strconv.FormatUint(nonce, 10),
		},
	})
	return nil
}

// delegationJSON is one of the user's delegations as settings list it.
type delegationJSON struct {
	Delegate  string    `json:"delegate"`
	Node      *nodeLink `json:"node"`
	Scopes    []string  `json:"scopes"`
	Since     uint64    `json:"since"`
	SinceTime string    `json:"sinceTime,omitempty"`
	Expiry    uint64    `json:"expiry"`
	Live      bool      `json:"live"`
	ThisNode  bool      `json:"thisNode"`
}

type nodeLink struct {
	URL string `json:"url"`
}

func (a *Handler) listDelegations(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	list, err := a.Chain.Delegations(id.User.Address)
	if err != nil {
		return err
	}
	urls := map[common.Address]string{}
	if a.Index != nil {
		registered, err := a.Index.Nodes(r.Context())
		if err != nil {
			return err
		}
		for _, n := range registered {
			urls[n.Operator] = n.URL
		}
	}
	height := a.Chain.Height()
	out := make([]delegationJSON, len(list))
	for i, d := range list {
		out[i] = delegationJSON{
			Delegate: d.Delegate.Hex(), Scopes: d.Scopes, Since: d.Since, Expiry: d.Expiry,
			Live: d.Expiry > height+1, ThisNode: d.Delegate == a.Forge.Operator(),
		}
		if u, ok := urls[d.Delegate]; ok {
			out[i].Node = &nodeLink{URL: u}
		}
		if a.Index != nil && d.Since > 0 {
			if b, err := a.Index.Block(r.Context(), int64(d.Since)); err == nil {
				out[i].SinceTime = b.Time
			}
		}
	}
	api.WriteNoStore(w, http.StatusOK, out)
	return nil
}
