package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	cmtcfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/types"
)

// TestnetHome is the home directory Testnet gives validator i under dir.
func TestnetHome(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("node%d", i))
}

// TestnetNode is where one validator of a testnet lives and listens.
type TestnetNode struct {
	// Home is the validator's CometBFT home; it must not hold a genesis yet.
	Home string
	// RPCPort and P2PPort are its loopback listen ports.
	RPCPort, P2PPort int
	// FullNode leaves the node out of the genesis validator set: it follows
	// the chain and can become a validator through governance.
	FullNode bool
	// EmptyBlockInterval, when not zero, is its config.toml's
	// create_empty_blocks_interval.
	EmptyBlockInterval time.Duration
}

// testnetNode is one validator's home while WriteTestnet writes it.
type testnetNode struct {
	cc      *cmtcfg.Config
	nodeID  p2p.ID
	p2pPort int
	val     types.GenesisValidator
	full    bool // not a genesis validator
}

// Testnet writes the homes of an n-validator network on this host under dir
// (see TestnetHome) with free loopback ports; see WriteTestnet. Start a node
// with Start(ctx, Config{Home: TestnetHome(dir, i)}, app).
func Testnet(dir string, n int, chainID string, appState json.RawMessage) error {
	if n < 1 {
		return fmt.Errorf("testnet: need at least one validator, got %d", n)
	}
	ports, err := FreePorts(2 * n)
	if err != nil {
		return fmt.Errorf("testnet: %w", err)
	}
	nodes := make([]TestnetNode, n)
	for i := range nodes {
		nodes[i] = TestnetNode{Home: TestnetHome(dir, i), RPCPort: ports[2*i], P2PPort: ports[2*i+1]}
	}
	return WriteTestnet(chainID, appState, nodes)
}

// WriteTestnet writes the homes of a network of len(nodes) validators on this
// host: each with its own keys, its loopback ports, persistent peers that
// connect every pair of nodes once (node i dials nodes 0..i-1), and one shared
// genesis listing all the validators with appState. Consensus has dForge's
// tuned settings (an empty block only when idle for the interval, short
// timeouts), as a single node has.
func WriteTestnet(chainID string, appState json.RawMessage, nodes []TestnetNode) error {
	if len(nodes) < 1 {
		return errors.New("testnet: need at least one validator")
	}
	if chainID == "" {
		return errors.New("testnet: chain id is empty")
	}
	homes := make([]testnetNode, len(nodes))
	for i, nd := range nodes {
		var err error
		if homes[i], err = newTestnetNode(nd, fmt.Sprintf("node%d", i)); err != nil {
			return fmt.Errorf("testnet node%d: %w", i, err)
		}
	}
	return writeTestnet(homes, chainID, appState)
}

// newTestnetNode creates a validator's keys and its configuration in memory.
func newTestnetNode(nd TestnetNode, moniker string) (testnetNode, error) {
	cc := tunedConfig()
	cc.SetRoot(nd.Home)
	cc.Moniker = moniker
	cc.RPC.ListenAddress = fmt.Sprintf("tcp://127.0.0.1:%d", nd.RPCPort)
	cc.P2P.ListenAddress = fmt.Sprintf("tcp://127.0.0.1:%d", nd.P2PPort)
	// All peers share 127.0.0.1: allow that, and accept loopback addresses,
	// which the strict address book rejects as non-routable.
	cc.P2P.AllowDuplicateIP = true
	cc.P2P.AddrBookStrict = false
	if nd.EmptyBlockInterval > 0 {
		cc.Consensus.CreateEmptyBlocksInterval = nd.EmptyBlockInterval
	}
	if exists(cc.GenesisFile()) {
		return testnetNode{}, fmt.Errorf("%s already exists; choose an empty directory", cc.GenesisFile())
	}
	if err := ensureDirs(cc); err != nil {
		return testnetNode{}, err
	}
	nodeKey, err := p2p.LoadOrGenNodeKey(cc.NodeKeyFile())
	if err != nil {
		return testnetNode{}, fmt.Errorf("node key: %w", err)
	}
	pv, err := loadOrGenPV(cc)
	if err != nil {
		return testnetNode{}, err
	}
	return testnetNode{cc: cc, nodeID: nodeKey.ID(), p2pPort: nd.P2PPort, val: genesisValidator(pv, cc.Moniker), full: nd.FullNode}, nil
}

// writeTestnet writes one genesis into every home and each node's
// config.toml with its persistent peers.
func writeTestnet(nodes []testnetNode, chainID string, appState json.RawMessage) error {
	var vals []types.GenesisValidator
	for _, nd := range nodes {
		if !nd.full {
			vals = append(vals, nd.val)
		}
	}
	// One document, so every node has the same genesis time and hash.
	doc := newGenesis(chainID, appState, vals)
	for i, nd := range nodes {
		if err := saveGenesis(nd.cc.GenesisFile(), doc); err != nil {
			return fmt.Errorf("testnet node%d: %w", i, err)
		}
		nd.cc.P2P.PersistentPeers = peersBefore(nodes, i)
		if err := writeConfig(filepath.Join(nd.cc.RootDir, "config", "config.toml"), nd.cc); err != nil {
			return fmt.Errorf("testnet node%d: %w", i, err)
		}
	}
	return nil
}

// peersBefore lists the nodes before the i-th as id@127.0.0.1:port, so each
// pair of nodes has exactly one dialer. CometBFT redials a lost persistent
// peer at once; when both sides of a pair list each other, they can dial each
// other at the same moment, each keep its outbound connection and reject the
// other's inbound one as a duplicate, drop both and redial again, forever. A
// node that restarts dials the nodes before it itself; the nodes after it
// redial it within 5 s however long it was gone (redial.go: CometBFT's own
// redial backs off to minutes).
func peersBefore(nodes []testnetNode, i int) string {
	peers := make([]string, 0, i)
	for _, nd := range nodes[:i] {
		peers = append(peers, p2p.IDAddressString(nd.nodeID, fmt.Sprintf("127.0.0.1:%d", nd.p2pPort)))
	}
	return strings.Join(peers, ",")
}

// FreePorts returns n distinct free loopback ports below the kernel's
// ephemeral range. A port the kernel hands out for ":0" comes from that range,
// where any outgoing connection may take it as its source port before the node
// binds it (a testnet node then failed to listen, or dialed itself); ports
// below it are only taken by listeners, and each is checked by binding it. The
// listeners stay open until all are chosen, so no port is returned twice;
// another program may still bind one before the node does.
func FreePorts(n int) ([]int, error) {
	low := ephemeralLow()
	ports := make([]int, 0, n)
	for attempt := 0; len(ports) < n; attempt++ {
		if attempt > 100*n {
			return nil, fmt.Errorf("find free port: no free port below %d after %d tries", low, attempt)
		}
		port := fixedPortFloor + rand.IntN(low-fixedPortFloor)
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue // taken: try another
		}
		defer l.Close()
		ports = append(ports, port)
	}
	return ports, nil
}

// fixedPortFloor keeps chosen ports above the well-known and commonly
// configured ones (a clash with a running program is caught by the bind).
const fixedPortFloor = 10000

// ephemeralLow reads the lowest port the kernel gives outgoing connections
// (Linux); elsewhere, or when unreadable, IANA's dynamic range start.
func ephemeralLow() int {
	low := 49152
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if v, err := strconv.Atoi(f[0]); err == nil {
				low = v
			}
		}
	}
	if low <= fixedPortFloor+1000 {
		return fixedPortFloor + 1000
	}
	return low
}

// ListenAddrs returns the RPC and P2P listen addresses a home's config.toml
// gives (tcp://host:port), as Start would use them without overrides.
func ListenAddrs(home string) (rpc, p2p string, err error) {
	cc, err := cometConfig(Config{Home: home})
	if err != nil {
		return "", "", err
	}
	return cc.RPC.ListenAddress, cc.P2P.ListenAddress, nil
}
