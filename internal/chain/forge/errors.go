package forge

import (
	"fmt"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Error helpers: every rejection is a *tx.Error with a stable code.
func notFound(format string, args ...any) error { return tx.NewError(tx.CodeNotFound, format, args...) }
func forbidden(format string, args ...any) error {
	return tx.NewError(tx.CodeForbidden, format, args...)
}
func conflict(format string, args ...any) error { return tx.NewError(tx.CodeConflict, format, args...) }
func invalid(field, format string, args ...any) error {
	return tx.NewError(tx.CodeInvalidField, "field %q %s", field, fmt.Sprintf(format, args...))
}
