package state

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// KV is the state a module reads and writes: the Store itself, or an
// Overlay over it for one transaction. Every module takes this one
// interface. The store has no delete: a module that releases a key writes
// its own marker value there.
type KV interface {
	Reader
	Writer
}

// Scanner reads a range of keys in order (Store.Scan).
type Scanner interface {
	Scan(prefix []byte, fn func(key, value []byte) error) error
}

// ErrCorrupt is a stored value that does not decode as its key's type,
// which only a bug or a damaged store can cause.
var ErrCorrupt = errors.New("corrupt value")

// Uint64 is n as the state stores every counter, amount and id: 8 bytes,
// big-endian.
func Uint64(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// ParseUint64 decodes a value Uint64 encoded; ok is false for a value of
// any other length.
func ParseUint64(v []byte) (n uint64, ok bool) {
	if len(v) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(v), true
}

// GetUint64 reads the number at key; a missing key is 0.
func GetUint64(kv Reader, key []byte) (uint64, error) {
	v, err := kv.Get(key)
	if err != nil || v == nil {
		return 0, err
	}
	n, ok := ParseUint64(v)
	if !ok {
		return 0, fmt.Errorf("%w at %q", ErrCorrupt, key)
	}
	return n, nil
}

// SetUint64 writes n at key.
func SetUint64(kv Writer, key []byte, n uint64) error { return kv.Set(key, Uint64(n)) }

// GetJSON decodes the JSON value at key into dst and reports whether the
// key was set.
func GetJSON(kv Reader, key []byte, dst any) (bool, error) {
	raw, err := kv.Get(key)
	if err != nil || raw == nil {
		return false, err
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return false, fmt.Errorf("decode %q: %w", key, err)
	}
	return true, nil
}

// SetJSON writes v at key as JSON (encoding/json's, whose output for a
// given value never changes: struct fields in order, map keys sorted).
func SetJSON(kv Writer, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return kv.Set(key, raw)
}
