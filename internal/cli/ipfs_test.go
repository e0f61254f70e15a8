package cli

import (
	"strings"
	"testing"
)

func TestServeIPFSFlags(t *testing.T) {
	peer := "/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA"
	t.Setenv("DFORGE_IPFS_PEERS", peer)
	t.Setenv("DFORGE_P2P_LISTEN", "")
	cfg, err := parseServe(nil)
	if err != nil || len(cfg.IPFSListen) != 0 || strings.Join(cfg.IPFSPeers, " ") != peer {
		t.Fatalf("env: %+v %v", cfg, err)
	}
	cfg, err = parseServe([]string{"--p2p-listen", "/ip4/127.0.0.1/tcp/4500", "--ipfs-peer", peer, "--ipfs-peer", peer})
	if err != nil || strings.Join(cfg.IPFSListen, " ") != "/ip4/127.0.0.1/tcp/4500" || len(cfg.IPFSPeers) != 2 {
		t.Fatalf("flags: %+v %v", cfg, err)
	}
	for _, bad := range [][]string{{"--ipfs-peer", "/ip4/127.0.0.1/tcp/4001"}, {"--ipfs-peer", "127.0.0.1:4001"}, {"--p2p-listen", "127.0.0.1:4101"}} {
		if _, err := parseServe(bad); err == nil {
			t.Errorf("parseServe(%q) accepted it", bad)
		}
	}
}
