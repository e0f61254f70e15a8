package node

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cometbft/cometbft/rpc/client/local"
)

// TestStopWhileIndexing stops a node while transactions stream into its
// blocks, several times over one home, then checks that every committed
// block and transaction is in the index. CometBFT's indexer goroutine
// writes a block's events after the block commits and OnStop neither
// waits for it nor delivers the last block's events (it stops the event
// bus first): closing the database under a late batch panicked pebble,
// and the last block went unindexed.
func TestStopWhileIndexing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cfg := Config{
		Home:    filepath.Join(t.TempDir(), "chain"),
		ChainID: "dforge-test",
		RPCAddr: "tcp://127.0.0.1:0",
		P2PAddr: "tcp://127.0.0.1:0",
	}
	seq := 0
	for round := range 3 {
		n := startNode(t, ctx, cfg)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				seq++
				_, _ = n.Client().BroadcastTxAsync(ctx, fmt.Appendf(nil, "r%d-%d=v", round, seq))
			}
		}()
		start := height(t, ctx, n.Client())
		for height(t, ctx, n.Client()) < start+3 {
			time.Sleep(5 * time.Millisecond)
		}
		if err := n.Stop(); err != nil {
			t.Fatalf("round %d: stop: %v", round, err)
		}
		close(stop)
		wg.Wait()
	}
	n := startNode(t, ctx, cfg)
	assertAllIndexed(t, ctx, n.Client())
}

// assertAllIndexed checks each committed block is found by block_search
// and each of its transactions by tx_search on its height.
func assertAllIndexed(t *testing.T, ctx context.Context, c *local.Local) {
	t.Helper()
	top := height(t, ctx, c)
	for h := int64(1); h <= top; h++ {
		b, err := c.Block(ctx, &h)
		if err != nil {
			t.Fatalf("block %d: %v", h, err)
		}
		bs, err := c.BlockSearch(ctx, fmt.Sprintf("block.height = %d", h), nil, nil, "")
		if err != nil || bs.TotalCount != 1 {
			t.Fatalf("block_search height %d: %v blocks, %v", h, bs, err)
		}
		txs, err := c.TxSearch(ctx, fmt.Sprintf("tx.height = %d", h), false, nil, nil, "")
		if err != nil || txs.TotalCount != len(b.Block.Txs) {
			t.Fatalf("tx_search height %d: %v, want %d txs (%v)", h, txs, len(b.Block.Txs), err)
		}
	}
	t.Logf("blocks 1..%d indexed", top)
}

// TestQueryEndpointsOverHTTP calls /tx, /tx_search and /block_search as a
// block explorer would, and reads CometBFT's JSON-RPC shapes.
func TestQueryEndpointsOverHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	addr := freeAddr(t)
	n := startNode(t, ctx, Config{
		Home:    filepath.Join(t.TempDir(), "chain"),
		ChainID: "dforge-test",
		RPCAddr: "tcp://" + addr,
		P2PAddr: "tcp://127.0.0.1:0",
	})
	res, err := n.Client().BroadcastTxCommit(ctx, []byte("name=alice"))
	if err != nil || res.TxResult.Code != 0 {
		t.Fatalf("commit: %v %v", res, err)
	}
	base, hash, h := "http://"+addr, res.Hash.String(), fmt.Sprint(res.Height)

	var tx struct {
		Hash     string `json:"hash"`
		Height   string `json:"height"`
		TxResult struct {
			Events []struct {
				Type string `json:"type"`
			} `json:"events"`
		} `json:"tx_result"`
	}
	// The indexer writes a block's events just after the block commits.
	waitIndexed(t, ctx, n.Client(), res.Hash)
	rpcGet(t, base+"/tx?hash=0x"+hash, &tx)
	if tx.Hash != hash || tx.Height != h || len(tx.TxResult.Events) == 0 {
		t.Fatalf("/tx = %+v, want hash %s at height %s with events", tx, hash, h)
	}
	for _, q := range []string{"tx.height=" + h, "app.key='name'"} {
		var found struct {
			Txs []struct {
				Hash string `json:"hash"`
			} `json:"txs"`
			TotalCount string `json:"total_count"`
		}
		rpcGet(t, base+"/tx_search?query="+url.QueryEscape(`"`+q+`"`), &found)
		if found.TotalCount != "1" || len(found.Txs) != 1 || found.Txs[0].Hash != hash {
			t.Fatalf("/tx_search %s = %+v, want the one tx %s", q, found, hash)
		}
	}
	var blocks struct {
		Blocks []struct {
			Block struct {
				Header struct {
					Height string `json:"height"`
				} `json:"header"`
			} `json:"block"`
		} `json:"blocks"`
		TotalCount string `json:"total_count"`
	}
	rpcGet(t, base+"/block_search?query="+url.QueryEscape(`"block.height=`+h+`"`), &blocks)
	if blocks.TotalCount != "1" || blocks.Blocks[0].Block.Header.Height != h {
		t.Fatalf("/block_search = %+v, want block %s", blocks, h)
	}
}

// waitIndexed waits until the transaction is in the index, which the
// indexer writes after its block's (so both are there then).
func waitIndexed(t *testing.T, ctx context.Context, c *local.Local, hash []byte) {
	t.Helper()
	for {
		_, err := c.Tx(ctx, hash, false)
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("tx %X never indexed: %v", hash, err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// rpcGet GETs a CometBFT JSON-RPC URI endpoint and decodes its result.
func rpcGet(t *testing.T, u string, result any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatalf("GET %s: decode: %v", u, err)
	}
	if env.JSONRPC != "2.0" || env.Error != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s error %s", u, resp.StatusCode, env.JSONRPC, env.Error)
	}
	if err := json.Unmarshal(env.Result, result); err != nil {
		t.Fatalf("GET %s: result %s: %v", u, env.Result, err)
	}
}

// freeAddr is a loopback address nothing listens on (the RPC's actual
// address is not exposed when it listens on port 0).
func freeAddr(t *testing.T) string {
	t.Helper()
	ports, err := FreePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("127.0.0.1:%d", ports[0])
}
