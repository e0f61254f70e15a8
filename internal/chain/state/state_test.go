package state_test

import (
	"bytes"
	"testing"

	"github.com/dforge/dforge/internal/chain/state"
)

func TestCommitPersistsAndHashesDeterministically(t *testing.T) {
	dir := t.TempDir()
	s, err := state.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"b", "2"}, {"a", "1"}} {
		if err := s.Set([]byte(kv[0]), []byte(kv[1])); err != nil {
			t.Fatal(err)
		}
	}
	hash, version, err := s.Commit()
	if err != nil || version != 1 || len(hash) != 32 {
		t.Fatalf("commit = %x %d %v", hash, version, err)
	}
	s.Close()

	// The same writes in the same order on another store give the same hash.
	m := state.OpenMemory()
	m.Set([]byte("b"), []byte("2"))
	m.Set([]byte("a"), []byte("1"))
	if h, _, _ := m.Commit(); !bytes.Equal(h, hash) {
		t.Fatalf("same writes, different hash: %x vs %x", h, hash)
	}

	s, err = state.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Version() != 1 || !bytes.Equal(s.Hash(), hash) {
		t.Fatalf("reopened at version %d hash %x, want 1 %x", s.Version(), s.Hash(), hash)
	}
	if v, _ := s.Get([]byte("a")); string(v) != "1" {
		t.Fatalf("a = %q after reopen", v)
	}
}

func TestOverlayDoesNotTouchBase(t *testing.T) {
	base := state.OpenMemory()
	base.Set([]byte("k"), []byte("base"))
	o := state.NewOverlay(base)
	o.Set([]byte("k"), []byte("pending"))
	if v, _ := o.Get([]byte("k")); string(v) != "pending" {
		t.Fatalf("overlay reads %q", v)
	}
	if v, _ := base.Get([]byte("k")); string(v) != "base" {
		t.Fatalf("base changed to %q", v)
	}
}

func TestOverlayFlushesInWriteOrder(t *testing.T) {
	direct := state.OpenMemory()
	viaOverlay := state.OpenMemory()
	o := state.NewOverlay(viaOverlay)
	for _, k := range []string{"z", "a", "m", "a"} {
		direct.Set([]byte(k), []byte("v-"+k))
		o.Set([]byte(k), []byte("v-"+k))
	}
	if err := o.Flush(viaOverlay); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(direct.WorkingHash(), viaOverlay.WorkingHash()) {
		t.Fatal("flushing an overlay must give the same tree as writing directly")
	}
}
