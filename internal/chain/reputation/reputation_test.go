package reputation_test

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/reputation"
	"github.com/dforge/dforge/internal/chain/state"
)

func TestDecay(t *testing.T) {
	cases := []struct{ score, bps, epochs, want uint64 }{
		{1000, 200, 0, 1000},
		{1000, 200, 1, 980},
		{1000, 200, 2, 960}, // 1000 × 0.98² = 960.4
		{1000, 5000, 3, 125},
		{1000, 10000, 1, 0},
		{1000, 0, 99, 1000},
		{1 << 62, 1, 1 << 40, 0},
		{1_000_000, 200, 35, 493_074}, // 0.98^35 × 10^6 = 493,074.62
	}
	for _, c := range cases {
		if got := reputation.Decay(c.score, c.bps, c.epochs); got != c.want {
			t.Errorf("Decay(%d, %d, %d) = %d, want %d", c.score, c.bps, c.epochs, got, c.want)
		}
	}
}

func TestMultiplierRisesAndIsCapped(t *testing.T) {
	p := params.DefaultReputation() // 10 bps a point, at most 2.0x
	for _, c := range []struct{ score, want uint64 }{{0, 10_000}, {1, 10_010}, {500, 15_000}, {1000, 20_000}, {5000, 20_000}, {1 << 63, 20_000}} {
		if got := reputation.Multiplier(p, c.score); got != c.want {
			t.Errorf("Multiplier(%d) = %d, want %d", c.score, got, c.want)
		}
	}
	p.MaxMultiplierBps = 90_000 // above the hard ceiling
	if got := reputation.Multiplier(p, 1<<40); got != params.MaxMultiplierCap {
		t.Errorf("the multiplier went past 2.0x: %d", got)
	}
}

func TestScoreDecaysPerEpochAndKeepsItsHistory(t *testing.T) {
	kv := state.OpenMemory()
	p := params.DefaultReputation()
	alice := common.HexToAddress("0xa1")
	step := func(h uint64) {
		t.Helper()
		if _, err := reputation.AdvanceEpoch(kv, h, 10); err != nil {
			t.Fatal(err)
		}
	}
	step(1) // epoch 0 from height 1
	if _, err := reputation.Add(kv, p, alice, 2, 1000); err != nil {
		t.Fatal(err)
	}
	step(11) // epoch 1
	step(15)
	step(21) // epoch 2
	if e, _ := reputation.Epoch(kv); e != 2 {
		t.Fatalf("epoch %d, want 2", e)
	}
	if s, _ := reputation.Score(kv, p, alice); s != 960 {
		t.Fatalf("score after two epochs %d, want 960", s)
	}
	for _, c := range []struct{ height, want uint64 }{{2, 0}, {3, 1000}, {11, 1000}, {12, 980}, {22, 960}} {
		if got, _ := reputation.ScoreBefore(kv, p, alice, c.height); got != c.want {
			t.Errorf("ScoreBefore(%d) = %d, want %d", c.height, got, c.want)
		}
	}
}
