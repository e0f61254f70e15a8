package auth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Origin is a web origin: a scheme and an authority (host[:port]).
type Origin struct {
	Scheme string // "http" or "https"
	Host   string // host[:port]
}

func (o Origin) String() string { return o.Scheme + "://" + o.Host }

// Origins are the web origins this node answers to. They come from the
// operator's configuration only (--public-url, --allowed-origin, the
// listen address), never from a request: a phishing site that has a
// wallet sign a message for its own domain, then posts it with its own
// Host header, must not get a session here.
type Origins struct {
	// Public is the origin in the links the node makes (clone URLs) and
	// the one whose scheme decides whether cookies are Secure.
	Public Origin
	// Allowed are further origins sign-in accepts: a dev proxy, another
	// name of the same node.
	Allowed []Origin
}

// ParseOrigin reads an origin written as http(s)://host[:port], with no
// path, query or credentials.
func ParseOrigin(s string) (Origin, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" {
		return Origin{}, fmt.Errorf("origin %q: want http(s)://host[:port] with no path", s)
	}
	return Origin{Scheme: u.Scheme, Host: strings.ToLower(u.Host)}, nil
}

// NewOrigins builds the node's origins. publicURL may be empty: the node
// then is http://<listen addr>, and a loopback or wildcard listen address
// also answers to its other loopback names (localhost, 127.0.0.1, [::1]),
// which are the same machine. A wildcard address (0.0.0.0, ::) has no
// public name of its own: the operator names it with --public-url.
func NewOrigins(publicURL string, allowed []string, listen net.Addr) (Origins, error) {
	var o Origins
	for _, a := range allowed {
		origin, err := ParseOrigin(a)
		if err != nil {
			return Origins{}, fmt.Errorf("allowed origin: %w", err)
		}
		o.Allowed = append(o.Allowed, origin)
	}
	if publicURL != "" {
		public, err := ParseOrigin(publicURL)
		if err != nil {
			return Origins{}, fmt.Errorf("public URL: %w", err)
		}
		o.Public = public
		return o, nil
	}
	tcp, ok := listen.(*net.TCPAddr)
	if !ok {
		return Origins{}, fmt.Errorf("listen address %v: no --public-url and not a TCP address", listen)
	}
	port := fmt.Sprint(tcp.Port)
	if !tcp.IP.IsLoopback() && !tcp.IP.IsUnspecified() {
		o.Public = Origin{Scheme: "http", Host: net.JoinHostPort(tcp.IP.String(), port)}
		return o, nil
	}
	loopback := []string{"127.0.0.1", "localhost", "::1"}
	if tcp.IP.To4() == nil && tcp.IP.IsLoopback() {
		loopback = []string{"::1", "localhost", "127.0.0.1"}
	}
	o.Public = Origin{Scheme: "http", Host: net.JoinHostPort(loopback[0], port)}
	for _, h := range loopback[1:] {
		o.Allowed = append(o.Allowed, Origin{Scheme: "http", Host: net.JoinHostPort(h, port)})
	}
	return o, nil
}

// accepts reports whether sign-in accepts a message for host (and, when
// the message names one, scheme), returning the origin it matched.
func (o Origins) accepts(scheme, host string) (Origin, bool) {
	for _, c := range append([]Origin{o.Public}, o.Allowed...) {
		if c.Host != "" && strings.EqualFold(c.Host, host) && (scheme == "" || strings.EqualFold(c.Scheme, scheme)) {
			return c, true
		}
	}
	return Origin{}, false
}

// names lists the accepted origins, for the refusal's message and log.
func (o Origins) names() []string {
	var out []string
	for _, c := range append([]Origin{o.Public}, o.Allowed...) {
		if c.Host != "" {
			out = append(out, c.String())
		}
	}
	return out
}

type originsKey struct{}

// WithOrigins makes o the origins of every request through next.
func WithOrigins(next http.Handler, o Origins) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), originsKey{}, o)))
	})
}

// OriginsOf returns the node's configured origins. A handler built
// without WithOrigins has none, and sign-in then accepts no message.
func OriginsOf(r *http.Request) Origins {
	o, _ := r.Context().Value(originsKey{}).(Origins)
	return o
}

// OriginOf is the node's public origin, for links and cookie flags. Only a
// handler built without WithOrigins (some tests) falls back to the
// connection and its Host; sign-in never uses this fallback.
func OriginOf(r *http.Request) Origin {
	if o := OriginsOf(r); o.Public.Host != "" {
		return o.Public
	}
	if r.TLS != nil {
		return Origin{Scheme: "https", Host: r.Host}
	}
	return Origin{Scheme: "http", Host: r.Host}
}
