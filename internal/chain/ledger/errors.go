package ledger

import (
	"errors"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Rule violations a transaction can cause; TxError gives each its code.
var (
	ErrBadNonce          = errors.New("nonce does not match the account's next nonce")
	ErrInsufficientFunds = errors.New("balance is too low for this amount")
	ErrNonPositive       = errors.New("amount must be greater than zero")
	ErrOverflow          = errors.New("amount would overflow the balance")
	// ErrInsufficientStake is an unstake of more than the account has staked.
	ErrInsufficientStake = errors.New("the amount is more than the account has staked")
)

// errCorrupt reports totals that disagree with per-account amounts, which
// only a bug or a damaged store can cause.
var errCorrupt = errors.New("ledger totals are inconsistent")

// TxError gives a ledger rule violation its stable transaction code (the
// codes are registered in package tx); any other error comes back as it is.
func TxError(err error) error {
	switch {
	case errors.Is(err, ErrBadNonce):
		return tx.NewError(tx.CodeBadNonce, "%s", err.Error())
	case errors.Is(err, ErrInsufficientStake):
		return tx.NewError(tx.CodeInsufficientFunds, "%s", err.Error())
	case errors.Is(err, ErrInsufficientFunds):
		return tx.NewError(tx.CodeInsufficientFunds, "the sender's balance is too low for this amount")
	case errors.Is(err, ErrNonPositive):
		return tx.NewError(tx.CodeNonPositiveAmount, "the amount must be greater than zero")
	case errors.Is(err, ErrOverflow):
		return tx.NewError(tx.CodeInvalidField, "the amount would overflow the recipient's balance")
	default:
		return err
	}
}
