package gov

import (
	"errors"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Rule violations; TxError gives each a transaction code.
var (
	ErrInvalid           = errors.New("invalid proposal")
	ErrNotFound          = errors.New("no such proposal")
	ErrClosed            = errors.New("voting on this proposal has ended")
	ErrNoPower           = errors.New("no voting power on this proposal")
	ErrInsufficientStake = errors.New("not enough stake to propose")
	ErrBadDeposit        = errors.New("the deposit does not match the chain's proposal deposit")
)

// TxError gives a governance rule violation its stable transaction code
// (the codes are registered in package tx); any other error comes back as
// it is.
func TxError(err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, ErrNotFound):
		return tx.NewError(tx.CodeNotFound, "%s", msg)
	case errors.Is(err, ErrClosed):
		return tx.NewError(tx.CodeProposalClosed, "%s", msg)
	case errors.Is(err, ErrNoPower):
		return tx.NewError(tx.CodeNoVotingPower, "%s", msg)
	case errors.Is(err, ErrBadDeposit):
		return tx.NewError(tx.CodeBadDeposit, "%s", msg)
	case errors.Is(err, ErrInvalid):
		return tx.NewError(tx.CodeInvalidField, "%s", msg)
	}
	return err
}
