// Package usererr is the typed error for mistakes a user or client can make.
// Services return it; the HTTP layer maps its Kind to a status and writes
// {"message","code"} so clients can branch on a stable code.
//
// Build errors with the constructors below rather than struct literals, so
// that each kind keeps its usual code and a new call site reads in one line.
package usererr

import (
	"errors"
	"fmt"
)

// Kind classifies a user error for the transport layer.
type Kind int

const (
	Invalid Kind = iota
	NotFound
	TooLarge        // the request or one of its parts is over a limit (413)
	Unauthenticated // no valid credentials (401)
	Forbidden       // credentials that do not allow this (403)
	Conflict        // the request clashes with the current state (409)
	Unprocessable   // well-formed but failing validation (422)
	Unavailable     // the node cannot complete it now; trying later may (503)
	TooMany         // over a rate limit; trying later will do (429)
)

// Codes that clients branch on and that more than one package returns. A code
// used by one package only is a constant there.
const (
	CodeNotFound     = "not_found"
	CodeForbidden    = "forbidden"
	CodeConflict     = "conflict"
	CodeInvalidField = "invalid_field"
	CodeInvalidText  = "invalid_text"
	CodeTooLarge     = "too_large"
	CodeBodyTooLarge = "body_too_large"
	CodeInvalidJSON  = "invalid_json"
	CodeUnreadable   = "unreadable_body"
	CodeRequired     = "required"
)

// Error is a user-caused failure with a stable code and a readable message.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Field   string // the input field at fault, when there is one
	// Sign is a transaction for the user's own wallet to sign instead,
	// when the node may not do this in their name
	// (wallet_signature_required).
	Sign any
}

func (e *Error) Error() string { return e.Message }

// New returns an error of kind with code and message.
func New(kind Kind, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
}

// Newf is New with a formatted message.
func Newf(kind Kind, code, format string, args ...any) *Error {
	return New(kind, code, fmt.Sprintf(format, args...))
}

// On returns a copy of e that names field as the input at fault.
func (e *Error) On(field string) *Error {
	c := *e
	c.Field = field
	return &c
}

// Missingf is a not_found error: the thing named does not exist or the
// caller may not know that it does.
func Missingf(format string, args ...any) *Error {
	return Newf(NotFound, CodeNotFound, format, args...)
}

// Deniedf is a forbidden error: the caller is known but may not do this.
func Deniedf(format string, args ...any) *Error {
	return Newf(Forbidden, CodeForbidden, format, args...)
}

// Clashf is a conflict error with code: the request clashes with the
// current state.
func Clashf(code, format string, args ...any) *Error {
	return Newf(Conflict, code, format, args...)
}

// BadFieldf is an invalid_field error on field: well-formed input that
// fails validation (422).
func BadFieldf(field, format string, args ...any) *Error {
	return Newf(Unprocessable, CodeInvalidField, format, args...).On(field)
}

// Unprocessablef is a 422 with its own code on field ("" for none).
func Unprocessablef(field, code, format string, args ...any) *Error {
	return Newf(Unprocessable, code, format, args...).On(field)
}

// InvalidField returns an Invalid error about one field.
func InvalidField(field, code, message string) *Error {
	return &Error{Kind: Invalid, Code: code, Message: message, Field: field}
}

// As extracts a *Error from err's chain.
func As(err error) (*Error, bool) {
	var ue *Error
	ok := errors.As(err, &ue)
	return ue, ok
}
