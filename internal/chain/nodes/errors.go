package nodes

import (
	"errors"
	"fmt"

	"github.com/dforge/dforge/internal/chain/tx"
)

// ErrInvalid is a registration that breaks the rules; the error names the
// field at fault (see FieldError).
var ErrInvalid = errors.New("invalid node registration")

// FieldError is a rule violation in one field of a registration.
type FieldError struct {
	Field string // "url", "peerId" or "addrs"
	Msg   string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Msg) }
func (e *FieldError) Unwrap() error { return ErrInvalid }

func invalid(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// TxError gives a registration rule violation its stable transaction code,
// naming the field (the codes are registered in package tx); any other
// error comes back as it is.
func TxError(err error) error {
	var fe *FieldError
	if !errors.As(err, &fe) {
		return err
	}
	e := tx.NewError(tx.CodeInvalidField, "field %q %s", fe.Field, fe.Msg)
	e.Field = fe.Field
	return e
}
