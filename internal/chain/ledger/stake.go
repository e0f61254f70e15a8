package ledger

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/state"
)

// Staking: an account moves part of its balance into its stake, and moves
// stake back out through unbonding. An unbonding entry waits in a queue
// keyed by the height it matures at and is paid back to the balance when
// the chain reaches that height. Tokens are never created or destroyed
// here, so Supply = Σ balances + Σ staked + Σ unbonding at all times.
//
// State keys (heights and sequence numbers big-endian, so keys sort by height):
//
//	ledger/staked/<addr>                    the account's staked amount
//	ledger/unbonding/<addr>                 the sum of the account's pending entries
//	ledger/total/staked                     Σ staked over all accounts
//	ledger/total/unbonding                  Σ unbonding over all accounts
//	ledger/unbondcount/<height>             how many entries mature at height
//	ledger/unbond/<height>/<seq>            one entry: address (20 bytes) ‖ amount (8 bytes)
//
// The store has no delete, so a paid entry stays in state as a record; each
// height's queue is read exactly once, by MatureUnbondings at that height.

func stakedKey(a common.Address) []byte    { return append([]byte("ledger/staked/"), a.Bytes()...) }
func unbondingKey(a common.Address) []byte { return append([]byte("ledger/unbonding/"), a.Bytes()...) }

var (
	totalStakedKey    = []byte("ledger/total/staked")
	totalUnbondingKey = []byte("ledger/total/unbonding")
)

func unbondCountKey(height uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("ledger/unbondcount/"), height)
}

func unbondEntryKey(height, seq uint64) []byte {
	k := binary.BigEndian.AppendUint64([]byte("ledger/unbond/"), height)
	k = append(k, '/')
	return binary.BigEndian.AppendUint64(k, seq)
}

const entryLen = common.AddressLength + 8

// Staked is a's staked amount in micro-units.
func Staked(kv state.KV, a common.Address) (uint64, error) { return state.GetUint64(kv, stakedKey(a)) }

// Unbonding is the sum of a's unbonding entries that have not matured yet.
func Unbonding(kv state.KV, a common.Address) (uint64, error) {
	return state.GetUint64(kv, unbondingKey(a))
}

// TotalStaked is the sum of all accounts' staked amounts.
func TotalStaked(kv state.KV) (uint64, error) { return state.GetUint64(kv, totalStakedKey) }

// TotalUnbonding is the sum of all pending unbonding entries.
func TotalUnbonding(kv state.KV) (uint64, error) { return state.GetUint64(kv, totalUnbondingKey) }

// add adds delta to the counter at key, failing on overflow.
func add(kv state.KV, key []byte, delta uint64) error {
	v, err := state.GetUint64(kv, key)
	if err != nil {
		return err
	}
	if v > math.MaxUint64-delta {
		return ErrOverflow
	}
	return state.SetUint64(kv, key, v+delta)
}

// sub subtracts delta from the counter at key; short is returned (wrapped
// with the amounts) when the counter holds less than delta.
func sub(kv state.KV, key []byte, delta uint64, short error) error {
	v, err := state.GetUint64(kv, key)
	if err != nil {
		return err
	}
	if v < delta {
		return fmt.Errorf("%w (has %d, needs %d)", short, v, delta)
	}
	return state.SetUint64(kv, key, v-delta)
}

// Stake moves amount from a's balance into its stake.
func Stake(kv state.KV, a common.Address, amount uint64) error {
	if amount == 0 {
		return ErrNonPositive
	}
	if err := debit(kv, a, amount); err != nil {
		return err
	}
	if err := add(kv, stakedKey(a), amount); err != nil {
		return err
	}
	return add(kv, totalStakedKey, amount)
}

// Unstake moves amount from a's stake into an unbonding entry that matures
// at maturesAt, when MatureUnbondings pays it back to a's balance.
func Unstake(kv state.KV, a common.Address, amount, maturesAt uint64) error {
	if amount == 0 {
		return ErrNonPositive
	}
	staked, err := Staked(kv, a)
	if err != nil {
		return err
	}
	if staked < amount {
		return fmt.Errorf("%w: %d micro-units are staked, the unstake asks for %d", ErrInsufficientStake, staked, amount)
	}
	if err := state.SetUint64(kv, stakedKey(a), staked-amount); err != nil {
		return err
	}
	if err := sub(kv, totalStakedKey, amount, errCorrupt); err != nil {
		return err
	}
	if err := add(kv, unbondingKey(a), amount); err != nil {
		return err
	}
	if err := add(kv, totalUnbondingKey, amount); err != nil {
		return err
	}
	// Append the entry to the queue of its maturing height.
	countKey := unbondCountKey(maturesAt)
	seq, err := state.GetUint64(kv, countKey)
	if err != nil {
		return err
	}
	entry := binary.BigEndian.AppendUint64(append(make([]byte, 0, entryLen), a.Bytes()...), amount)
	if err := kv.Set(unbondEntryKey(maturesAt, seq), entry); err != nil {
		return err
	}
	return state.SetUint64(kv, countKey, seq+1)
}

// Matured is an unbonding entry paid back to its account.
type Matured struct {
	Address common.Address
	Amount  uint64
}

// MatureUnbondings pays back every entry that matures at height, in the
// order the entries were made, and returns them. It reads only that
// height's queue, so its cost is the number of entries paid. Call it once
// per height, before the block's transactions.
func MatureUnbondings(kv state.KV, height uint64) ([]Matured, error) {
	n, err := state.GetUint64(kv, unbondCountKey(height))
	if err != nil || n == 0 {
		return nil, err
	}
	paid := make([]Matured, 0, n)
	for seq := range n {
		key := unbondEntryKey(height, seq)
		v, err := kv.Get(key)
		if err != nil {
			return nil, err
		}
		if len(v) != entryLen {
			return nil, fmt.Errorf("corrupt unbonding entry at %x", key)
		}
		m := Matured{Address: common.BytesToAddress(v[:common.AddressLength]), Amount: binary.BigEndian.Uint64(v[common.AddressLength:])}
		if err := sub(kv, unbondingKey(m.Address), m.Amount, errCorrupt); err != nil {
			return nil, fmt.Errorf("mature unbonding of %s: %w", m.Address, err)
		}
		if err := sub(kv, totalUnbondingKey, m.Amount, errCorrupt); err != nil {
			return nil, fmt.Errorf("mature unbonding of %s: %w", m.Address, err)
		}
		if err := credit(kv, m.Address, m.Amount); err != nil {
			return nil, fmt.Errorf("mature unbonding of %s: %w", m.Address, err)
		}
		paid = append(paid, m)
	}
	return paid, nil
}
