package node

import (
	"errors"
	"testing"
	"time"

	dbm "github.com/cometbft/cometbft-db"
)

// A write that comes after the indexer's database closed is an error the
// indexer logs, where pebble itself panics ("pebble: closed"); a close
// waits for an iterator still open.
func TestGatedDBClosesAfterUsersAndRefusesLateWrites(t *testing.T) {
	raw, err := dbm.NewPebbleDB("tx_index", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := newGatedDB(raw)
	if err := g.Set([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	it, err := g.Iterator(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	late := g.NewBatch()
	_ = late.Set([]byte("late"), []byte("v"))

	closed := make(chan error, 1)
	go func() { closed <- g.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("closed (%v) under an open iterator", err)
	case <-time.After(50 * time.Millisecond):
	}
	if !it.Valid() || string(it.Key()) != "k" {
		t.Fatal("the open iterator lost its position")
	}
	if _, err := g.Get([]byte("k")); !errors.Is(err, errGateClosed) {
		t.Fatalf("get while closing = %v, want errGateClosed", err)
	}
	_ = it.Close()
	if err := <-closed; err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := late.WriteSync(); !errors.Is(err, errGateClosed) {
		t.Fatalf("batch write after close = %v, want errGateClosed", err)
	}
	_ = late.Close()
	if err := g.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
}

// CometBFT's consensus reactor may read the block store from a peer's
// goroutine after OnStop closed it, and panics on a read error; for the
// stores it closes, a read after close finds nothing instead, and reads
// racing the close never reach a closed pebble.
func TestStoppingStoreReadsNothingAfterClose(t *testing.T) {
	raw, err := dbm.NewPebbleDB("blockstore", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := newStoppingStoreDB(raw)
	if err := g.Set([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	readers := make(chan error, 4)
	for range 4 {
		go func() {
			for {
				select {
				case <-stop:
					readers <- nil
					return
				default:
				}
				if _, err := g.Get([]byte("k")); err != nil {
					readers <- err
					return
				}
			}
		}()
	}
	time.Sleep(10 * time.Millisecond)
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatalf("a second close (OnStop, then ours): %v", err)
	}
	close(stop)
	for range 4 {
		if err := <-readers; err != nil {
			t.Fatalf("a read racing the close: %v", err)
		}
	}
	v, err := g.Get([]byte("k"))
	if v != nil || err != nil {
		t.Fatalf("Get after close = %q, %v; want nothing found", v, err)
	}
	if ok, err := g.Has([]byte("k")); ok || err != nil {
		t.Fatalf("Has after close = %v, %v; want false", ok, err)
	}
}
