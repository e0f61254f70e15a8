package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/p2p"
)

// startIPFS runs the node's libp2p host over its blockstore, with the key
// kept in <data>/p2p/key so the peer id outlives restarts. The default
// port is fixed, so the address a node gives its peers stays valid; when
// it is taken (another node on this machine: a testnet, a test) the node
// listens on a free port instead and says so. A port asked for is never
// swapped.
func startIPFS(ctx context.Context, cfg ServeConfig, bs *blocks.Store, log *slog.Logger) (*p2p.Node, error) {
	listen, peers, err := ipfsAddrs(cfg)
	if err != nil {
		return nil, err
	}
	key, err := p2p.LoadKey(p2pKeyFile(cfg.DataDir))
	if err != nil {
		return nil, err
	}
	pc := p2p.Config{ListenAddrs: listen, Key: key, Peers: peers, Blockstore: bs.Blockstore(), Log: log}
	// Close stops the host; the serve context ends before in-flight
	// requests do, and the gateway may still be fetching for them.
	ctx = context.WithoutCancel(ctx)
	n, err := p2p.Start(ctx, pc)
	if errors.Is(err, p2p.ErrListen) && len(cfg.IPFSListen) == 0 {
		log.Warn("the default IPFS port is taken; listening on a free one", "default", p2p.DefaultListen, "err", err)
		pc.ListenAddrs = []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")}
		n, err = p2p.Start(ctx, pc)
	}
	if err != nil {
		return nil, fmt.Errorf("start the IPFS node: %w", err)
	}
	addrs := make([]string, 0, len(n.Addrs()))
	for _, a := range n.Addrs() {
		addrs = append(addrs, a.String())
	}
	log.Info("ipfs node listening", "peer_id", n.PeerID().String(), "addrs", addrs, "peers", len(peers))
	return n, nil
}

// ipfsAddrs parses the IPFS listen and peer addresses of cfg.
func ipfsAddrs(cfg ServeConfig) (listen, peers []multiaddr.Multiaddr, err error) {
	for _, s := range cfg.IPFSListen {
		a, err := multiaddr.NewMultiaddr(s)
		if err != nil {
			return nil, nil, fmt.Errorf("--p2p-listen %q: %w", s, err)
		}
		listen = append(listen, a)
	}
	for _, s := range cfg.IPFSPeers {
		a, err := p2p.ParsePeer(s)
		if err != nil {
			return nil, nil, fmt.Errorf("--ipfs-peer: %w", err)
		}
		peers = append(peers, a)
	}
	return listen, peers, nil
}
