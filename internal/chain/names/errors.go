package names

import (
	"errors"
	"strings"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Rule violations a claim can cause; TxError gives each its code.
var (
	ErrInvalid  = errors.New("invalid username")
	ErrTaken    = errors.New("username is taken")
	ErrReserved = errors.New("username is reserved")
)

// TxError gives a username rule violation its stable transaction code (the
// codes are registered in package tx); any other error comes back as it is.
func TxError(err error) error {
	switch {
	case errors.Is(err, ErrTaken):
		return tx.NewError(tx.CodeUsernameTaken, "that username is taken by another account; choose another")
	case errors.Is(err, ErrInvalid), errors.Is(err, ErrReserved):
		return tx.NewError(tx.CodeInvalidField, "%s", strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "))
	default:
		return err
	}
}
