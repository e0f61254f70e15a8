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
