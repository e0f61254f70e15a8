// Package usererr is the typed error for mistakes a user or client can make.
// Services return it; the HTTP layer maps its Kind to a status and writes
// {"message","code"} so clients can branch on a stable code.
package usererr

import "errors"

// Kind classifies a user error for the transport layer.
type Kind int

const (
	Invalid Kind = iota
	NotFound
	TooLarge
	Unauthenticated // no valid credentials (401)
	Forbidden       // credentials that do not allow this (403)
	Conflict        // the request clashes with the current state (409)
	Unprocessable   // well-formed but failing validation (422)
	Unavailable     // the node cannot complete it now; trying later may (503)
)

// Error is a user-caused failure with a stable code and a readable message.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Field   string // the input field at fault, when there is one
}

func (e *Error) Error() string { return e.Message }

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
