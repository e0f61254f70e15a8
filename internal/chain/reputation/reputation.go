// Package reputation is the chain module for contributors' reputation: an
// integer score per account, earned from rewarded contributions and
// decaying by a share each epoch, and the multiplier (1.0x to 2.0x in
// basis points) it gives rewards and voting power.
//
// Decay is applied when a score is read, from the epoch it was last
// written in, so an epoch boundary writes nothing. A score's history is a
// checkpoint list, so voting power can use the score at a proposal's
// snapshot:
//
//	rep/<addr>      checkpoint list: A = score as of epoch B
//	rep/epoch       checkpoint list: A = the epoch from that height on
//	rep/epochstart  the height the current epoch began at
package reputation

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/checkpoint"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/state"
)

func scoreKey(a common.Address) []byte { return append([]byte("rep/"), a.Bytes()...) }

var (
	epochKey      = []byte("rep/epoch")
	epochStartKey = []byte("rep/epochstart")
)

// AdvanceEpoch starts a new epoch at height when the current one has
// lasted epochBlocks; it runs at the start of every block and reports
// whether an epoch began. Epochs are counted, not derived from the height,
// so a change of epochBlocks never renumbers past epochs.
func AdvanceEpoch(kv state.KV, height, epochBlocks uint64) (bool, error) {
	start, err := state.GetUint64(kv, epochStartKey)
	if err != nil {
		return false, err
	}
	if start == 0 { // the first block the module sees opens epoch 0
		return false, state.SetUint64(kv, epochStartKey, height)
	}
	if height-start < epochBlocks {
		return false, nil
	}
	cur, err := Epoch(kv)
	if err != nil {
		return false, err
	}
	if err := checkpoint.Record(kv, epochKey, checkpoint.Entry{Height: height, A: cur + 1}); err != nil {
		return false, err
	}
	return true, state.SetUint64(kv, epochStartKey, height)
}

// Epoch is the current epoch.
func Epoch(kv state.KV) (uint64, error) {
	e, _, err := checkpoint.Last(kv, epochKey)
	return e.A, err
}

// EpochBefore is the epoch at the start of block height.
func EpochBefore(kv state.KV, height uint64) (uint64, error) {
	e, _, err := checkpoint.Before(kv, epochKey, height)
	return e.A, err
}

// Score is a's reputation now.
func Score(kv state.KV, p params.Reputation, a common.Address) (uint64, error) {
	e, ok, err := checkpoint.Last(kv, scoreKey(a))
	if err != nil || !ok {
		return 0, err
	}
	now, err := Epoch(kv)
	if err != nil {
		return 0, err
	}
	return Decay(e.A, p.DecayBps, now-min(now, e.B)), nil
}

// ScoreBefore is a's reputation at the start of block height.
func ScoreBefore(kv state.KV, p params.Reputation, a common.Address, height uint64) (uint64, error) {
	e, ok, err := checkpoint.Before(kv, scoreKey(a), height)
	if err != nil || !ok {
		return 0, err
	}
	then, err := EpochBefore(kv, height)
	if err != nil {
		return 0, err
	}
	return Decay(e.A, p.DecayBps, then-min(then, e.B)), nil
}

// Add gives a points at height and returns the new score.
func Add(kv state.KV, p params.Reputation, a common.Address, height, points uint64) (uint64, error) {
	cur, err := Score(kv, p, a)
	if err != nil {
		return 0, err
	}
	epoch, err := Epoch(kv)
	if err != nil {
		return 0, err
	}
	next := cur + points
	if next < cur {
		next = math.MaxUint64
	}
	if err := checkpoint.Record(kv, scoreKey(a), checkpoint.Entry{Height: height, A: next, B: epoch}); err != nil {
		return 0, fmt.Errorf("record reputation of %s: %w", a.Hex(), err)
	}
	return next, nil
}

// Multiplier is the reward and voting multiplier of a score, in basis
// points: 1.0x plus perPointBps a point, at most maxBps (itself at most 2.0x).
func Multiplier(p params.Reputation, score uint64) uint64 {
	ceiling := min(max(p.MaxMultiplierBps, params.OneBps), params.MaxMultiplierCap) - params.OneBps
	if p.PerPointBps == 0 {
		return params.OneBps
	}
	if score >= ceiling/p.PerPointBps+1 {
		return params.OneBps + ceiling
	}
	return params.OneBps + min(score*p.PerPointBps, ceiling)
}

// Decay is score after epochs epochs of losing decayBps each, rounded
// down: score × ((10000 − decayBps) / 10000)^epochs, computed by squaring
// in 18-digit fixed point with integers only.
func Decay(score, decayBps, epochs uint64) uint64 {
	if score == 0 || epochs == 0 || decayBps == 0 {
		return score
	}
	if decayBps >= params.OneBps {
		return 0
	}
	const scale = 1_000_000_000_000_000_000
	factor, acc := (params.OneBps-decayBps)*100_000_000_000_000, uint64(scale)
	for k := epochs; k > 0 && acc > 0; k >>= 1 {
		if k&1 == 1 {
			acc = mulDiv(acc, factor, scale)
		}
		factor = mulDiv(factor, factor, scale)
	}
	return mulDiv(score, acc, scale)
}

// mulDiv is a × b / d rounded down, for a × b / d < 2^64 (here b ≤ d).
func mulDiv(a, b, d uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, _ := bits.Div64(hi, lo, d)
	return q
}

// Apply scales amount by a multiplier in basis points, rounding down.
func Apply(amount, multiplierBps uint64) uint64 {
	v := new(big.Int).Mul(new(big.Int).SetUint64(amount), new(big.Int).SetUint64(multiplierBps))
	v.Quo(v, big.NewInt(params.OneBps))
	if !v.IsUint64() {
		return math.MaxUint64
	}
	return v.Uint64()
}
