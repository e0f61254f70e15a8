package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/p2p"
)

// The node registry from the command line: `init` and `testnet` put each
// node's entry into the genesis, and `serve` re-registers the node when it
// runs with another URL, peer id or addresses than its entry says.

// nodeURL is the public origin of a node listening on addr: publicURL when
// given, else the one sign-in takes (auth.NewOrigins: http://<addr>, with
// 127.0.0.1 for a loopback or unspecified host).
func nodeURL(publicURL, addr string) (string, error) {
	tcp, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w", addr, err)
	}
	origins, err := auth.NewOrigins(publicURL, nil, tcp)
	if err != nil {
		return "", err
	}
	return origins.Public.String(), nil
}

// genesisNode is the registry entry of the node whose data dir is data:
// url, the peer id of its libp2p key (made now when missing, as the node
// would at its first start) and its libp2p listen addresses (none means
// p2p.DefaultListen).
func genesisNode(data string, operator common.Address, url string, listen []string) (nodes.Node, error) {
	key, err := p2p.LoadKey(node.P2PKeyFile(data))
	if err != nil {
		return nodes.Node{}, err
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nodes.Node{}, fmt.Errorf("peer id of the p2p key: %w", err)
	}
	if len(listen) == 0 {
		listen = []string{p2p.DefaultListen}
	}
	n, err := nodes.Canonical(nodes.Node{Operator: operator, URL: url, PeerID: id.String(), Addrs: listen})
	if err != nil {
		return nodes.Node{}, fmt.Errorf("node registry entry: %w", err)
	}
	return n, nil
}

// runningNode is the entry of the node as it runs: its public origin and
// its IPFS host's peer id and addresses (at most nodes.MaxAddrs, without
// the /p2p/<id> part).
func runningNode(operator common.Address, url string, host *p2p.Node) nodes.Node {
	n := nodes.Node{Operator: operator, URL: url, PeerID: host.PeerID().String()}
	for _, full := range host.Addrs() {
		if transport, _ := peer.SplitAddr(full); transport != nil && len(n.Addrs) < nodes.MaxAddrs {
			n.Addrs = append(n.Addrs, transport.String())
		}
	}
	return n
}

// operatorChain is what the registration needs of the chain.
type operatorChain interface {
	IsOperator(addr common.Address) (bool, error)
}

// syncNodeRegistry registers want, the node as it runs, when its entry in
// the registry says otherwise (the operator changed --addr, --public-url
// or --p2p-listen, or the node is new); a node whose key is not an
// operator's has no entry to keep. It logs rather than fails: the node
// serves either way.
func syncNodeRegistry(ctx context.Context, log *slog.Logger, ch operatorChain, ix *index.Index, svc *forge.Service, want nodes.Node) {
	if ok, err := ch.IsOperator(want.Operator); err != nil || !ok {
		log.Info("not registering this node: its key is not an operator of the chain", "operator", want.Operator.Hex(), "err", err)
		return
	}
	want, err := nodes.Canonical(want)
	if err != nil {
		log.Warn("not registering this node: its address does not suit the node registry; set --public-url", "url", want.URL, "err", err)
		return
	}
	registered, err := ix.Nodes(ctx)
	if err != nil {
		log.Warn("read the node registry", "err", err)
		return
	}
	i := slices.IndexFunc(registered, func(n index.Node) bool { return n.Operator == want.Operator })
	if i >= 0 && sameNode(registered[i], want) {
		return
	}
	if err := registerWithRetry(ctx, svc, want); err != nil {
		if ctx.Err() == nil {
			log.Warn("could not register this node in the node registry", "err", err)
		}
		return
	}
	log.Info("registered this node in the node registry", "url", want.URL, "peer_id", want.PeerID, "addrs", want.Addrs)
}

// registerWithRetry registers want, trying again a few blocks later when
// the chain refused it for the block's bound on registrations (any key
// may register under own-keys, so a flood can fill a block).
func registerWithRetry(ctx context.Context, svc *forge.Service, want nodes.Node) error {
	var err error
	for attempt := range registerAttempts {
		if err = svc.RegisterNode(ctx, want); !errors.Is(err, &tx.Error{Code: tx.CodeRateLimited}) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * time.Second):
		}
	}
	return err
}

const registerAttempts = 10

func sameNode(n index.Node, want nodes.Node) bool {
	return n.URL == want.URL && n.PeerID == want.PeerID && slices.Equal(n.Addrs, want.Addrs)
}

// startNodeRegistration runs syncNodeRegistry beside the serving node (the
// registration waits for a block, which a testnet makes only once enough
// validators are up); stop cancels it and waits for it to end.
func startNodeRegistration(ctx context.Context, log *slog.Logger, ch operatorChain, ix *index.Index, svc *forge.Service, want nodes.Node) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		syncNodeRegistry(ctx, log, ch, ix, svc, want)
	}()
	return func() {
		cancel()
		<-done
	}
}
