package index_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/dforge/dforge/internal/index"
)

// batchRecorder notes which projection transaction observed each change.
type batchRecorder struct {
	mu        sync.Mutex
	txs       []*index.WriteTx // one per Observe call
	heights   []int64          // the height of each change, in the order observed
	projected int
}

func (r *batchRecorder) Observe(_ context.Context, tx *index.WriteTx, changes []index.ForgeChange) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.txs = append(r.txs, tx)
	for _, c := range changes {
		r.heights = append(r.heights, c.Height)
	}
	return nil
}

func (r *batchRecorder) Projected() {
	r.mu.Lock()
	r.projected++
	r.mu.Unlock()
}

// A projection behind the chain writes the blocks it lags by a batch at a
// time: fewer transactions than blocks, every change observed once and in
// order, and the same projection as the one that followed block by block.
func TestBehindProjectionWritesBlocksInBatches(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		alice := newWallet().addr
		op, ch, live := liveIndex(t, dsn)
		forgeAct(t, op, ch, live, alice, "repo.create", map[string]any{"name": "x"})
		const issues = 40
		for i := range issues {
			forgeAct(t, op, ch, live, alice, "issue.create", map[string]any{"repo": 1, "title": fmt.Sprint("issue ", i)})
		}

		behindStore := openStore(t, freshDatabase(t, name))
		defer behindStore.Close()
		behind := index.New(quiet, behindStore, ch.Client())
		rec := &batchRecorder{}
		behind.ObserveForge(rec)
		if err := behind.Sync(ctx); err != nil {
			t.Fatal(err)
		}

		distinct := map[*index.WriteTx]bool{}
		for _, tx := range rec.txs {
			distinct[tx] = true
		}
		if len(rec.heights) != issues+1 || len(distinct) >= issues/2 || rec.projected != len(distinct) {
			t.Fatalf("%d changes observed in %d transactions (%d told projected); want %d changes in a few batches, each told once",
				len(rec.heights), len(distinct), rec.projected, issues+1)
		}
		for i := 1; i < len(rec.heights); i++ {
			if rec.heights[i] < rec.heights[i-1] {
				t.Fatalf("changes observed out of order: heights %v", rec.heights)
			}
		}
		if behind.Height() < rec.heights[len(rec.heights)-1] {
			t.Fatalf("projected height %d, want at least %d", behind.Height(), rec.heights[len(rec.heights)-1])
		}
		want, wantTotal, err := live.Issues(ctx, 1, index.IssueFilter{}, index.Page{Number: 1, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		got, total, err := behind.Issues(ctx, 1, index.IssueFilter{}, index.Page{Number: 1, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if total != wantTotal || total != issues || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("issues projected in batches: %d, want the %d projected block by block", total, wantTotal)
		}
	})
}
