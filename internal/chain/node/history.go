package node

import (
	"context"
	"errors"
	"fmt"

	dbm "github.com/cometbft/cometbft-db"
	cmtcfg "github.com/cometbft/cometbft/config"
	ctypes "github.com/cometbft/cometbft/rpc/core/types"
	sm "github.com/cometbft/cometbft/state"
	"github.com/cometbft/cometbft/store"
	"github.com/cometbft/cometbft/types"
)

// History reads a stopped node's committed chain straight from its
// databases, without starting CometBFT: no consensus, no listeners, nothing
// that could add a block. It answers the read calls of the RPC client that
// replaying the chain needs (`dforge reindex`), with the same types.
//
// CometBFT's stores write their key-layout version when opened (the same
// value again), so the databases are opened for writing; their lock makes
// opening a running node's home fail instead of racing it.
type History struct {
	genesis *types.GenesisDoc
	blocks  *store.BlockStore
	state   sm.Store
	dbs     []dbm.DB
}

// OpenHistory opens the chain in cfg.Home. It creates nothing: a home
// without a genesis is an error.
func OpenHistory(cfg Config) (*History, error) {
	cc, err := cometConfig(cfg)
	if err != nil {
		return nil, err
	}
	if !exists(cc.GenesisFile()) {
		return nil, fmt.Errorf("open chain history: no genesis at %s", cc.GenesisFile())
	}
	gen, err := types.GenesisDocFromFile(cc.GenesisFile())
	if err != nil {
		return nil, fmt.Errorf("open chain history: %w", err)
	}
	h := &History{genesis: gen}
	dbs := &dbSet{log: cfg.logger(), level: cfg.logLevel()}
	for _, id := range []string{"blockstore", "state"} {
		db, err := dbs.open(&cmtcfg.DBContext{ID: id, Config: cc})
		if err != nil {
			return nil, errors.Join(fmt.Errorf("open %s db (is the node still running?): %w", id, err), h.Close())
		}
		h.dbs = append(h.dbs, db)
	}
	h.blocks = store.NewBlockStore(h.dbs[0])
	h.state = sm.NewStore(h.dbs[1], sm.StoreOptions{})
	return h, nil
}

// Close releases the databases.
func (h *History) Close() error {
	var errs []error
	for _, db := range h.dbs {
		errs = append(errs, db.Close())
	}
	h.dbs = nil
	return errors.Join(errs...)
}

// Status reports the last block whose results were saved: a block stored
// just before a crash, never applied, is not part of the history.
func (h *History) Status(context.Context) (*ctypes.ResultStatus, error) {
	st, err := h.state.Load()
	if err != nil {
		return nil, fmt.Errorf("load chain state: %w", err)
	}
	info := ctypes.SyncInfo{LatestBlockHeight: st.LastBlockHeight}
	if meta := h.blocks.LoadBlockMeta(st.LastBlockHeight); meta != nil {
		info.LatestBlockHash = meta.BlockID.Hash
		info.LatestAppHash = meta.Header.AppHash
		info.LatestBlockTime = meta.Header.Time
	}
	return &ctypes.ResultStatus{SyncInfo: info}, nil
}

// Genesis is the chain's genesis document.
func (h *History) Genesis(context.Context) (*ctypes.ResultGenesis, error) {
	return &ctypes.ResultGenesis{Genesis: h.genesis}, nil
}

// Block reads the block at *height (nil: the last one).
func (h *History) Block(ctx context.Context, height *int64) (*ctypes.ResultBlock, error) {
	at, err := h.height(ctx, height)
	if err != nil {
		return nil, err
	}
	block, meta := h.blocks.LoadBlock(at)
	if block == nil {
		return nil, fmt.Errorf("no block at height %d in the block store", at)
	}
	return &ctypes.ResultBlock{BlockID: meta.BlockID, Block: block}, nil
}

// BlockResults reads what the application answered for the block at
// *height (nil: the last one).
func (h *History) BlockResults(ctx context.Context, height *int64) (*ctypes.ResultBlockResults, error) {
	at, err := h.height(ctx, height)
	if err != nil {
		return nil, err
	}
	res, err := h.state.LoadFinalizeBlockResponse(at)
	if err != nil {
		return nil, fmt.Errorf("load block results at height %d: %w", at, err)
	}
	return &ctypes.ResultBlockResults{
		Height: at, TxResults: res.TxResults, FinalizeBlockEvents: res.Events,
		ValidatorUpdates: res.ValidatorUpdates, ConsensusParamUpdates: res.ConsensusParamUpdates, AppHash: res.AppHash,
	}, nil
}

// Validators is the whole validator set for the block after the last one
// (or at *height); it does not page.
func (h *History) Validators(ctx context.Context, height *int64, _, _ *int) (*ctypes.ResultValidators, error) {
	var at int64
	if height != nil {
		at = *height
	} else {
		st, err := h.state.Load()
		if err != nil {
			return nil, fmt.Errorf("load chain state: %w", err)
		}
		at = st.LastBlockHeight + 1
	}
	vals, err := h.state.LoadValidators(at)
	if err != nil {
		return nil, fmt.Errorf("load validators at height %d: %w", at, err)
	}
	return &ctypes.ResultValidators{BlockHeight: at, Validators: vals.Validators, Count: len(vals.Validators), Total: len(vals.Validators)}, nil
}

func (h *History) height(ctx context.Context, height *int64) (int64, error) {
	if height != nil {
		return *height, nil
	}
	st, err := h.Status(ctx)
	if err != nil {
		return 0, err
	}
	return st.SyncInfo.LatestBlockHeight, nil
}
