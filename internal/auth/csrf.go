package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// CSRFHeader carries the CSRF token on writes made with the session cookie.
const CSRFHeader = "X-CSRF-Token"

// csrfToken derives a session's CSRF token from its secret id, so it needs
// no storage, differs per session, and only a holder of the cookie's value
// (the server) can compute it: a page on another site that makes the
// browser send the cookie cannot read or guess it.
func csrfToken(sessionSecret string) string {
	mac := hmac.New(sha256.New, []byte(sessionSecret))
	mac.Write([]byte("dforge csrf v1"))
	return hex.EncodeToString(mac.Sum(nil))
}

func validCSRF(sessionSecret, got string) bool {
	return got != "" && hmac.Equal([]byte(csrfToken(sessionSecret)), []byte(got))
}
