package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/p2p"
	"github.com/dforge/dforge/internal/replica"
)

// P2PKeyFile is where a data dir keeps the libp2p key, so the node's peer
// id outlives restarts.
func P2PKeyFile(data string) string { return filepath.Join(data, "p2p", "key") }

// startIPFS runs the node's libp2p host over its blockstore, with the key
// kept in P2PKeyFile. The default port is fixed, so the address a node
// gives its peers stays valid; when it is taken (another node on this
// machine: a testnet, a test) the node listens on a free port instead and
// says so. A port asked for is never swapped.
func startIPFS(ctx context.Context, dataDir string, cfg IPFSConfig, bs *blocks.Store, log *slog.Logger) (*p2p.Node, error) {
	key, err := p2p.LoadKey(P2PKeyFile(dataDir))
	if err != nil {
		return nil, fmt.Errorf("load the p2p key: %w", err)
	}
	pc := p2p.Config{ListenAddrs: cfg.Listen, Key: key, Peers: cfg.Peers, Blockstore: bs.Blockstore(), Log: log}
	// Close stops the host; the serve context ends before in-flight
	// requests do, and the gateway may still be fetching for them.
	ctx = context.WithoutCancel(ctx)
	n, err := p2p.Start(ctx, pc)
	if errors.Is(err, p2p.ErrListen) && len(cfg.Listen) == 0 {
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
	log.Info("ipfs node listening", "peer_id", n.PeerID().String(), "addrs", addrs, "peers", len(cfg.Peers))
	return n, nil
}

// startReplica runs the replicator in the background: the public
// repositories the policy seeds, brought to the chain's refs from the
// nodes the registry lists (the relaying one first), else over bitswap.
// stop cancels it and waits for its workers.
func startReplica(ctx context.Context, policy replica.Policy, operator common.Address, ix *index.Index, git *gitstore.Store,
	hosting *gitrepos.Repos, bs *blocks.Store, ipfs *p2p.Node, log *slog.Logger, reg prometheus.Registerer, synced func(id uint64)) (rep *replica.Replicator, stop func()) {
	rep = replica.New(replica.Config{
		Chain: ix, Git: git, Dirs: hosting, Blocks: bs, Bitswap: ipfs,
		Peers: replica.RegistryPeers(ix), Self: operator, Policy: policy, Log: log, Metrics: reg, Synced: synced,
	})
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		rep.Run(ctx)
	}()
	log.Info("replicating public repositories", "seed", policy.String())
	return rep, func() {
		cancel()
		<-done
	}
}

// startRegistryPeers keeps the IPFS host connected to the other nodes the
// registry lists, so bitswap can fetch from them what their git URLs do
// not serve: it reads the registry at start and each time the index's
// height moves, and hands each new or changed entry to the host, whose
// peering service redials it with backoff. stop cancels it and waits for
// it to end.
func startRegistryPeers(ctx context.Context, log *slog.Logger, ix *index.Index, host *p2p.Node) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		known := map[string]string{} // peer id -> the addresses it was given with
		for ctx.Err() == nil {
			h := ix.Height()
			connectRegistry(ctx, log, ix, host, known)
			if err := ix.WaitFor(ctx, h+1); err != nil {
				select { // a stalled index answers at once; do not spin on it
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// connectRegistry dials the registered nodes that are not in known with
// the addresses they list now, this one aside.
func connectRegistry(ctx context.Context, log *slog.Logger, ix *index.Index, host *p2p.Node, known map[string]string) {
	registered, err := ix.Nodes(ctx)
	if err != nil {
		if ctx.Err() == nil {
			log.Warn("read the node registry for IPFS peers", "err", err)
		}
		return
	}
	for _, n := range registered {
		addrs := strings.Join(n.Addrs, " ")
		if n.PeerID == host.PeerID().String() || known[n.PeerID] == addrs {
			continue
		}
		known[n.PeerID] = addrs
		info, err := registryPeer(n)
		if err != nil {
			log.Warn("a node registry entry names no IPFS peer to dial", "operator", n.Operator.Hex(), "err", err)
			continue
		}
		dialCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err = host.Connect(dialCtx, info)
		cancel()
		if err != nil && ctx.Err() == nil {
			log.Info("registered node not reachable over IPFS yet; retrying with backoff", "operator", n.Operator.Hex(), "peer", n.PeerID, "err", err)
		}
	}
}

// registryPeer is a registry entry's libp2p peer and addresses.
func registryPeer(n index.Node) (peer.AddrInfo, error) {
	id, err := peer.Decode(n.PeerID)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("peer id %q: %w", n.PeerID, err)
	}
	info := peer.AddrInfo{ID: id}
	for _, s := range n.Addrs {
		a, err := multiaddr.NewMultiaddr(s)
		if err != nil {
			return peer.AddrInfo{}, fmt.Errorf("address %q: %w", s, err)
		}
		info.Addrs = append(info.Addrs, a)
	}
	if len(info.Addrs) == 0 {
		return peer.AddrInfo{}, fmt.Errorf("peer %s has no address", id)
	}
	return info, nil
}
