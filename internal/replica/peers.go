package replica

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
)

// Peer is another dForge node whose git server this node fetches from.
type Peer struct {
	Operator common.Address // zero when not known (a peer named by URL alone)
	URL      string         // the node's base URL, e.g. https://forge.example.org
}

// Peers lists the dForge nodes to fetch from: the on-chain node registry,
// a static list, or both.
type Peers interface {
	Peers(ctx context.Context) ([]Peer, error)
}

// StaticPeers is a fixed list.
type StaticPeers []Peer

// Peers returns the list.
func (s StaticPeers) Peers(context.Context) ([]Peer, error) { return s, nil }

// Registry is the on-chain node registry (*index.Index).
type Registry interface {
	Nodes(ctx context.Context) ([]index.Node, error)
}

// RegistryPeers are the nodes the registry lists.
func RegistryPeers(reg Registry) Peers { return registryPeers{reg} }

type registryPeers struct{ reg Registry }

func (p registryPeers) Peers(ctx context.Context) ([]Peer, error) {
	nodes, err := p.reg.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Peer, 0, len(nodes))
	for _, n := range nodes {
		if n.URL != "" {
			out = append(out, Peer{Operator: n.Operator, URL: n.URL})
		}
	}
	return out, nil
}

// PeerList joins several sources; a failing one is skipped while others answer.
type PeerList []Peers

// Peers returns every source's peers, in order.
func (l PeerList) Peers(ctx context.Context) ([]Peer, error) {
	var out []Peer
	var firstErr error
	for _, src := range l {
		ps, err := src.Peers(ctx)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		out = append(out, ps...)
	}
	if len(out) == 0 {
		return nil, firstErr
	}
	return out, nil
}

// orderPeers puts first the nodes whose operators relayed the updates to
// bring (the newest update's first: that node moved its refs before the
// chain recorded them), then the others as listed, without this node and
// without repeats.
func orderPeers(peers []Peer, todo []index.ChainRef, self common.Address) []Peer {
	updates := slices.Clone(todo)
	slices.SortFunc(updates, func(a, b index.ChainRef) int { return cmp.Compare(b.Update, a.Update) })
	rank := map[common.Address]int{}
	for _, u := range updates {
		if _, seen := rank[u.Relayer]; !seen && u.Relayer != (common.Address{}) {
			rank[u.Relayer] = len(rank)
		}
	}
	out := make([]Peer, 0, len(peers))
	seen := map[string]bool{}
	for _, p := range peers {
		key := strings.TrimRight(p.URL, "/")
		if p.URL == "" || seen[key] || (self != (common.Address{}) && p.Operator == self) {
			continue
		}
		seen[key] = true
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b Peer) int {
		ra, oka := rank[a.Operator]
		rb, okb := rank[b.Operator]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return out
}

// repoURL is where peer serves owner's repository name over smart HTTP,
// or, for a peer named by an absolute path (tests, with "file" among
// protocols), its bare repository on disk. Peer URLs come from the chain,
// so only the allowed schemes pass, and never anything git could read as
// an option.
func repoURL(peer, owner, name, protocols string) (string, error) {
	u, err := url.Parse(strings.TrimRight(peer, "/"))
	if err != nil {
		return "", fmt.Errorf("peer URL %q: %w", peer, err)
	}
	scheme := u.Scheme
	if scheme == "" {
		scheme = "file"
		if !strings.HasPrefix(u.Path, "/") {
			return "", fmt.Errorf("peer URL %q is neither http(s) nor an absolute path", peer)
		}
	}
	if !slices.Contains(strings.Split(protocols, ":"), scheme) {
		return "", fmt.Errorf("peer URL %q: git fetches over %s only", peer, protocols)
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.JoinPath(owner, name+".git").String(), nil
}
