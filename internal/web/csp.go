package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// The app's pages run under a strict Content-Security-Policy: a script
// that got into a page (through a rendering bug, say) could neither run
// inline nor load from elsewhere, nor send what it read anywhere but this
// node and the origins named here.
//
// No 'unsafe-inline' anywhere: index.html loads its module script and
// styles from files, and React applies style={{...}} through the CSSOM
// (element.style), which CSP does not govern, so no style attribute needs
// allowing. Images are the node's own, data: (wallet icons, QR codes) and
// blob: (previews); there are no third-party avatars.
var basePolicy = []string{
	"default-src 'self'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self' data: blob:",
	"", // connect-src, per request
	"worker-src 'self'",
	"manifest-src 'self'",
	"frame-ancestors 'none'",
	"base-uri 'self'",
	"form-action 'self'",
	"object-src 'none'",
}

// policy is the page's Content-Security-Policy; connect lists the origins
// besides this one the app may call: the error reporter and the other
// nodes it asks about a repository's replicas.
func policy(connect []string) string {
	parts := append([]string(nil), basePolicy...)
	parts[4] = strings.Join(append([]string{"connect-src 'self'"}, connect...), " ")
	return strings.Join(parts, "; ")
}

// withPolicy sets the policy on the app's answers (pages and their
// files); sources, when set, adds origins to connect-src at each request.
func withPolicy(static []string, sources func(context.Context) []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		connect := static
		if sources != nil {
			connect = append(append([]string(nil), static...), sources(r.Context())...)
		}
		w.Header().Set("Content-Security-Policy", policy(connect))
		next.ServeHTTP(w, r)
	})
}

// Origin is the http(s) origin of rawURL as a policy source
// ("https://host:port"), or "" when it has none. The URL comes from the
// chain or the environment: nothing but a scheme, a host and a port gets
// into the header.
func Origin(rawURL string) string {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	if strings.Trim(strings.ToLower(u.Host), "abcdefghijklmnopqrstuvwxyz0123456789.-:[]") != "" {
		return ""
	}
	return u.Scheme + "://" + strings.ToLower(u.Host)
}
