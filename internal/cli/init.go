package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/p2p"
)

// allocFlags collects repeated --alloc ADDRESS=AMOUNT flags.
type allocFlags []ledger.Allocation

func (a *allocFlags) String() string { return fmt.Sprint(len(*a), " allocations") }

func (a *allocFlags) Set(v string) error {
	addr, amount, ok := strings.Cut(v, "=")
	if !ok || !common.IsHexAddress(addr) {
		return fmt.Errorf("want ADDRESS=AMOUNT with a 0x address, got %q", v)
	}
	n, err := strconv.ParseUint(amount, 10, 64)
	if err != nil || n == 0 {
		return fmt.Errorf("amount in %q must be a positive whole number of micro-units", v)
	}
	*a = append(*a, ledger.Allocation{Address: common.HexToAddress(addr), Amount: n})
	return nil
}

// roleFlags collects repeated --role ADDRESS=ROLE flags: the community's
// first role holders, before governance can grant any.
type roleFlags []roles.Grant

func (r *roleFlags) String() string { return fmt.Sprint(len(*r), " roles") }

func (r *roleFlags) Set(v string) error {
	addr, role, ok := strings.Cut(v, "=")
	if !ok || !common.IsHexAddress(addr) || !roles.Valid(role) {
		return fmt.Errorf("want ADDRESS=ROLE with a 0x address and a role of %s, got %q", strings.Join(roles.All, ", "), v)
	}
	*r = append(*r, roles.Grant{Address: common.HexToAddress(addr), Role: role})
	return nil
}

// operatorAddress loads the data dir's operator key, creating it when
// missing, and returns its address for the genesis.
func operatorAddress(data string) (common.Address, error) {
	key, err := chain.LoadOrCreateOperatorKey(chain.OperatorKeyFile(data))
	if err != nil {
		return common.Address{}, err
	}
	return crypto.PubkeyToAddress(key.PublicKey), nil
}

// initData creates a data dir whose genesis funds the treasury and the
// given allocations and registers the node (its URL, libp2p peer id and
// listen address); `serve` on an empty data dir does the same with no
// allocations, and registers the node once it runs.
func initData(args []string, out io.Writer) error {
	fl := flag.NewFlagSet("init", flag.ContinueOnError)
	data := fl.String("data", envOr("DFORGE_DATA", "./data"), "data directory to create (env DFORGE_DATA)")
	var allocs allocFlags
	fl.Var(&allocs, "alloc", "genesis balance ADDRESS=AMOUNT in micro-units (repeatable)")
	var params paramFlags
	fl.Var(&params, "param", "genesis chain parameter `NAME=VALUE` (repeatable; names as on /docs/governance)")
	var rep reputationFlags
	fl.Var(&rep, "reputation", "genesis reputation `ADDRESS=SCORE` (repeatable)")
	var holders roleFlags
	fl.Var(&holders, "role", "genesis community role `ADDRESS=ROLE`: forum_moderator, event_organizer or ambassador (repeatable)")
	// Where the node will serve, for its entry in the node registry; as
	// `serve` takes them.
	addr := fl.String("addr", envOr("DFORGE_ADDR", "127.0.0.1:3000"), "the HTTP listen address serve will use, for the node registry (env DFORGE_ADDR)")
	publicURL := fl.String("public-url", os.Getenv("DFORGE_PUBLIC_URL"), "the node's origin as browsers reach it, for the node registry (env DFORGE_PUBLIC_URL; default http://<addr>)")
	var p2pListen []string
	listen := &stringList{values: &p2pListen}
	listen.parse(os.Getenv("DFORGE_P2P_LISTEN"))
	fl.Var(listen, "p2p-listen", "the IPFS (libp2p) listen `multiaddr` serve will use, for the node registry; repeatable (env DFORGE_P2P_LISTEN; default "+p2p.DefaultListen+")")
	if err := fl.Parse(args); err != nil {
		return err
	}
	operator, err := operatorAddress(*data)
	if err != nil {
		return err
	}
	url, err := nodeURL(*publicURL, *addr)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	self, err := genesisNode(*data, operator, url, p2pListen)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	genesis := app.TreasuryGenesis(operator)
	genesis.Nodes = []nodes.Node{self}
	genesis.Allocations = append(genesis.Allocations, allocs...)
	genesis.Reputation = rep
	genesis.Roles = holders
	for _, p := range params {
		if genesis.Params, err = genesis.Params.Set(p[0], p[1]); err != nil {
			return fmt.Errorf("init: --param: %w", err)
		}
	}
	dir := filepath.Join(*data, "chain")
	if err := chain.Init(chain.Config{Dir: dir, Genesis: genesis}); err != nil {
		return fmt.Errorf("init chain: %w", err)
	}
	fmt.Fprintf(out, "initialised %s with %d genesis allocations besides the treasury; operator %s; node %s, peer %s\n",
		dir, len(allocs), operator.Hex(), self.URL, self.PeerID)
	return nil
}
