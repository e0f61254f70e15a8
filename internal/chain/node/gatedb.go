package node

import (
	"errors"
	"sync"
	"time"

	dbm "github.com/cometbft/cometbft-db"
)

// errGateClosed is what an operation on a closed gatedDB returns.
var errGateClosed = errors.New("database closed: the node is stopping")

// closeWait bounds how long Close waits for operations in flight. Every
// user of the indexer's database ends its operations within milliseconds;
// this only keeps a leaked iterator from hanging a stop forever.
const closeWait = 10 * time.Second

// gatedDB guards a database that goroutines CometBFT does not wait for keep
// using after Node.OnStop: the indexer service writes each block's events
// from its own goroutine, and RPC handlers (tx_search) may still iterate.
// Pebble panics on any use after Close ("pebble: closed"), which in those
// goroutines would crash the process. So every operation (an iterator from
// its creation to its Close) holds a lease; Close refuses new leases, waits
// for the held ones and only then closes; an operation after that gets
// errGateClosed, which the indexer logs.
type gatedDB struct {
	dbm.DB
	// readsAfterCloseFind is set on the stores CometBFT closes itself (block,
	// state, evidence): its consensus reactor's per-peer goroutines
	// (queryMaj23Routine) may read the block store after OnStop closed it, and
	// panic on any read error. For them a read after close finds nothing,
	// which those goroutines already take as "nothing to send".
	readsAfterCloseFind bool

	mu       sync.Mutex
	closed   bool
	inflight int
	idle     chan struct{} // closed when inflight drops to 0 after Close began
}

func newGatedDB(db dbm.DB) *gatedDB { return &gatedDB{DB: db} }

// newStoppingStoreDB gates one of the stores CometBFT's OnStop closes.
func newStoppingStoreDB(db dbm.DB) *gatedDB { return &gatedDB{DB: db, readsAfterCloseFind: true} }

func (g *gatedDB) acquire() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errGateClosed
	}
	g.inflight++
	return nil
}

func (g *gatedDB) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inflight--
	if g.inflight == 0 && g.idle != nil {
		close(g.idle)
		g.idle = nil
	}
}

// Close waits (up to closeWait) for the operations in flight, then closes
// the database. A second Close is a no-op.
func (g *gatedDB) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	var idle chan struct{}
	if g.inflight > 0 {
		idle = make(chan struct{})
		g.idle = idle
	}
	g.mu.Unlock()
	if idle != nil {
		select {
		case <-idle:
		case <-time.After(closeWait):
		}
	}
	return g.DB.Close()
}

// guard runs op under a lease.
func guard[T any](g *gatedDB, op func() (T, error)) (T, error) {
	if err := g.acquire(); err != nil {
		var zero T
		return zero, err
	}
	defer g.release()
	return op()
}

func (g *gatedDB) do(op func() error) error {
	_, err := guard(g, func() (struct{}, error) { return struct{}{}, op() })
	return err
}

func (g *gatedDB) Get(k []byte) ([]byte, error) {
	v, err := guard(g, func() ([]byte, error) { return g.DB.Get(k) })
	if errors.Is(err, errGateClosed) && g.readsAfterCloseFind {
		return nil, nil
	}
	return v, err
}

func (g *gatedDB) Has(k []byte) (bool, error) {
	ok, err := guard(g, func() (bool, error) { return g.DB.Has(k) })
	if errors.Is(err, errGateClosed) && g.readsAfterCloseFind {
		return false, nil
	}
	return ok, err
}

func (g *gatedDB) Set(k, v []byte) error     { return g.do(func() error { return g.DB.Set(k, v) }) }
func (g *gatedDB) SetSync(k, v []byte) error { return g.do(func() error { return g.DB.SetSync(k, v) }) }
func (g *gatedDB) Delete(k []byte) error     { return g.do(func() error { return g.DB.Delete(k) }) }
func (g *gatedDB) DeleteSync(k []byte) error { return g.do(func() error { return g.DB.DeleteSync(k) }) }
func (g *gatedDB) Compact(s, e []byte) error { return g.do(func() error { return g.DB.Compact(s, e) }) }
func (g *gatedDB) Print() error              { return g.do(g.DB.Print) }

func (g *gatedDB) Iterator(start, end []byte) (dbm.Iterator, error) {
	return g.iterator(func() (dbm.Iterator, error) { return g.DB.Iterator(start, end) })
}

func (g *gatedDB) ReverseIterator(start, end []byte) (dbm.Iterator, error) {
	return g.iterator(func() (dbm.Iterator, error) { return g.DB.ReverseIterator(start, end) })
}

// iterator holds a lease until the iterator is closed: its Next and Key
// read the database too, and return no error to gate.
func (g *gatedDB) iterator(open func() (dbm.Iterator, error)) (dbm.Iterator, error) {
	if err := g.acquire(); err != nil {
		return nil, err
	}
	it, err := open()
	if err != nil {
		g.release()
		return nil, err
	}
	return &gatedIterator{Iterator: it, release: sync.OnceFunc(g.release)}, nil
}

func (g *gatedDB) NewBatch() dbm.Batch { return &gatedBatch{Batch: g.DB.NewBatch(), g: g} }

type gatedIterator struct {
	dbm.Iterator
	release func()
}

func (it *gatedIterator) Close() error {
	defer it.release()
	return it.Iterator.Close()
}

// gatedBatch leases only around the writes that reach the database; Set
// and Delete fill the batch in memory.
type gatedBatch struct {
	dbm.Batch
	g *gatedDB
}

func (b *gatedBatch) Write() error     { return b.g.do(b.Batch.Write) }
func (b *gatedBatch) WriteSync() error { return b.g.do(b.Batch.WriteSync) }
