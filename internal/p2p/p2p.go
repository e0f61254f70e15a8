// Package p2p is the node's libp2p host: bitswap over the node's blockstore,
// so IPFS peers (Kubo, Helia, other dForge nodes) fetch public git objects
// by CID, and the node fetches the blocks it lacks from the peers it keeps.
//
// The host is deliberately small: TCP only, no DHT and no public bootstrap
// peers (peers are named: --ipfs-peer, the node registry), no relay, no NAT
// port mapping, no mDNS, and it dials only loopback addresses and the ones
// it was told to dial. Its resources are bounded by libp2p's resource
// manager with its default limits.
package p2p

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/ipfs/boxo/bitswap"
	"github.com/ipfs/boxo/bitswap/network/bsnet"
	"github.com/ipfs/boxo/blockservice"
	"github.com/ipfs/boxo/blockstore"
	"github.com/ipfs/boxo/exchange"
	"github.com/ipfs/boxo/peering"
	blockformat "github.com/ipfs/go-block-format"
	"github.com/ipfs/go-cid"
	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/dforge/dforge/internal/blocks"
)

// DefaultListen is where a node listens unless told otherwise: loopback,
// like the node's other defaults, on a fixed port so that the address a
// node registers stays valid across restarts (Kubo's own is 4001).
const DefaultListen = "/ip4/127.0.0.1/tcp/4101"

// ErrListen wraps a failure to listen on the configured addresses (a port
// in use, an address not on this machine).
var ErrListen = errors.New("p2p: cannot listen")

// Config is what Start runs a host with.
type Config struct {
	// ListenAddrs are TCP multiaddrs such as /ip4/127.0.0.1/tcp/4101;
	// none means DefaultListen.
	ListenAddrs []multiaddr.Multiaddr
	// Key is the node's identity (LoadKey); nil makes a new one for this run.
	Key crypto.PrivKey
	// Peers are full addresses (/ip4/.../tcp/.../p2p/<id>) of peers to
	// keep connected: dialled at start, redialled with backoff when lost.
	Peers []multiaddr.Multiaddr
	// Blockstore is what the node serves, and where fetched blocks go.
	Blockstore blockstore.Blockstore
	Log        *slog.Logger
}

// Node is a running libp2p host with bitswap.
type Node struct {
	host    host.Host
	bitswap *bitswap.Bitswap
	blocks  blockservice.BlockService
	peering *peering.PeeringService
	gater   *gater
	log     *slog.Logger

	closeOnce sync.Once
	closeErr  error
}

// Start runs a host on cfg.ListenAddrs serving cfg.Blockstore over bitswap,
// and starts keeping cfg.Peers connected. Close stops it.
func Start(ctx context.Context, cfg Config) (*Node, error) {
	if cfg.Blockstore == nil {
		return nil, errors.New("p2p: no blockstore")
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	listen := cfg.ListenAddrs
	if len(listen) == 0 {
		listen = []multiaddr.Multiaddr{multiaddr.StringCast(DefaultListen)}
	}
	for _, a := range listen {
		if _, err := a.ValueForProtocol(multiaddr.P_TCP); err != nil {
			return nil, fmt.Errorf("p2p: listen address %s: only TCP is supported", a)
		}
	}
	peers, err := peer.AddrInfosFromP2pAddrs(cfg.Peers...)
	if err != nil {
		return nil, fmt.Errorf("p2p: peer addresses: %w", err)
	}
	key := cfg.Key
	if key == nil {
		if key, _, err = crypto.GenerateEd25519Key(nil); err != nil {
			return nil, fmt.Errorf("p2p: make key: %w", err)
		}
	}

	// 1. The host: TCP with libp2p's default security (TLS, Noise) and
	// muxer (yamux), as Kubo speaks them; nothing that reaches beyond the
	// peers we name. It listens after it is built, so a busy port is told
	// apart from any other failure.
	g := newGater()
	for _, p := range peers {
		g.allow(p.Addrs...)
	}
	h, err := libp2p.New(
		libp2p.Identity(key),
		libp2p.NoListenAddrs,
		// Without SO_REUSEPORT a second node on a port in use fails to
		// listen instead of sharing the port's incoming connections.
		libp2p.Transport(tcp.NewTCPTransport, tcp.DisableReuseport()),
		libp2p.ConnectionGater(g),
		libp2p.DisableRelay(),
		libp2p.ForceReachabilityPrivate(), // no AutoNAT probing of our addresses
		libp2p.DisableIdentifyAddressDiscovery(),
		libp2p.DisableMetrics(), // several nodes share a process in tests; /metrics is the node's own
	)
	if err != nil {
		return nil, fmt.Errorf("p2p: start host: %w", err)
	}
	if err := h.Network().Listen(listen...); err != nil {
		h.Close()
		return nil, fmt.Errorf("%w on %v: %w", ErrListen, listen, err)
	}

	// 2. Bitswap over the host, serving the blockstore. No content routing:
	// wants go to connected peers only.
	//
	// A peer that stays silent about a block is not taken to lack it: a
	// walk of a repository keeps hundreds of blocks wanted from one peer,
	// and boxo's timeout (twice the latency of the peer's messages, some
	// 50 ms on loopback; a 5 s floor did not do either) took the last in
	// its queue as missing, after which the session asked nobody for them
	// for a minute. The peers speak bitswap 1.2 (boxo, Kubo) and say
	// DONT_HAVE themselves.
	bs := bitswap.New(ctx, bsnet.NewFromIpfsHost(h), nil, cfg.Blockstore,
		bitswap.SetSimulateDontHavesOnTimeout(false))
	n := &Node{
		host:    h,
		bitswap: bs,
		blocks:  blockservice.New(cfg.Blockstore, bs),
		peering: peering.NewPeeringService(h),
		gater:   g,
		log:     log,
	}

	// 3. Keep the named peers connected: the first dial now, then boxo's
	// peering service (Kubo's Peering.Peers) redials with backoff.
	for _, p := range peers {
		n.peering.AddPeer(p)
	}
	if err := n.peering.Start(); err != nil {
		n.Close()
		return nil, fmt.Errorf("p2p: keep peers: %w", err)
	}
	for _, p := range peers {
		go func() {
			if err := h.Connect(context.WithoutCancel(ctx), p); err != nil {
				log.Warn("ipfs peer not reachable yet; retrying with backoff", "peer", p.ID, "addrs", p.Addrs, "err", err)
			}
		}()
	}
	return n, nil
}

// PeerID is the node's libp2p identity.
func (n *Node) PeerID() peer.ID { return n.host.ID() }

// Addrs are the node's full addresses, /ip4/.../tcp/.../p2p/<id>, as a peer
// names it (`ipfs swarm connect`, --ipfs-peer, the node registry).
func (n *Node) Addrs() []multiaddr.Multiaddr {
	full, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: n.host.ID(), Addrs: n.host.Addrs()})
	if err != nil { // only for an invalid peer id, which a running host has not
		return nil
	}
	return full
}

// Exchange is the node's bitswap: it serves the blockstore and fetches
// from connected peers (for a blockservice, as a gateway builds one).
func (n *Node) Exchange() exchange.SessionExchange { return n.bitswap }

// Peers are the peers the node is connected to now.
func (n *Node) Peers() []peer.ID { return n.host.Network().Peers() }

// Connect dials the peer now and keeps it connected from then on, as the
// configured peers are. Its addresses become ones the node may dial.
func (n *Node) Connect(ctx context.Context, p peer.AddrInfo) error {
	if p.ID == n.host.ID() {
		return errors.New("p2p: connect: that is this node")
	}
	n.gater.allow(p.Addrs...)
	n.peering.AddPeer(p)
	if err := n.host.Connect(ctx, p); err != nil {
		return fmt.Errorf("p2p: connect to %s: %w", p.ID, err)
	}
	return nil
}

// Fetch returns the block c, from the blockstore or else over bitswap from
// the connected peers, and stores it. Bitswap names a received block by
// hashing its bytes, so a peer cannot pass other bytes off as c; Fetch
// checks again before the block is stored. Only CIDv1 of the kinds the
// blockstore holds are asked for (blocks.Storable: git objects, and the
// UnixFS chunks and manifests of big ones). ctx bounds the wait.
func (n *Node) Fetch(ctx context.Context, c cid.Cid) (blockformat.Block, error) {
	if !blocks.Storable(c) || c.Version() != 1 {
		return nil, fmt.Errorf("p2p: fetch %s: only git-raw sha1 blocks and raw, dag-pb and dag-cbor sha2-256 CIDv1 are fetched", c)
	}
	blk, err := n.blocks.GetBlock(ctx, c)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("p2p: fetch %s: no peer sent it in time (%d connected): %w", c, len(n.Peers()), ctx.Err())
		}
		return nil, fmt.Errorf("p2p: fetch %s: %w", c, err)
	}
	if err := verify(c, blk.RawData()); err != nil {
		return nil, err
	}
	return blk, nil
}

// Session returns ctx carrying one bitswap session: the Fetch and
// FetchMany calls made under it share it, so bitswap learns which peers
// hold the blocks and asks them directly, where a fetch without one is a
// session of its own that first asks every peer whether it has the block.
// A walk of a DAG runs under one. The session ends with ctx.
func (n *Node) Session(ctx context.Context) context.Context {
	return blockservice.ContextWithSession(ctx, n.blocks)
}

// FetchMany fetches cs as Fetch does, all asked for at once: blocks in
// the blockstore come from it, the rest over bitswap (ask under Session
// for a walk). Each block is sent on the channel, checked and stored, as
// it comes, in no order; the channel closes once all have come or ctx
// ends. A CID Fetch would refuse, or a block not hashing to its CID, is
// logged and never sent: the caller sees it missing.
func (n *Node) FetchMany(ctx context.Context, cs []cid.Cid) <-chan blockformat.Block {
	asked := make([]cid.Cid, 0, len(cs))
	for _, c := range cs {
		if blocks.Storable(c) && c.Version() == 1 {
			asked = append(asked, c)
		} else {
			n.log.WarnContext(ctx, "p2p: not fetching a CID of a kind not stored", "cid", c)
		}
	}
	in := n.blocks.GetBlocks(ctx, asked)
	out := make(chan blockformat.Block)
	go func() {
		defer close(out)
		for blk := range in {
			if err := verify(blk.Cid(), blk.RawData()); err != nil {
				n.log.WarnContext(ctx, "p2p: refusing a block", "err", err)
				continue
			}
			select {
			case out <- blk:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func verify(c cid.Cid, data []byte) error {
	got, err := c.Prefix().Sum(data)
	if err != nil {
		return fmt.Errorf("p2p: hash block %s: %w", c, err)
	}
	if !got.Equals(c) {
		return fmt.Errorf("p2p: block %s: its bytes hash to %s", c, got)
	}
	return nil
}

// Close stops keeping peers, bitswap and the host; later calls do nothing.
func (n *Node) Close() error {
	n.closeOnce.Do(func() {
		n.peering.Stop()
		n.bitswap.Close()
		n.closeErr = n.host.Close()
	})
	return n.closeErr
}

// gater is the host's connection gater: the node dials loopback addresses
// and the addresses it was given (configured peers, Connect), never one a
// peer advertised elsewhere. Accepting is left to the listen address.
type gater struct {
	mu      sync.RWMutex
	allowed []multiaddr.Multiaddr
}

func newGater() *gater { return &gater{} }

func (g *gater) allow(addrs ...multiaddr.Multiaddr) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, a := range addrs {
		if !slices.ContainsFunc(g.allowed, a.Equal) {
			g.allowed = append(g.allowed, a)
		}
	}
}

func (g *gater) InterceptAddrDial(_ peer.ID, a multiaddr.Multiaddr) bool {
	transport, _ := peer.SplitAddr(a)
	if transport == nil {
		return false
	}
	if manet.IsIPLoopback(transport) {
		return true
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	return slices.ContainsFunc(g.allowed, transport.Equal)
}

func (g *gater) InterceptPeerDial(peer.ID) bool              { return true }
func (g *gater) InterceptAccept(network.ConnMultiaddrs) bool { return true }
func (g *gater) InterceptSecured(network.Direction, peer.ID, network.ConnMultiaddrs) bool {
	return true
}
func (g *gater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }
