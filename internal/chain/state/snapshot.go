package state

import (
	"errors"
	"fmt"

	"github.com/cosmos/iavl"
	ics23 "github.com/cosmos/ics23/go"
)

// ErrReadOnly is a write to a Snapshot.
var ErrReadOnly = errors.New("state snapshot is read-only")

// ErrNoVersion is a snapshot of a version the store does not hold.
var ErrNoVersion = errors.New("no such committed version")

// Snapshot is one committed version of the state, read-only. It reads
// saved nodes through the store's reader tree only, so it is safe while a
// block executes on the working version (queries run on their own
// goroutines).
type Snapshot struct {
	tree    *iavl.ImmutableTree
	version int64
}

// Committed is the last committed version, safe to call from any
// goroutine (Version reads the working tree's field, which Commit writes).
func (s *Store) Committed() int64 { return s.committed.Load() }

// At returns committed version v; 0 means the last committed one.
func (s *Store) At(v int64) (*Snapshot, error) {
	last := s.Committed()
	if v == 0 {
		v = last
	}
	if v <= 0 || v > last {
		return nil, fmt.Errorf("%w: %d (the last is %d)", ErrNoVersion, v, last)
	}
	tree, err := s.reader.GetImmutable(v)
	if errors.Is(err, iavl.ErrVersionDoesNotExist) {
		return nil, fmt.Errorf("%w: %d", ErrNoVersion, v)
	}
	if err != nil {
		return nil, fmt.Errorf("load version %d: %w", v, err)
	}
	return &Snapshot{tree: tree, version: v}, nil
}

// Version is the block height the snapshot was committed at.
func (s *Snapshot) Version() int64 { return s.version }

// Hash is the snapshot's root: the app hash in the header of block
// Version()+1.
func (s *Snapshot) Hash() []byte { return s.tree.Hash() }

// Get reads key; a missing key gives nil.
func (s *Snapshot) Get(key []byte) ([]byte, error) {
	v, err := s.tree.Get(key)
	if err != nil {
		return nil, fmt.Errorf("get %x at version %d: %w", key, s.version, err)
	}
	return v, nil
}

// Set refuses: modules take a KV, and a snapshot must never change.
func (s *Snapshot) Set([]byte, []byte) error { return ErrReadOnly }

// Proof is an ICS-23 proof that key holds its value in this version, or
// that it is absent, against Hash(), as Cosmos SDK stores give.
func (s *Snapshot) Proof(key []byte) (*ics23.CommitmentProof, error) {
	p, err := s.tree.GetProof(key)
	if err != nil {
		return nil, fmt.Errorf("prove %x at version %d: %w", key, s.version, err)
	}
	return p, nil
}
