// Package checkpoint keeps a value's history in chain state, so a rule can
// ask what the value was at the start of a past block (a proposal's stake
// snapshot) without copying every account when the snapshot is taken.
//
// A list under prefix is append-only:
//
//	<prefix>/n      how many entries
//	<prefix>/<i>    height (8 bytes) ‖ a (8) ‖ b (8), i big-endian
//
// Heights never decrease; a second write in the same block replaces that
// block's entry.
package checkpoint

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dforge/dforge/internal/chain/state"
)

// Entry is the value (a pair, for callers that need two numbers) from
// Height on.
type Entry struct {
	Height uint64
	A, B   uint64
}

func countKey(prefix []byte) []byte { return append(append([]byte{}, prefix...), "/n"...) }
func entryKey(prefix []byte, i uint64) []byte {
	return binary.BigEndian.AppendUint64(append(append([]byte{}, prefix...), '/'), i)
}

func count(kv state.KV, prefix []byte) (uint64, error) {
	n, err := state.GetUint64(kv, countKey(prefix))
	if errors.Is(err, state.ErrCorrupt) {
		return 0, fmt.Errorf("checkpoint %s: corrupt count", prefix)
	}
	return n, err
}

func entry(kv state.KV, prefix []byte, i uint64) (Entry, error) {
	v, err := kv.Get(entryKey(prefix, i))
	if err != nil {
		return Entry{}, err
	}
	if len(v) != 24 {
		return Entry{}, fmt.Errorf("checkpoint %s/%d: corrupt entry", prefix, i)
	}
	return Entry{Height: binary.BigEndian.Uint64(v), A: binary.BigEndian.Uint64(v[8:]), B: binary.BigEndian.Uint64(v[16:])}, nil
}

// Record sets the value from e.Height on.
func Record(kv state.KV, prefix []byte, e Entry) error {
	n, err := count(kv, prefix)
	if err != nil {
		return err
	}
	i := n
	if n > 0 {
		last, err := entry(kv, prefix, n-1)
		if err != nil {
			return err
		}
		if last.Height > e.Height {
			return fmt.Errorf("checkpoint %s: height %d is before the last entry's %d", prefix, e.Height, last.Height)
		}
		if last.Height == e.Height {
			i = n - 1
		}
	}
	v := binary.BigEndian.AppendUint64(nil, e.Height)
	v = binary.BigEndian.AppendUint64(v, e.A)
	v = binary.BigEndian.AppendUint64(v, e.B)
	if err := kv.Set(entryKey(prefix, i), v); err != nil {
		return err
	}
	if i == n {
		return state.SetUint64(kv, countKey(prefix), n+1)
	}
	return nil
}

// Before returns the last entry recorded before height (the value at the
// start of that block); ok is false when there is none.
func Before(kv state.KV, prefix []byte, height uint64) (e Entry, ok bool, err error) {
	n, err := count(kv, prefix)
	if err != nil || n == 0 {
		return Entry{}, false, err
	}
	// Binary search for the first entry at or after height.
	lo, hi := uint64(0), n
	for lo < hi {
		mid := lo + (hi-lo)/2
		m, err := entry(kv, prefix, mid)
		if err != nil {
			return Entry{}, false, err
		}
		if m.Height < height {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return Entry{}, false, nil
	}
	e, err = entry(kv, prefix, lo-1)
	return e, err == nil, err
}

// Last returns the latest entry; ok is false when there is none.
func Last(kv state.KV, prefix []byte) (Entry, bool, error) {
	n, err := count(kv, prefix)
	if err != nil || n == 0 {
		return Entry{}, false, err
	}
	e, err := entry(kv, prefix, n-1)
	return e, err == nil, err
}
