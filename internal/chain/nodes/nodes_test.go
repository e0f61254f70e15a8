package nodes_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/state"
)

const (
	peerID    = "12D3KooWSNhSwoy21BvU28GHxxYobUFZbkQzjQqAR9v7yp4Kmeff"
	peerIDCid = "bafzaajaiaejcb5qdma6jgycqpd5myvpkub7npcg4dt32p2nm26loxfnpodnpiq4w"
	rsaPeerID = "QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N"
)

var operator = common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")

func valid() nodes.Node {
	return nodes.Node{Operator: operator, URL: "https://forge.example.org", PeerID: peerID, Addrs: []string{"/ip4/203.0.113.7/tcp/4101"}}
}

func TestCanonicalAccepts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		change func(*nodes.Node)
		want   func(*nodes.Node)
	}{
		{"as given", func(*nodes.Node) {}, func(*nodes.Node) {}},
		{"http with a port", func(n *nodes.Node) { n.URL = "http://127.0.0.1:3000" }, nil},
		{"IPv6 host", func(n *nodes.Node) { n.URL = "http://[::1]:3000" }, nil},
		{"RSA peer id", func(n *nodes.Node) { n.PeerID = rsaPeerID }, nil},
		{"CIDv1 peer id, stored as base58", func(n *nodes.Node) { n.PeerID = peerIDCid }, func(n *nodes.Node) { n.PeerID = peerID }},
		{"no addresses", func(n *nodes.Node) { n.Addrs = nil }, func(n *nodes.Node) { n.Addrs = []string{} }},
		{"eight addresses of several kinds", func(n *nodes.Node) {
			n.Addrs = []string{"/ip4/1.2.3.4/tcp/1", "/ip4/1.2.3.4/udp/1/quic-v1", "/ip6/::1/tcp/4101", "/dns4/forge.example.org/tcp/4101",
				"/dns6/forge.example.org/tcp/4101", "/dns/forge.example.org/tcp/443/wss", "/ip4/1.2.3.4/tcp/2", "/ip4/1.2.3.4/tcp/3"}
		}, nil},
	} {
		n := valid()
		c.change(&n)
		want := n
		if want.Addrs == nil {
			want.Addrs = []string{}
		}
		if c.want != nil {
			c.want(&want)
		}
		got, err := nodes.Canonical(n)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.URL != want.URL || got.PeerID != want.PeerID || !slices.Equal(got.Addrs, want.Addrs) || got.Addrs == nil {
			t.Errorf("%s: got %+v, want %+v", c.name, got, want)
		}
	}
}

func TestCanonicalRefuses(t *testing.T) {
	t.Parallel()
	many := make([]string, nodes.MaxAddrs+1)
	for i := range many {
		many[i] = "/ip4/1.2.3.4/tcp/" + string(rune('1'+i))
	}
	for _, c := range []struct {
		field  string
		change func(*nodes.Node)
	}{
		{"url", func(n *nodes.Node) { n.URL = "" }},
		{"url", func(n *nodes.Node) { n.URL = "ftp://forge.example.org" }},
		{"url", func(n *nodes.Node) { n.URL = "forge.example.org" }},
		{"url", func(n *nodes.Node) { n.URL = "https://forge.example.org/" }},
		{"url", func(n *nodes.Node) { n.URL = "https://forge.example.org/forge" }},
		{"url", func(n *nodes.Node) { n.URL = "https://forge.example.org?x=1" }},
		{"url", func(n *nodes.Node) { n.URL = "https://forge.example.org#top" }},
		{"url", func(n *nodes.Node) { n.URL = "https://alice@forge.example.org" }},
		{"url", func(n *nodes.Node) { n.URL = "https://forge.example.org:0" }},
		{"url", func(n *nodes.Node) { n.URL = "https://forge.example.org:65536" }},
		{"url", func(n *nodes.Node) { n.URL = "https://forge.example.org:" }},
		{"url", func(n *nodes.Node) { n.URL = "https://:3000" }},
		{"url", func(n *nodes.Node) { n.URL = "HTTPS://forge.example.org" }},
		{"url", func(n *nodes.Node) { n.URL = "https://" + strings.Repeat("a", nodes.MaxURLLen) + ".org" }},
		{"peerId", func(n *nodes.Node) { n.PeerID = "" }},
		{"peerId", func(n *nodes.Node) { n.PeerID = "12D3KooW" }},
		{"peerId", func(n *nodes.Node) { n.PeerID = "not a peer id" }},
		{"peerId", func(n *nodes.Node) { n.PeerID = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi" }}, // a CID, not a libp2p key
		{"addrs", func(n *nodes.Node) { n.Addrs = many }},
		{"addrs", func(n *nodes.Node) { n.Addrs = []string{""} }},
		{"addrs", func(n *nodes.Node) { n.Addrs = []string{"203.0.113.7:4101"} }},
		{"addrs", func(n *nodes.Node) { n.Addrs = []string{"/ip4/999.0.0.1/tcp/1"} }},
		{"addrs", func(n *nodes.Node) { n.Addrs = []string{"/ip4/1.2.3.4/tcp/1", "/ip4/1.2.3.4/tcp/1"} }},
		{"addrs", func(n *nodes.Node) { n.Addrs = []string{"/ip4/1.2.3.4/tcp/1/p2p/" + peerID} }},
		{"addrs", func(n *nodes.Node) { n.Addrs = []string{"/dns4/" + strings.Repeat("a", nodes.MaxAddrLen) + "/tcp/1"} }},
		{"operator", func(n *nodes.Node) { n.Operator = common.Address{} }},
	} {
		n := valid()
		c.change(&n)
		_, err := nodes.Canonical(n)
		var fe *nodes.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !errors.Is(err, nodes.ErrInvalid) || fe.Msg == "" {
			t.Errorf("%+v: got %v, want a rule violation in %s", n, err, c.field)
		}
	}
}

func TestRegisterReplaces(t *testing.T) {
	t.Parallel()
	st := state.OpenMemory()
	if _, ok, err := nodes.Of(st, operator); ok || err != nil {
		t.Fatalf("before any registration: %v %v", ok, err)
	}
	first := valid()
	first.PeerID = peerIDCid
	if _, err := nodes.Register(st, first); err != nil {
		t.Fatal(err)
	}
	got, ok, err := nodes.Of(st, operator)
	if err != nil || !ok || got.PeerID != peerID {
		t.Fatalf("after registering: %+v %v %v", got, ok, err)
	}
	second := nodes.Node{Operator: operator, URL: "http://127.0.0.1:3000", PeerID: rsaPeerID, Addrs: []string{"/ip4/127.0.0.1/tcp/4101"}}
	if _, err := nodes.Register(st, second); err != nil {
		t.Fatal(err)
	}
	got, _, _ = nodes.Of(st, operator)
	if got.URL != second.URL || got.PeerID != second.PeerID || !slices.Equal(got.Addrs, second.Addrs) {
		t.Fatalf("re-registering gave %+v, want %+v", got, second)
	}
	// A refused registration keeps the last one.
	bad := second
	bad.URL = "https://x/y"
	if _, err := nodes.Register(st, bad); err == nil {
		t.Fatal("registered a URL with a path")
	}
	if got, _, _ = nodes.Of(st, operator); got.URL != second.URL {
		t.Fatalf("a refused registration changed the entry: %+v", got)
	}
}

func TestEventRoundTrips(t *testing.T) {
	t.Parallel()
	n, err := nodes.Canonical(valid())
	if err != nil {
		t.Fatal(err)
	}
	got, err := nodes.ParseEvent(nodes.Event(n))
	if err != nil || got.Operator != n.Operator || got.URL != n.URL || got.PeerID != n.PeerID || !slices.Equal(got.Addrs, n.Addrs) {
		t.Fatalf("ParseEvent(Event(%+v)) = %+v, %v", n, got, err)
	}
	if _, err := nodes.ParseEvent(nodes.Event(nodes.Node{})); err == nil {
		t.Fatal("an event without an operator parsed")
	}
}

func TestSplitAddrs(t *testing.T) {
	t.Parallel()
	if got := nodes.SplitAddrs(""); got != nil {
		t.Fatalf("SplitAddrs(\"\") = %q", got)
	}
	if got := nodes.SplitAddrs("/a /b"); !slices.Equal(got, []string{"/a", "/b"}) || nodes.JoinAddrs(got) != "/a /b" {
		t.Fatalf("SplitAddrs = %q", got)
	}
	// Two spaces leave an empty address, which Canonical refuses.
	if got := nodes.SplitAddrs("/a  /b"); len(got) != 3 {
		t.Fatalf("SplitAddrs with two spaces = %q", got)
	}
}
