package state_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/dforge/dforge/internal/chain/state"
)

// The encodings are part of consensus: every module's counters, amounts and
// ids are 8 bytes big-endian, and JSON values are encoding/json's output.
func TestTypedHelpersKeepTheEncodings(t *testing.T) {
	kv := state.OpenMemory()
	if n, err := state.GetUint64(kv, []byte("missing")); n != 0 || err != nil {
		t.Fatalf("missing key = %d, %v; want 0, nil", n, err)
	}
	if err := state.SetUint64(kv, []byte("n"), 0x0102030405060708); err != nil {
		t.Fatal(err)
	}
	if v, _ := kv.Get([]byte("n")); !bytes.Equal(v, []byte{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("stored %x, want 0102030405060708", v)
	}
	if n, err := state.GetUint64(kv, []byte("n")); n != 0x0102030405060708 || err != nil {
		t.Fatalf("read back %x, %v", n, err)
	}
	kv.Set([]byte("short"), []byte{0})
	if _, err := state.GetUint64(kv, []byte("short")); !errors.Is(err, state.ErrCorrupt) || err.Error() != `corrupt value at "short"` {
		t.Fatalf("a 1-byte value gives %v", err)
	}
	if _, ok := state.ParseUint64([]byte{0}); ok {
		t.Fatal("ParseUint64 accepted a 1-byte value")
	}

	type rec struct {
		B string            `json:"b"`
		A uint64            `json:"a"`
		M map[string]string `json:"m"`
	}
	if err := state.SetJSON(kv, []byte("j"), rec{B: "x", A: 7, M: map[string]string{"z": "1", "a": "2"}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := kv.Get([]byte("j")); string(v) != `{"b":"x","a":7,"m":{"a":"2","z":"1"}}` {
		t.Fatalf("stored %s", v)
	}
	var got rec
	if ok, err := state.GetJSON(kv, []byte("j"), &got); !ok || err != nil || got.A != 7 || got.M["z"] != "1" {
		t.Fatalf("read back %+v %v %v", got, ok, err)
	}
	if ok, err := state.GetJSON(kv, []byte("none"), &got); ok || err != nil {
		t.Fatalf("missing JSON key = %v, %v", ok, err)
	}
}
