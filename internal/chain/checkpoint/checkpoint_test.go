package checkpoint_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/checkpoint"
	"github.com/dforge/dforge/internal/chain/state"
)

func TestBeforeIsTheValueAtTheStartOfABlock(t *testing.T) {
	kv := state.OpenMemory()
	p := []byte("test/stake/a")
	if _, ok, err := checkpoint.Before(kv, p, 10); ok || err != nil {
		t.Fatalf("empty list: ok=%v err=%v", ok, err)
	}
	for _, e := range []checkpoint.Entry{{Height: 3, A: 30}, {Height: 5, A: 50}, {Height: 5, A: 55}, {Height: 9, A: 90}} {
		if err := checkpoint.Record(kv, p, e); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		height uint64
		want   uint64
		ok     bool
	}{{1, 0, false}, {3, 0, false}, {4, 30, true}, {5, 30, true}, {6, 55, true}, {9, 55, true}, {10, 90, true}, {1 << 40, 90, true}}
	for _, c := range cases {
		e, ok, err := checkpoint.Before(kv, p, c.height)
		if err != nil || ok != c.ok || e.A != c.want {
			t.Errorf("Before(%d) = %d, %v, %v; want %d, %v", c.height, e.A, ok, err, c.want, c.ok)
		}
	}
	if err := checkpoint.Record(kv, p, checkpoint.Entry{Height: 8, A: 1}); err == nil {
		t.Fatal("a height before the last entry was accepted")
	}
	if last, ok, _ := checkpoint.Last(kv, p); !ok || last.A != 90 || last.Height != 9 {
		t.Fatalf("Last = %+v, %v", last, ok)
	}
}
