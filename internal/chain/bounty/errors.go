package bounty

import (
	"errors"

	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Rule violations; TxError gives each its stable code.
var (
	ErrZeroAmount   = errors.New("the amount must be more than zero")
	ErrUnknownIssue = errors.New("no such issue")
	ErrNotIssue     = errors.New("bounties are for issues, not pull requests")
	ErrClosed       = errors.New("the issue is closed and takes no new funding")
	ErrExpiry       = errors.New("the expiry must be a block height above the current one")
	ErrOverflow     = errors.New("the amount would overflow the bounty")
	ErrNoShare      = errors.New("nothing to refund")
	ErrNotExpired   = errors.New("the share has not expired yet")
)

// TxError gives a rule violation its transaction code and names the field
// at fault; ledger errors (insufficient funds) get the ledger's codes.
func TxError(err error) error {
	code, field := uint32(0), ""
	switch {
	case errors.Is(err, ErrZeroAmount):
		code, field = tx.CodeNonPositiveAmount, "amount"
	case errors.Is(err, ErrUnknownIssue):
		code, field = tx.CodeNotFound, "issue"
	case errors.Is(err, ErrNotIssue):
		code, field = tx.CodeBountyNotIssue, "issue"
	case errors.Is(err, ErrClosed):
		code, field = tx.CodeBountyNotOpen, "issue"
	case errors.Is(err, ErrExpiry):
		code, field = tx.CodeInvalidField, "expiry"
	case errors.Is(err, ErrOverflow):
		code, field = tx.CodeInvalidField, "amount"
	case errors.Is(err, ErrNoShare):
		code, field = tx.CodeBountyNoShare, "issue"
	case errors.Is(err, ErrNotExpired):
		code, field = tx.CodeBountyNotExpired, "expiry"
	default:
		return ledger.TxError(err)
	}
	e := tx.NewError(code, "field %q: %s", field, err.Error())
	e.Field = field
	return e
}
