package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"
	"github.com/cometbft/cometbft/types"

	"github.com/dforge/dforge/internal/chain/app"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/node"
	"github.com/dforge/dforge/internal/store"
)

// stuckChain is a chain of one committed block the index cannot project:
// its results claim a transaction applied with an undecodable forge event.
type stuckChain struct{ genesis *types.GenesisDoc }

func newStuckChain(t *testing.T) stuckChain {
	state, err := json.Marshal(app.Genesis{Params: app.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	return stuckChain{&types.GenesisDoc{ChainID: tx.ChainIDString(app.DefaultParams().ChainID),
		GenesisTime: time.Unix(1_700_000_000, 0).UTC(), InitialHeight: 1, AppState: state}}
}

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

// TestHealthzReportsStuckIndex: a committed block the index cannot project
// turns /healthz into a 503 naming the block and the error, while the API's
// reads of what is projected keep answering.
func TestHealthzReportsStuckIndex(t *testing.T) {
	t.Parallel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	ix := index.New(quiet, st, newStuckChain(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	h, err := node.NewServices(quiet, st, nil, ix).Handler(node.Site{Dist: testDist, Version: "test"})
	if err != nil {
		t.Fatalf("new handler: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	type health struct {
		Status, Database, Index string
		IndexHeight             int64  `json:"index_height"`
		IndexStuckAt            int64  `json:"index_stuck_at"`
		IndexError              string `json:"index_error"`
	}
	var got health
	var res *http.Response
	for deadline := time.Now().Add(10 * time.Second); got.Index != "stalled"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("healthz never reported the stuck block: %d %+v", res.StatusCode, got)
		}
		var body string
		res, body = do(t, "GET", srv.URL+"/healthz", "")
		got = decodeJSON[health](t, body)
	}
	if res.StatusCode != http.StatusServiceUnavailable || got.Status != "degraded" || got.Database != "ok" ||
		got.IndexHeight != 0 || got.IndexStuckAt != 1 || !strings.Contains(got.IndexError, "undecodable") {
		t.Fatalf("healthz = %d %+v, want 503 with the index stuck at block 1", res.StatusCode, got)
	}
	if res, body := do(t, "GET", srv.URL+"/api/v1/activity", ""); res.StatusCode != http.StatusOK {
		t.Fatalf("reads while the index is stuck: %d %s", res.StatusCode, body)
	}
}
