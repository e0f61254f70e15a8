package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/usererr"
)

// submitTimeout bounds how long a relay waits for its block.
const submitTimeout = 30 * time.Second

type chainParams struct {
	ChainID      string          `json:"chainId"`
	Token        tokenInfo       `json:"token"`
	EIP712Domain tx.PublicDomain `json:"eip712Domain"`
	Types        apitypes.Types  `json:"types"`
}

type tokenInfo struct {
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
}

func (a *API) getChainParams(w http.ResponseWriter, r *http.Request) {
	p := a.chain.Params()
	writeJSON(w, http.StatusOK, chainParams{
		ChainID:      tx.ChainIDString(p.ChainID),
		Token:        tokenInfo{Symbol: p.Symbol, Decimals: p.Decimals},
		EIP712Domain: tx.PublishedDomain(p.ChainID),
		Types:        tx.Types(),
	})
}

// postChainTx relays a wallet-signed transaction and answers once it is in a block.
func (a *API) postChainTx(w http.ResponseWriter, r *http.Request) {
	var env tx.Envelope
	if err := decode(w, r, tx.MaxTxBytes, &env); err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), submitTimeout)
	defer cancel()
	res, err := a.chain.Submit(ctx, env)
	var rejected *tx.Error
	if errors.As(err, &rejected) {
		writeJSON(w, http.StatusBadRequest, errorBody{Message: rejected.Message, Code: rejected.Name})
		return
	}
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (a *API) getAccount(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("address")
	if !common.IsHexAddress(raw) {
		a.writeError(w, r, usererr.InvalidField("address", "invalid_address", "address must be 0x followed by 40 hex digits"))
		return
	}
	acct, err := a.chain.Account(common.HexToAddress(raw))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	// Hex() is the EIP-55 checksummed form wallets display.
	writeJSON(w, http.StatusOK, map[string]any{
		"address": acct.Address.Hex(), "balance": acct.Balance, "staked": acct.Staked, "unbonding": acct.Unbonding, "nonce": acct.Nonce,
	})
}
