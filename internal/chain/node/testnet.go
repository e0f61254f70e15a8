package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"

	cmtcfg "github.com/cometbft/cometbft/config"
	"github.com/cometbft/cometbft/p2p"
	"github.com/cometbft/cometbft/types"
)

// TestnetHome is the home directory Testnet gives validator i under dir.
func TestnetHome(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("node%d", i))
}

// testnetNode is one validator's home while Testnet writes it.
type testnetNode struct {
	cc      *cmtcfg.Config
	nodeID  p2p.ID
	p2pPort int
	val     types.GenesisValidator
}

// Testnet writes the homes of an n-validator network on this host:
// dir/node0 .. dir/node{n-1} (see TestnetHome), each with its own keys,
// free loopback ports for RPC and P2P, persistent peers that connect every
// pair of nodes once (node i dials nodes 0..i-1), and one shared genesis listing all n validators with appState. Start a node
// with Start(ctx, Config{Home: TestnetHome(dir, i)}, app).
func Testnet(dir string, n int, chainID string, appState json.RawMessage) error {
	if n < 1 {
		return fmt.Errorf("testnet: need at least one validator, got %d", n)
	}
	if chainID == "" {
		return errors.New("testnet: chain id is empty")
	}
	ports, err := freePorts(2 * n)
	if err != nil {
		return fmt.Errorf("testnet: %w", err)
	}
	nodes := make([]testnetNode, n)
	for i := range nodes {
		if nodes[i], err = newTestnetNode(dir, i, ports[2*i], ports[2*i+1]); err != nil {
			return fmt.Errorf("testnet node%d: %w", i, err)
		}
	}
	return writeTestnet(nodes, chainID, appState)
}

// newTestnetNode creates validator i's keys and its configuration in memory.
func newTestnetNode(dir string, i, rpcPort, p2pPort int) (testnetNode, error) {
	home := TestnetHome(dir, i)
	cc := tunedConfig()
	cc.SetRoot(home)
	cc.Moniker = fmt.Sprintf("node%d", i)
	cc.RPC.ListenAddress = fmt.Sprintf("tcp://127.0.0.1:%d", rpcPort)
	cc.P2P.ListenAddress = fmt.Sprintf("tcp://127.0.0.1:%d", p2pPort)
	// All peers share 127.0.0.1: allow that, and accept loopback addresses,
	// which the strict address book rejects as non-routable.
	cc.P2P.AllowDuplicateIP = true
	cc.P2P.AddrBookStrict = false
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
	return testnetNode{cc: cc, nodeID: nodeKey.ID(), p2pPort: p2pPort, val: genesisValidator(pv, cc.Moniker)}, nil
}

// writeTestnet writes one genesis into every home and each node's
// config.toml with its persistent peers.
func writeTestnet(nodes []testnetNode, chainID string, appState json.RawMessage) error {
	vals := make([]types.GenesisValidator, len(nodes))
	for i, nd := range nodes {
		vals[i] = nd.val
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
// redial it within CometBFT's reconnect interval (5-8 s).
func peersBefore(nodes []testnetNode, i int) string {
	peers := make([]string, 0, i)
	for _, nd := range nodes[:i] {
		peers = append(peers, p2p.IDAddressString(nd.nodeID, fmt.Sprintf("127.0.0.1:%d", nd.p2pPort)))
	}
	return strings.Join(peers, ",")
}

// freePorts asks the kernel for n distinct free loopback ports. The listeners
// stay open until all are chosen, so no port is returned twice; another
// program may still take one before the node binds it.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
