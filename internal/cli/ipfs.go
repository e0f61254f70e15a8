package cli

import (
	"fmt"

	"github.com/multiformats/go-multiaddr"

	"github.com/dforge/dforge/internal/p2p"
)

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
