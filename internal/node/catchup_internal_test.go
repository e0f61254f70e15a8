package node

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"
	"github.com/cometbft/cometbft/types"

	"github.com/dforge/dforge/internal/chain/app"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/logtest"
	"github.com/dforge/dforge/internal/store"
)

// stuckChain has one committed block the index cannot project: its
// results claim a transaction applied with an undecodable forge event.
type stuckChain struct{ genesis *types.GenesisDoc }

func (c stuckChain) Status(context.Context) (*ctypes.ResultStatus, error) {
	return &ctypes.ResultStatus{SyncInfo: ctypes.SyncInfo{LatestBlockHeight: 1}}, nil
}

func (c stuckChain) Genesis(context.Context) (*ctypes.ResultGenesis, error) {
	return &ctypes.ResultGenesis{Genesis: c.genesis}, nil
}

func (c stuckChain) Block(_ context.Context, h *int64) (*ctypes.ResultBlock, error) {
	if *h != 1 {
		return nil, errors.New("no such block")
	}
	blk := &types.Block{Header: types.Header{Height: 1, Time: c.genesis.GenesisTime.Add(time.Second), ProposerAddress: make([]byte, 20)},
		Data: types.Data{Txs: types.Txs{[]byte("junk")}}}
	return &ctypes.ResultBlock{BlockID: types.BlockID{Hash: make([]byte, 32)}, Block: blk}, nil
}

func (c stuckChain) BlockResults(_ context.Context, h *int64) (*ctypes.ResultBlockResults, error) {
	bad := abci.Event{Type: chainforge.EventType, Attributes: []abci.EventAttribute{{Key: chainforge.AttrData, Value: "{"}}}
	return &ctypes.ResultBlockResults{Height: *h, TxResults: []*abci.ExecTxResult{{Events: []abci.Event{bad}}}}, nil
}

func (c stuckChain) Validators(context.Context, *int64, *int, *int) (*ctypes.ResultValidators, error) {
	return &ctypes.ResultValidators{}, nil
}

// Issue 11: after a restart, a node whose index is stuck at a block never
// listened again (the start waited for the index to reach the chain's tip).
// The start's wait ends as soon as the index reports the stall, with a
// warning naming the block, so the node listens and /healthz can say why.
func TestStartDoesNotWaitOutAStuckIndex(t *testing.T) {
	t.Parallel()
	state, err := json.Marshal(app.Genesis{Params: app.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	chain := stuckChain{&types.GenesisDoc{ChainID: tx.ChainIDString(app.DefaultParams().ChainID),
		GenesisTime: time.Unix(1_700_000_000, 0).UTC(), InitialHeight: 1, AppState: state}}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "node.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var logs logtest.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ix := index.New(log, st, chain)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	// Well within catchUpTimeout, the only other way the wait ends.
	wait, stop := context.WithTimeout(ctx, catchUpTimeout/2)
	defer stop()
	if err := catchUpIndex(wait, ix, log); err != nil {
		t.Fatalf("catch up with the index stuck: %v", err)
	}
	if wait.Err() != nil {
		t.Fatal("the start waited until its own deadline")
	}
	if logs.Count("level=WARN", "chain index stuck", "height=1") != 1 {
		t.Fatalf("no warning naming the stuck block:\n%s", logs.String())
	}
}
