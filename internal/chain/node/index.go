package node

import (
	"fmt"

	dbm "github.com/cometbft/cometbft-db"
	abcitypes "github.com/cometbft/cometbft/abci/types"
	sm "github.com/cometbft/cometbft/state"
	"github.com/cometbft/cometbft/state/indexer"
	blockidxkv "github.com/cometbft/cometbft/state/indexer/block/kv"
	"github.com/cometbft/cometbft/state/txindex"
	txidxkv "github.com/cometbft/cometbft/state/txindex/kv"
	"github.com/cometbft/cometbft/store"
	"github.com/cometbft/cometbft/types"
)

// Why a started node re-indexes its last blocks: CometBFT's kv indexer
// (behind /tx, /tx_search and /block_search) writes a block's events from
// a goroutine fed by the event bus, and Node.OnStop stops that bus first.
// The block the node was committing when it stopped has its events
// published to a stopped bus, and a block being written when the database
// closes is cut short (gatedb.go); CometBFT's handshake replays only blocks
// the application has not committed, and dForge's application keeps its
// state, so those blocks would stay missing from the index for good.
const (
	// reindexTail is how many of the last committed blocks are always
	// indexed again: the indexer lags consensus by at most the block it is
	// writing and the one waiting for it (its subscription is unbuffered),
	// and one of them may be half-written. Writing a block again is
	// idempotent.
	reindexTail = 3
	// reindexMax bounds how far back a start looks for blocks the index
	// lacks (a node that ran with the indexer off has none indexed).
	reindexMax = 1000
)

// catchUpIndex indexes the last committed blocks again, and before them
// any block the index lacks, back to reindexMax blocks.
func (n *Node) catchUpIndex() error {
	idx, stateDB := n.dbs.get("tx_index"), n.dbs.get("state")
	if idx == nil || stateDB == nil {
		return nil // the indexer is off
	}
	states := sm.NewStore(stateDB, sm.StoreOptions{})
	st, err := states.Load()
	if err != nil {
		return fmt.Errorf("load chain state: %w", err)
	}
	blocks := blockidxkv.New(dbm.NewPrefixDB(idx, []byte("block_events")))
	top := st.LastBlockHeight
	from := max(top-reindexTail+1, st.InitialHeight, 1)
	for from > max(top-reindexMax, st.InitialHeight, 1) {
		if ok, err := blocks.Has(from - 1); err != nil || ok {
			break
		}
		from--
	}
	r := reindexer{blocks: n.cmt.BlockStore(), states: states, txs: txidxkv.NewTxIndex(idx), blockIdx: blocks}
	for h := from; h <= top; h++ {
		if err := r.index(h); err != nil {
			return err
		}
	}
	return nil
}

// reindexer writes one stored block's events into the indexes, as
// IndexerService does from the event bus (and `cometbft reindex-event`).
type reindexer struct {
	blocks   *store.BlockStore
	states   sm.Store
	txs      txindex.TxIndexer
	blockIdx indexer.BlockIndexer
}

func (r reindexer) index(h int64) error {
	block, _ := r.blocks.LoadBlock(h)
	if block == nil {
		return fmt.Errorf("reindex height %d: block not in the block store", h)
	}
	resp, err := r.states.LoadFinalizeBlockResponse(h)
	if err != nil {
		return fmt.Errorf("reindex height %d: load block results: %w", h, err)
	}
	if len(resp.TxResults) > 0 {
		batch := txindex.NewBatch(int64(len(resp.TxResults)))
		for i, res := range resp.TxResults {
			tr := abcitypes.TxResult{Height: h, Index: uint32(i), Tx: block.Txs[i], Result: *res}
			if err := batch.Add(&tr); err != nil {
				return fmt.Errorf("reindex height %d: batch tx %d: %w", h, i, err)
			}
		}
		if err := r.txs.AddBatch(batch); err != nil {
			return fmt.Errorf("reindex height %d: index txs: %w", h, err)
		}
	}
	if err := r.blockIdx.Index(types.EventDataNewBlockEvents{Height: h, Events: resp.Events, NumTxs: int64(len(resp.TxResults))}); err != nil {
		return fmt.Errorf("reindex height %d: index block: %w", h, err)
	}
	return nil
}
