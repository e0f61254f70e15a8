package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/node"
	chainnodes "github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/tx"
)

// maxValidators bounds --validators: every validator on one host is a whole
// node with its own ports, databases and goroutines.
const maxValidators = 64

// portsPerNode are a testnet node's CometBFT P2P, RPC, HTTP and IPFS
// (libp2p) ports, in that order.
const portsPerNode = 4

// testnetConfig is what `dforge testnet` writes.
type testnetConfig struct {
	Validators int
	Out        string
	// BasePort 0 picks free ports; otherwise node K listens on BasePort+4K
	// (P2P), +1 (RPC), +2 (HTTP) and +3 (IPFS).
	BasePort int
	Allocs   allocFlags
	// FullNodes follow the chain without being genesis validators (one
	// can join the set through a validator proposal).
	FullNodes  int
	Params     paramFlags
	Reputation reputationFlags
	// EmptyBlocks, when not zero, is how often the idle chain makes a block.
	EmptyBlocks time.Duration
}

// nodes is how many node directories the testnet has.
func (c testnetConfig) nodes() int { return c.Validators + c.FullNodes }

// paramFlags are --param NAME=VALUE genesis parameter overrides.
type paramFlags [][2]string

func (p *paramFlags) String() string { return fmt.Sprint(len(*p), " parameters") }

func (p *paramFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want NAME=VALUE, got %q", v)
	}
	if _, err := app.DefaultParams().Set(name, value); err != nil {
		return err
	}
	*p = append(*p, [2]string{name, value})
	return nil
}

// reputationFlags are --reputation ADDRESS=SCORE genesis scores.
type reputationFlags []app.ReputationGrant

func (r *reputationFlags) String() string { return fmt.Sprint(len(*r), " scores") }

func (r *reputationFlags) Set(v string) error {
	addr, score, ok := strings.Cut(v, "=")
	n, err := strconv.ParseUint(score, 10, 64)
	if !ok || !common.IsHexAddress(addr) || err != nil {
		return fmt.Errorf("want ADDRESS=SCORE with a 0x address and a whole number, got %q", v)
	}
	*r = append(*r, app.ReputationGrant{Address: common.HexToAddress(addr), Score: n})
	return nil
}

// testnetNode is one node a testnet holds: its data dir and addresses.
type testnetNode struct {
	Home, HTTPAddr, RPCAddr, P2PAddr string
	IPFSListen                       string // the libp2p listen multiaddr
}

func parseTestnet(args []string) (testnetConfig, error) {
	fl := flag.NewFlagSet("testnet", flag.ContinueOnError)
	cfg := testnetConfig{}
	fl.IntVar(&cfg.Validators, "validators", 4, fmt.Sprintf("number of validators `N`, 1 to %d", maxValidators))
	fl.StringVar(&cfg.Out, "out", "./testnet", "`dir` to write node0 .. nodeN-1 in; must be new or empty")
	fl.IntVar(&cfg.BasePort, "base-port", 0, "first port `P`: node K uses P+4K (P2P), P+4K+1 (RPC), P+4K+2 (HTTP), P+4K+3 (IPFS); 0 picks free ports")
	fl.Var(&cfg.Allocs, "alloc", "genesis balance `ADDRESS=AMOUNT` in micro-units (repeatable)")
	fl.IntVar(&cfg.FullNodes, "full-nodes", 0, "`N` more nodes that follow the chain but are not genesis validators")
	fl.Var(&cfg.Params, "param", "genesis chain parameter `NAME=VALUE` (repeatable; names as on /docs)")
	fl.Var(&cfg.Reputation, "reputation", "genesis reputation `ADDRESS=SCORE` (repeatable)")
	fl.DurationVar(&cfg.EmptyBlocks, "empty-blocks", 0, "how often an idle chain makes a block, e.g. 500ms (default 6s)")
	if err := fl.Parse(args); err != nil {
		return cfg, err
	}
	if fl.NArg() > 0 {
		return cfg, fmt.Errorf("testnet: unexpected argument %q", fl.Arg(0))
	}
	if cfg.Validators < 1 || cfg.Validators > maxValidators {
		return cfg, fmt.Errorf("testnet: --validators must be between 1 and %d, got %d", maxValidators, cfg.Validators)
	}
	if cfg.FullNodes < 0 || cfg.nodes() > maxValidators {
		return cfg, fmt.Errorf("testnet: --full-nodes must be 0 or more, with at most %d nodes in all", maxValidators)
	}
	if cfg.EmptyBlocks < 0 {
		return cfg, errors.New("testnet: --empty-blocks must not be negative")
	}
	if last := cfg.BasePort + portsPerNode*cfg.nodes() - 1; cfg.BasePort != 0 && (cfg.BasePort < 1 || last > 65535) {
		return cfg, fmt.Errorf("testnet: --base-port %d leaves no room for %d ports below 65536", cfg.BasePort, portsPerNode*cfg.nodes())
	}
	if cfg.Out == "" {
		return cfg, errors.New("testnet: --out is empty")
	}
	return cfg, nil
}

func testnet(args []string, out io.Writer) error {
	cfg, err := parseTestnet(args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return err
	}
	nodes, err := writeTestnet(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote a %d-validator testnet (and %d full nodes) of chain %s in %s (genesis allocations besides the treasury: %d)\n",
		cfg.Validators, cfg.FullNodes, tx.ChainIDString(app.DefaultParams().ChainID), cfg.Out, len(cfg.Allocs))
	for i, n := range nodes {
		fmt.Fprintf(out, "  node%d  http://%s  rpc %s  p2p %s  ipfs %s\n", i, n.HTTPAddr, n.RPCAddr, n.P2PAddr, n.IPFSListen)
	}
	fmt.Fprintf(out, "start node K with: dforge serve --home %s\n", filepath.Join(cfg.Out, "nodeK"))
	return nil
}

// writeTestnet writes cfg.Validators node directories under cfg.Out, each a
// complete data dir (as `serve --data` creates) sharing one genesis, plus
// the dforge.env that gives `serve --home` its HTTP and IPFS addresses.
func writeTestnet(cfg testnetConfig) ([]testnetNode, error) {
	// 1. Never write into a directory that holds anything: keys are not
	// overwritten, and a half-old network would not start.
	if err := newOrEmptyDir(cfg.Out); err != nil {
		return nil, err
	}
	nodes, err := writeNodes(cfg)
	if err != nil {
		for i := range cfg.nodes() {
			os.RemoveAll(node.TestnetHome(cfg.Out, i)) // the directory was empty before
		}
		return nil, err
	}
	return nodes, nil
}

func writeNodes(cfg testnetConfig) ([]testnetNode, error) {
	// 2. Each node's ports and addresses.
	ports, err := testnetPorts(cfg.BasePort, cfg.nodes())
	if err != nil {
		return nil, fmt.Errorf("testnet: %w", err)
	}
	nodes := make([]testnetNode, cfg.nodes())
	homes := make([]node.TestnetNode, cfg.nodes())
	for i := range nodes {
		p2p, rpc, http, ipfs := ports[portsPerNode*i], ports[portsPerNode*i+1], ports[portsPerNode*i+2], ports[portsPerNode*i+3]
		home := node.TestnetHome(cfg.Out, i)
		nodes[i] = testnetNode{
			Home: home, HTTPAddr: fmt.Sprintf("127.0.0.1:%d", http),
			RPCAddr: fmt.Sprintf("tcp://127.0.0.1:%d", rpc), P2PAddr: fmt.Sprintf("tcp://127.0.0.1:%d", p2p),
			IPFSListen: fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", ipfs),
		}
		homes[i] = node.TestnetNode{Home: cometHome(home), RPCPort: rpc, P2PPort: p2p, FullNode: i >= cfg.Validators, EmptyBlockInterval: cfg.EmptyBlocks}
	}
	// 3. The genesis `dforge init` would write, with every validator in it,
	// every node's operator key and every node's registry entry.
	operators := make([]common.Address, cfg.nodes())
	registry := make([]chainnodes.Node, cfg.nodes())
	for i, n := range nodes {
		if operators[i], err = operatorAddress(n.Home); err != nil {
			return nil, fmt.Errorf("testnet: node%d: %w", i, err)
		}
		if registry[i], err = genesisNode(n.Home, operators[i], "http://"+n.HTTPAddr, []string{n.IPFSListen}); err != nil {
			return nil, fmt.Errorf("testnet: node%d: %w", i, err)
		}
	}
	genesis := app.TreasuryGenesis(operators...)
	genesis.Nodes = registry
	genesis.Allocations = append(genesis.Allocations, cfg.Allocs...)
	genesis.Reputation = cfg.Reputation
	for _, p := range cfg.Params {
		if genesis.Params, err = genesis.Params.Set(p[0], p[1]); err != nil {
			return nil, fmt.Errorf("testnet: --param: %w", err)
		}
	}
	appState, err := json.Marshal(genesis)
	if err != nil {
		return nil, fmt.Errorf("testnet: encode genesis: %w", err)
	}
	// 4. CometBFT homes, keys, genesis and peers.
	if err := node.WriteTestnet(tx.ChainIDString(genesis.Params.ChainID), appState, homes); err != nil {
		return nil, err
	}
	// 5. What `serve --home` needs besides the chain: the HTTP and IPFS
	// addresses the registry names.
	for _, n := range nodes {
		if err := writeHomeSettings(n.Home, "DFORGE_ADDR="+n.HTTPAddr, "DFORGE_P2P_LISTEN="+n.IPFSListen); err != nil {
			return nil, fmt.Errorf("testnet: %w", err)
		}
	}
	return nodes, nil
}

// cometHome is the CometBFT home inside a data dir: serve runs the chain in
// <data>/chain, and the chain keeps CometBFT's files in its comet/ folder
// (beside app/, the application state).
func cometHome(data string) string {
	return filepath.Join(data, "chain", "comet")
}

// testnetPorts returns portsPerNode ports per node: consecutive from base, or
// free ones chosen by the kernel when base is 0.
func testnetPorts(base, n int) ([]int, error) {
	if base == 0 {
		return node.FreePorts(portsPerNode * n)
	}
	ports := make([]int, portsPerNode*n)
	for i := range ports {
		ports[i] = base + i
	}
	return ports, nil
}

// newOrEmptyDir creates dir, or accepts it when it exists and is empty.
func newOrEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("testnet: create %s: %w", dir, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("testnet: --out %s: %w", dir, err)
	case len(entries) > 0:
		return fmt.Errorf("testnet: %s is not empty; give a new or empty directory (a testnet never overwrites keys)", dir)
	}
	return nil
}
