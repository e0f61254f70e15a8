package api

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"unicode/utf8"

	"github.com/getsentry/sentry-go"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/usererr"
)

// ErrorBody is the shape of every API error.
type ErrorBody struct {
	Message string `json:"message"`
	Code    string `json:"code"`
	// URL is the API's documentation, as Gitea's errors give it.
	URL   string `json:"url"`
	Field string `json:"field,omitempty"`
	// Sign is the transaction to sign with the user's wallet instead
	// (code wallet_signature_required): {type, message}.
	Sign any `json:"sign,omitempty"`
}

func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// Endpoint is the one shape of every route: it writes the answer, or
// returns the error that is the answer (see serve).
type Endpoint func(w http.ResponseWriter, r *http.Request) error

// Serve adapts h to net/http, the one adapter every route goes through: an
// error h returns, before it writes anything, is answered by writeError.
func (a *API) Serve(h Endpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// An answer to a signed-in request may hold what only that user
		// can read (a private repository, their own settings): the client's
		// offline cache keeps nothing marked private. A handler may still
		// set a stricter rule (no-store).
		if auth.IdentityFrom(r.Context()) != nil {
			w.Header().Set("Cache-Control", "private")
		}
		if err := checkTokenScope(r); err != nil {
			a.writeError(w, r, err)
			return
		}
		r, err := withSignedTx(r)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		r = a.withUserIDs(r)
		if err := h(w, r); err != nil {
			a.writeError(w, r, err)
		}
	}
}

// Reply writes v as the 200 answer; it returns nil so that a handler can
// end with it.
func Reply(w http.ResponseWriter, v any) error {
	WriteJSON(w, http.StatusOK, v)
	return nil
}

// WriteNoStore writes v as JSON that no cache may keep: secrets and session
// details.
func WriteNoStore(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Cache-Control", "no-store")
	WriteJSON(w, status, v)
}

var statusOf = map[usererr.Kind]int{
	usererr.Invalid:  http.StatusBadRequest,
	usererr.NotFound: http.StatusNotFound,
	usererr.TooLarge: http.StatusRequestEntityTooLarge,

	usererr.Unauthenticated: http.StatusUnauthorized,
	usererr.Forbidden:       http.StatusForbidden,
	usererr.Conflict:        http.StatusConflict,
	usererr.Unprocessable:   http.StatusUnprocessableEntity,
	usererr.Unavailable:     http.StatusServiceUnavailable,
	usererr.TooMany:         http.StatusTooManyRequests,
}

// writeError answers a user error with its status and code; anything else is
// the server's fault: logged, reported, and answered without internals.
func (a *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if ue, ok := usererr.As(err); ok {
		WriteJSON(w, statusOf[ue.Kind], ErrorBody{Message: ue.Message, Code: ue.Code, Field: ue.Field, Sign: ue.Sign, URL: DocsURL(r)})
		return
	}
	a.Log.ErrorContext(r.Context(), "request failed", slog.String("path", r.URL.Path), slog.Any("err", err))
	if hub := sentry.GetHubFromContext(r.Context()); hub != nil {
		hub.CaptureException(err)
	} else {
		sentry.CaptureException(err)
	}
	WriteJSON(w, http.StatusInternalServerError, ErrorBody{Message: "the server could not complete the request; please try again", Code: "internal", URL: DocsURL(r)})
}

// DocsURL is the page that documents the API (Gitea's errors point to its
// swagger page).
func DocsURL(r *http.Request) string {
	return SiteURL(r) + "/docs/api"
}

// Decode reads a JSON body of at most limit bytes into v, whose strings
// may hold no control characters but tab, newline and carriage return.
func Decode(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return usererr.New(usererr.TooLarge, usererr.CodeBodyTooLarge, "request body is too large")
	}
	if err != nil {
		return usererr.New(usererr.Invalid, usererr.CodeUnreadable, "request body could not be read")
	}
	// Unmarshal would quietly turn invalid UTF-8 into U+FFFD.
	if !utf8.Valid(body) {
		return usererr.Unprocessablef("", usererr.CodeInvalidText, "request body is not valid UTF-8")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return decodeError(err)
	}
	return checkBodyText(v)
}

func decodeError(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return usererr.InvalidField(typeErr.Field, "invalid_type", typeErr.Field+" has the wrong type")
	}
	return usererr.New(usererr.Invalid, usererr.CodeInvalidJSON, "request body must be a JSON object")
}
