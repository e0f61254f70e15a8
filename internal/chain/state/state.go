// Package state is the chain's authenticated key-value store: an IAVL tree
// whose root hash is the app hash CometBFT agrees on. Writes go to a working
// version that Commit saves; nothing here reads a clock or ranges over a map.
//
// Modules read and write it through KV (kv.go), one transaction at a time
// on an Overlay, with the typed helpers there (GetUint64, GetJSON, ...)
// that fix how numbers and records are encoded.
package state

import (
	"fmt"
	"path/filepath"
	"sync/atomic"

	"github.com/cosmos/iavl"
	idb "github.com/cosmos/iavl/db"
)

// cacheSize is the number of IAVL nodes kept in memory; readerCacheSize
// is the queries' share (the top of the tree, which every read walks).
const (
	cacheSize       = 100_000
	readerCacheSize = 20_000
)

// Store is the IAVL-backed state of the chain.
type Store struct {
	tree *iavl.MutableTree
	db   idb.DB
	// reader opens committed versions for At. It is a second tree over the
	// same database, with its own node cache: the working tree's writes
	// clear child pointers in cached nodes its committed versions share
	// (Node.clone), so reading those beside a block would race.
	reader *iavl.MutableTree
	// committed mirrors the last committed version for readers on other
	// goroutines (At).
	committed atomic.Int64
}

// Open loads the latest committed version stored in dir (created if new).
func Open(dir string) (*Store, error) {
	db, err := idb.NewGoLevelDB("state", filepath.Clean(dir))
	if err != nil {
		return nil, fmt.Errorf("open state db: %w", err)
	}
	return load(db)
}

// OpenMemory returns an empty store kept in memory, for tests and benchmarks.
func OpenMemory() *Store {
	s, err := load(idb.NewMemDB())
	if err != nil {
		panic(fmt.Sprintf("state: empty memory store: %v", err)) // cannot fail on an empty db
	}
	return s
}

func load(db idb.DB) (*Store, error) {
	tree := iavl.NewMutableTree(db, cacheSize, true, iavl.NewNopLogger())
	if _, err := tree.Load(); err != nil {
		db.Close()
		return nil, fmt.Errorf("load state tree: %w", err)
	}
	reader := iavl.NewMutableTree(db, readerCacheSize, true, iavl.NewNopLogger())
	s := &Store{tree: tree, db: db, reader: reader}
	s.committed.Store(tree.Version())
	return s, nil
}

// Get reads key from the working version; a missing key gives nil.
func (s *Store) Get(key []byte) ([]byte, error) {
	v, err := s.tree.Get(key)
	if err != nil {
		return nil, fmt.Errorf("get %x: %w", key, err)
	}
	return v, nil
}

// Set writes key in the working version.
func (s *Store) Set(key, value []byte) error {
	if _, err := s.tree.Set(key, value); err != nil {
		return fmt.Errorf("set %x: %w", key, err)
	}
	return nil
}

// Scan calls fn for each key starting with prefix in the working
// version, in key order, until fn returns an error. fn must not write.
func (s *Store) Scan(prefix []byte, fn func(key, value []byte) error) error {
	it, err := s.tree.Iterator(prefix, prefixEnd(prefix), true)
	if err != nil {
		return fmt.Errorf("scan %x: %w", prefix, err)
	}
	defer it.Close()
	for ; it.Valid(); it.Next() {
		if err := fn(it.Key(), it.Value()); err != nil {
			return err
		}
	}
	return it.Error()
}

// prefixEnd is the first key after every key starting with prefix (nil:
// no end).
func prefixEnd(prefix []byte) []byte {
	end := append([]byte(nil), prefix...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// Commit saves the working version and returns its root hash (the app hash).
func (s *Store) Commit() ([]byte, int64, error) {
	hash, version, err := s.tree.SaveVersion()
	if err != nil {
		return nil, 0, fmt.Errorf("save state version: %w", err)
	}
	s.committed.Store(version)
	return hash, version, nil
}

// WorkingHash is the root hash the working version would commit with.
func (s *Store) WorkingHash() []byte { return s.tree.WorkingHash() }

// Hash is the root hash of the last committed version.
func (s *Store) Hash() []byte { return s.tree.Hash() }

// Version is the last committed version (the block height).
func (s *Store) Version() int64 { return s.tree.Version() }

// Close releases the database.
func (s *Store) Close() error { return s.db.Close() }
