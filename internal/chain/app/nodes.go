package app

import (
	"fmt"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/nodes"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// The node registry: each operator's node (internal/chain/nodes), from
// the genesis and from RegisterNode transactions signed by the operator.

func initNodes(kv state.KV, list []nodes.Node) error {
	for _, n := range list {
		if _, err := nodes.Register(kv, n); err != nil {
			return fmt.Errorf("genesis node of %s: %w", n.Operator.Hex(), err)
		}
	}
	return nil
}

// registerNode applies a RegisterNode: only an operator key registers a
// node, and a registration replaces the operator's previous one.
// From the own-keys upgrade on, any key registers its own node: nodes
// join without anyone's permission.
func registerNode(_ *App, kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	open, err := ownKeys(kv)
	if err != nil {
		return nil, err
	}
	if open {
		// Any key may register, so the registry's growth is bounded per
		// block; an honest node whose registration is refused tries again.
		if err := count(kv, "register", common.Address{}, uint64(height), MaxRegistrationsPerBlock); err != nil {
			return nil, err
		}
	} else if ok, err := isOperator(kv, t.From); err != nil {
		return nil, err
	} else if !ok {
		return nil, tx.NewError(tx.CodeNotOperator, "%s is not an operator of this chain: only operator keys register nodes", t.From.Hex())
	}
	n, err := nodes.Register(kv, nodes.Node{Operator: t.From, URL: t.URL, PeerID: t.PeerID, Addrs: nodes.SplitAddrs(t.Addrs)})
	if err != nil {
		return nil, nodes.TxError(err)
	}
	return []abci.Event{nodes.Event(n)}, nil
}
