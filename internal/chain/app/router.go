package app

import (
	"errors"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
)

// applyOn routes a verified transaction to the module that owns its type.
// Every transaction first consumes its sender's nonce, so a replay fails.
func (a *App) applyOn(kv ledger.KV, t tx.Tx) ([]abci.Event, error) {
	if err := ledger.UseNonce(kv, t.From, t.Nonce); err != nil {
		return nil, ledgerError(err)
	}
	switch t.Kind {
	case tx.KindTransfer, tx.KindTip:
		if err := ledger.Transfer(kv, t.From, t.To, t.Amount); err != nil {
			return nil, ledgerError(err)
		}
		return []abci.Event{transferEvent(t)}, nil
	default:
		// Staking and the treasury land with the rest of the chain milestone.
		return nil, tx.NewError(tx.CodeUnknownType, "%s transactions are not enabled on this chain yet", t.Kind)
	}
}

func transferEvent(t tx.Tx) abci.Event {
	attrs := []abci.EventAttribute{
		{Key: "from", Value: t.From.Hex(), Index: true},
		{Key: "to", Value: t.To.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(t.Amount, 10)},
	}
	if t.Target != "" {
		attrs = append(attrs, abci.EventAttribute{Key: "target", Value: t.Target, Index: true})
	}
	return abci.Event{Type: string(t.Kind), Attributes: attrs}
}

// ledgerError gives a ledger rule violation its stable transaction code.
func ledgerError(err error) error {
	switch {
	case errors.Is(err, ledger.ErrBadNonce):
		return tx.NewError(tx.CodeBadNonce, "%s", err.Error())
	case errors.Is(err, ledger.ErrInsufficientFunds):
		return tx.NewError(tx.CodeInsufficientFunds, "the sender's balance is too low for this amount")
	case errors.Is(err, ledger.ErrNonPositive):
		return tx.NewError(tx.CodeNonPositiveAmount, "the amount must be greater than zero")
	case errors.Is(err, ledger.ErrOverflow):
		return tx.NewError(tx.CodeInvalidField, "the amount would overflow the recipient's balance")
	default:
		return err
	}
}
