// Package nodes is the chain module of the node registry: for each
// operator, the node it runs, as it last registered it: the public HTTP
// URL people and other nodes reach it at, and the libp2p peer id and
// addresses its IPFS host (bitswap) listens on, which replicas fetch git
// objects from. A registration replaces the operator's previous one. The
// module is pure: it reads and writes only the store it is given.
package nodes

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/chain/state"
)

// Node is one operator's registered node.
type Node struct {
	Operator common.Address `json:"operator"`
	// URL is the node's origin: http(s)://host[:port], no path.
	URL string `json:"url"`
	// PeerID is the libp2p peer id in its base58 form (12D3KooW...).
	PeerID string `json:"peerId"`
	// Addrs are the libp2p multiaddrs, without /p2p/<peer id>.
	Addrs []string `json:"addrs"`
}

// Bounds of a registration. The transaction format bounds the raw fields
// too (tx.MaxNodeURLLen, ...); these are the module's rules.
const (
	MaxURLLen  = 256
	MaxAddrs   = 8
	MaxAddrLen = 200
)

// Canonical checks n against the rules and returns it in canonical form:
// the peer id as base58 and each address as go-multiaddr prints it, so
// every node stores and compares the same strings.
func Canonical(n Node) (Node, error) {
	if n.Operator == (common.Address{}) {
		return n, invalid("operator", "is the zero address")
	}
	if err := CheckURL(n.URL); err != nil {
		return n, err
	}
	id, err := ParsePeerID(n.PeerID)
	if err != nil {
		return n, err
	}
	addrs, err := ParseAddrs(n.Addrs)
	if err != nil {
		return n, err
	}
	return Node{Operator: n.Operator, URL: n.URL, PeerID: id, Addrs: addrs}, nil
}

// CheckURL accepts an origin: http or https, a host, an optional port from
// 1 to 65535, and nothing else (no user, path, query or fragment; not
// even a trailing "/"), written as Go's url package writes it back.
func CheckURL(s string) error {
	const want = "must be an origin such as https://forge.example.org or http://203.0.113.7:3000"
	if s == "" || len(s) > MaxURLLen {
		return invalid("url", "must be 1 to %d bytes", MaxURLLen)
	}
	u, err := url.Parse(s)
	if err != nil {
		return invalid("url", "%s", want)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return invalid("url", "%s: the scheme is http or https", want)
	case u.Opaque != "" || u.User != nil || u.Hostname() == "":
		return invalid("url", "%s", want)
	case u.Path != "" || u.RawPath != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return invalid("url", "%s, with no path, query or fragment (not even a trailing /)", want)
	case u.String() != s:
		return invalid("url", "%s, written as %q", want, u.String())
	}
	if p := u.Port(); p != "" || strings.HasSuffix(u.Host, ":") {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 || strconv.FormatUint(n, 10) != p {
			return invalid("url", "has port %q; a port is 1 to 65535", p)
		}
	}
	return nil
}

// ParsePeerID reads a libp2p peer id, as a base58btc multihash
// (12D3KooW..., Qm...) or a CIDv1 (bafz...), and returns its base58 form.
func ParsePeerID(s string) (string, error) {
	if s == "" {
		return "", invalid("peerId", "is empty; give the node's libp2p peer id (12D3KooW...)")
	}
	id, err := peer.Decode(s)
	if err != nil {
		return "", invalid("peerId", "is not a libp2p peer id (12D3KooW... or a CIDv1): %v", err)
	}
	return id.String(), nil
}

// ParseAddrs reads up to MaxAddrs multiaddrs, distinct, each at most
// MaxAddrLen bytes, and returns them as go-multiaddr writes them. A
// /p2p/<peer id> part is left out: the peer id is its own field.
func ParseAddrs(addrs []string) ([]string, error) {
	if len(addrs) > MaxAddrs {
		return nil, invalid("addrs", "lists %d addresses; the most is %d", len(addrs), MaxAddrs)
	}
	out := make([]string, 0, len(addrs))
	for _, s := range addrs {
		if s == "" || len(s) > MaxAddrLen {
			return nil, invalid("addrs", "holds an address that is empty or longer than %d bytes", MaxAddrLen)
		}
		a, err := multiaddr.NewMultiaddr(s)
		if err != nil {
			return nil, invalid("addrs", "%q is not a multiaddr such as /ip4/203.0.113.7/tcp/4101: %v", s, err)
		}
		for _, c := range a {
			if c.Code() == multiaddr.P_P2P {
				return nil, invalid("addrs", "%q names a peer (/p2p/...); give the address alone, the peer id is its own field", s)
			}
		}
		canonical := a.String()
		if slices.Contains(out, canonical) {
			return nil, invalid("addrs", "lists %q twice", canonical)
		}
		out = append(out, canonical)
	}
	return out, nil
}

// SplitAddrs reads a transaction's addrs field: multiaddrs separated by
// single spaces; "" is none.
func SplitAddrs(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

// JoinAddrs is the inverse of SplitAddrs.
func JoinAddrs(addrs []string) string { return strings.Join(addrs, " ") }

func nodeKey(a common.Address) []byte { return append([]byte("nodes/node/"), a.Bytes()...) }

// Register checks n and records it as its operator's node, replacing the
// previous registration. It returns the node as recorded (canonical). That
// the operator is one is for the caller to check.
func Register(kv state.KV, n Node) (Node, error) {
	n, err := Canonical(n)
	if err != nil {
		return n, err
	}
	if err := state.SetJSON(kv, nodeKey(n.Operator), n); err != nil {
		return n, fmt.Errorf("register node of %s: %w", n.Operator.Hex(), err)
	}
	return n, nil
}

// Of is the node operator registered, if any.
func Of(kv state.KV, operator common.Address) (Node, bool, error) {
	var n Node
	ok, err := state.GetJSON(kv, nodeKey(operator), &n)
	if err != nil {
		return Node{}, false, fmt.Errorf("read node of %s: %w", operator.Hex(), err)
	}
	return n, ok, nil
}
