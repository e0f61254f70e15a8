// Package private is a node's private forge store: private repositories
// and everything in them, kept by the same forge module as the chain's
// public state but applied by this node alone, in sequence, to its own
// IAVL store (<data>/private). Nothing here goes on chain. Every applied
// action is kept in a log, so the SQL projection can be rebuilt from it.
package private

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/state"
)

// Store is the private forge store.
type Store struct {
	mu sync.Mutex
	st *state.Store
}

// Entry is one applied action: its sequence number (the store's version,
// which stands for a height), when it was applied and what it changed.
type Entry struct {
	Seq    uint64       `json:"seq"`
	TimeNS int64        `json:"timeNs"`
	Change forge.Change `json:"change"`
}

var seqKey = []byte("private/seq")

func logKey(seq uint64) []byte { return binary.BigEndian.AppendUint64([]byte("private/log/"), seq) }

// Open opens the store in dir, creating it when new.
func Open(dir string) (*Store, error) {
	st, err := state.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open private forge store: %w", err)
	}
	return &Store{st: st}, nil
}

// OpenMemory is an empty store in memory, for tests.
func OpenMemory() *Store { return &Store{st: state.OpenMemory()} }

// Refs lists a private repository's refs.
func (s *Store) Refs(repo uint64) ([]forge.Ref, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return forge.Refs(s.st, repo)
}

// Close releases the store.
func (s *Store) Close() error { return s.st.Close() }

// Seq is the last applied entry's sequence number (0 for none).
func (s *Store) Seq() (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq()
}

func (s *Store) seq() (uint64, error) {
	v, err := s.st.Get(seqKey)
	if err != nil || len(v) != 8 {
		return 0, err
	}
	return binary.BigEndian.Uint64(v), nil
}

// Apply applies one action for actor at timeNS and commits it with its log
// entry. A refused action (a *tx.Error, as on chain) changes nothing.
func (s *Store) Apply(actor common.Address, action, payload string, timeNS int64) (Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	last, err := s.seq()
	if err != nil {
		return Entry{}, fmt.Errorf("read the sequence: %w", err)
	}
	e := Entry{Seq: last + 1, TimeNS: timeNS}
	o := state.NewOverlay(s.st)
	if e.Change, err = forge.ApplyChange(o, forge.Env{Height: e.Seq, Private: true}, actor, action, payload); err != nil {
		return Entry{}, fmt.Errorf("apply %s: %w", action, err)
	}
	raw, err := json.Marshal(e)
	if err != nil {
		return Entry{}, fmt.Errorf("encode private entry: %w", err)
	}
	if err := o.Set(logKey(e.Seq), raw); err != nil {
		return Entry{}, fmt.Errorf("write private entry %d: %w", e.Seq, err)
	}
	if err := o.Set(seqKey, binary.BigEndian.AppendUint64(nil, e.Seq)); err != nil {
		return Entry{}, fmt.Errorf("write the sequence: %w", err)
	}
	if err := o.Flush(s.st); err != nil {
		return Entry{}, fmt.Errorf("write private entry %d: %w", e.Seq, err)
	}
	if _, _, err := s.st.Commit(); err != nil {
		return Entry{}, fmt.Errorf("commit private entry %d: %w", e.Seq, err)
	}
	return e, nil
}

// Log returns the entries after seq, oldest first, at most limit of them.
func (s *Store) Log(after uint64, limit int) ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	last, err := s.seq()
	if err != nil {
		return nil, fmt.Errorf("read the sequence: %w", err)
	}
	var out []Entry
	for seq := after + 1; seq <= last && len(out) < limit; seq++ {
		raw, err := s.st.Get(logKey(seq))
		if err != nil {
			return nil, fmt.Errorf("read private entry %d: %w", seq, err)
		}
		var e Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("decode private entry %d: %w", seq, err)
		}
		out = append(out, e)
	}
	return out, nil
}
