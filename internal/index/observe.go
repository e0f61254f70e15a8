package index

import (
	"context"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// ForgeChange is one applied forge action as the projection wrote it.
type ForgeChange struct {
	Change  forge.Change
	Height  int64 // the block's height, or the private store's sequence number
	TimeNS  int64 // the block's time
	Private bool  // from the node's private store, not the chain
	// Before is what an edit changed from (readBefore); nil for changes
	// that are not edits of an issue or of review requests.
	Before *Before
}

// ForgeObserver sees every forge action the index projects, chain and
// private store alike, without the index knowing who it is (webhooks sit
// above the index). Observe runs inside the SQL transaction that projects
// the changes, after they are written, so what it records commits with
// them or not at all: a crash between a block and its observers cannot
// happen. Projected runs after that transaction commits. A rebuild
// (`dforge reindex`) builds its own index and registers no observer.
type ForgeObserver interface {
	Observe(ctx context.Context, tx *WriteTx, changes []ForgeChange) error
	Projected()
}

// ObserveForge registers o; call it before Run and ProjectPrivate.
func (ix *Index) ObserveForge(o ForgeObserver) {
	ix.observers = append(ix.observers, o)
}

// observe hands the projected changes to the observers, in the projecting
// transaction.
func (ix *Index) observe(ctx context.Context, tx *readdb.WriteTx, changes []forgeChange, private bool) error {
	if len(ix.observers) == 0 || len(changes) == 0 {
		return nil
	}
	out := make([]ForgeChange, len(changes))
	for i, c := range changes {
		out[i] = ForgeChange{Change: c.change, Height: c.height, TimeNS: c.timeNS, Private: private, Before: c.before}
	}
	for _, o := range ix.observers {
		if err := o.Observe(ctx, tx, out); err != nil {
			return err
		}
	}
	return nil
}

// projected tells the observers a transaction that held forge changes
// committed.
func (ix *Index) projected(n int) {
	if n == 0 {
		return
	}
	for _, o := range ix.observers {
		o.Projected()
	}
}

// WriteTx is the projection's write transaction as observers get it: it
// notes the tables they write, so the read cache moves on only those
// (readdb/cache.go).
type WriteTx = readdb.WriteTx
