package chainapi

import (
	"context"
	"errors"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/usererr"
)

// submitTimeout bounds how long a relay waits for its block.
const submitTimeout = 30 * time.Second

type chainParams struct {
	ChainID string    `json:"chainId"`
	Token   tokenInfo `json:"token"`
	// UnbondingBlocks is how many blocks unstaked tokens wait before they
	// return to the balance.
	UnbondingBlocks uint64          `json:"unbondingBlocks"`
	EIP712Domain    tx.PublicDomain `json:"eip712Domain"`
	Types           apitypes.Types  `json:"types"`
	// The governance, reward and reputation parameters in force; GET
	// /api/v1/chain/param-docs explains each.
	Gov        params.Gov       `json:"gov"`
	Rewards    params.Rewards   `json:"rewards"`
	Reputation reputationParams `json:"reputation"`
}

// reputationParams are params.Reputation as the API names them.
type reputationParams struct {
	PR               uint64 `json:"pr"`
	Review           uint64 `json:"review"`
	Issue            uint64 `json:"issue"`
	Commit           uint64 `json:"commit"`
	DecayBps         uint64 `json:"decayBps"`
	PerPointBps      uint64 `json:"multiplierPerPointBps"` // the parameter's name in /docs/governance
	MaxMultiplierBps uint64 `json:"maxMultiplierBps"`
}

type tokenInfo struct {
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
}

// RegisterChain adds the chain's parameters, transactions and accounts
// (the chain is present).
func (a *Handler) RegisterChain(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/chain/params", a.Serve(a.getChainParams))
	mux.HandleFunc("POST /api/v1/chain/txs", a.Serve(a.postChainTx))
	mux.HandleFunc("GET /api/v1/accounts/{address}", a.Serve(a.getAccount))
}

func (a *Handler) getChainParams(w http.ResponseWriter, r *http.Request) error {
	p := a.Chain.Params()
	api.WriteJSON(w, http.StatusOK, chainParams{
		ChainID:         tx.ChainIDString(p.ChainID),
		Token:           tokenInfo{Symbol: p.Symbol, Decimals: p.Decimals},
		UnbondingBlocks: p.UnbondingBlocks,
		EIP712Domain:    tx.PublishedDomain(p.ChainID),
		Types:           tx.Types(),
		Gov:             p.Gov,
		Rewards:         p.Rewards,
		Reputation: reputationParams{PR: p.Reputation.PR, Review: p.Reputation.Review, Issue: p.Reputation.Issue, Commit: p.Reputation.Commit,
			DecayBps: p.Reputation.DecayBps, PerPointBps: p.Reputation.PerPointBps, MaxMultiplierBps: p.Reputation.MaxMultiplierBps},
	})
	return nil
}

// postChainTx relays a wallet-signed transaction and answers once it is in a block.
func (a *Handler) postChainTx(w http.ResponseWriter, r *http.Request) error {
	var env tx.Envelope
	if err := api.Decode(w, r, tx.MaxSignedTxBytes, &env); err != nil {
		return err
	}
	if err := a.CheckRelayedSigner(r, env); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), submitTimeout)
	defer cancel()
	res, err := a.Chain.Submit(ctx, env)
	var rejected *tx.Error
	if errors.As(err, &rejected) {
		status, field := refusal(env.Type, rejected)
		api.WriteJSON(w, status, api.ErrorBody{Message: rejected.Message, Code: rejected.Name, Field: field, URL: api.DocsURL(r)})
		return nil
	}
	if errors.Is(err, chain.ErrNotCommitted) || errors.Is(err, chain.ErrCatchingUp) {
		return usererr.New(usererr.Unavailable, "not_committed", err.Error())
	}
	if err != nil {
		return err
	}
	// Answer once SQL shows the block, so a page read right after sees the
	// write. The transaction is committed either way, so a slow index is
	// logged, not reported as a failure.
	if a.Index != nil {
		if err := a.Index.WaitFor(ctx, res.Height); err != nil {
			a.Log.WarnContext(ctx, "committed transaction not indexed in time", "height", res.Height, "err", err)
		}
	}
	api.WriteJSON(w, http.StatusOK, res)
	return nil
}

func (a *Handler) getAccount(w http.ResponseWriter, r *http.Request) error {
	addr, err := pathAddress(r)
	if err != nil {
		return err
	}
	if a.Index != nil {
		acct, err := a.Index.Account(r.Context(), addr)
		return a.Respond(w, r, acct, err)
	}
	acct, err := a.Chain.Account(addr)
	if err != nil {
		return err
	}
	// Hex() is the EIP-55 checksummed form wallets display.
	api.WriteJSON(w, http.StatusOK, map[string]any{
		"address": acct.Address.Hex(), "username": acct.Username, "balance": acct.Balance, "staked": acct.Staked, "unbonding": acct.Unbonding, "nonce": acct.Nonce,
	})
	return nil
}

// refusal is the HTTP status (and the field, when one is to blame) of a
// transaction the chain refused: the bounty and grant refusals say what a
// client must tell apart (404 unknown, 403 not a reviewer, 409 a state
// that already moved on, 422 naming a field); every other refusal is 400.
func refusal(kind string, e *tx.Error) (status int, field string) {
	if status, field, ok := bountyRefusal(kind, e); ok {
		return status, field
	}
	switch e.Code {
	case tx.CodeGrantNotFound:
		return http.StatusNotFound, ""
	case tx.CodeNotReviewer:
		return http.StatusForbidden, ""
	case tx.CodeMilestoneReleased, tx.CodeAlreadyApproved, tx.CodeGrantExpired:
		return http.StatusConflict, ""
	}
	return http.StatusBadRequest, ""
}
