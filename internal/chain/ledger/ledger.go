// Package ledger is the chain module for accounts and the native token:
// balances and nonces in integer micro-units, genesis allocations,
// transfers and staking (stake.go). It owns its state keys, its rules, its
// events (events.go) and the codes its rule violations carry (errors.go),
// and is pure: it reads and writes only the store it is given.
package ledger

import (
	"fmt"
	"math"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/state"
)

func balanceKey(a common.Address) []byte { return append([]byte("ledger/balance/"), a.Bytes()...) }
func nonceKey(a common.Address) []byte   { return append([]byte("ledger/nonce/"), a.Bytes()...) }

var supplyKey = []byte("ledger/supply")

// Balance is the spendable balance of a in micro-units.
func Balance(kv state.KV, a common.Address) (uint64, error) {
	return state.GetUint64(kv, balanceKey(a))
}

// Nonce is the nonce a's next transaction must carry.
func Nonce(kv state.KV, a common.Address) (uint64, error) { return state.GetUint64(kv, nonceKey(a)) }

// Supply is the total of all tokens in micro-units: every balance, stake
// and unbonding entry. Genesis and contribution rewards (Mint) create
// tokens; transfers, staking and unbonding move them without changing it.
func Supply(kv state.KV) (uint64, error) { return state.GetUint64(kv, supplyKey) }

// Allocation is a genesis balance.
type Allocation struct {
	Address common.Address `json:"address"`
	Amount  uint64         `json:"amount"`
}

// InitGenesis credits the allocations in the order given, so every node
// builds the same tree.
func InitGenesis(kv state.KV, allocs []Allocation) error {
	for _, a := range allocs {
		if err := credit(kv, a.Address, a.Amount); err != nil {
			return fmt.Errorf("genesis allocation to %s: %w", a.Address, err)
		}
		if err := addSupply(kv, a.Amount); err != nil {
			return err
		}
	}
	return nil
}

func addSupply(kv state.KV, amount uint64) error {
	s, err := Supply(kv)
	if err != nil {
		return err
	}
	if s > math.MaxUint64-amount {
		return ErrOverflow
	}
	return state.SetUint64(kv, supplyKey, s+amount)
}

func credit(kv state.KV, a common.Address, amount uint64) error {
	b, err := Balance(kv, a)
	if err != nil {
		return err
	}
	if b > math.MaxUint64-amount {
		return ErrOverflow
	}
	return state.SetUint64(kv, balanceKey(a), b+amount)
}

func debit(kv state.KV, a common.Address, amount uint64) error {
	b, err := Balance(kv, a)
	if err != nil {
		return err
	}
	if b < amount {
		return ErrInsufficientFunds
	}
	return state.SetUint64(kv, balanceKey(a), b-amount)
}

// UseNonce checks that nonce is a's next one and advances it. Replayed and
// out-of-order transactions fail here.
func UseNonce(kv state.KV, a common.Address, nonce uint64) error {
	want, err := Nonce(kv, a)
	if err != nil {
		return err
	}
	if nonce != want {
		return fmt.Errorf("%w (got %d, want %d)", ErrBadNonce, nonce, want)
	}
	return state.SetUint64(kv, nonceKey(a), want+1)
}

// Transfer moves amount from one account to another.
func Transfer(kv state.KV, from, to common.Address, amount uint64) error {
	if amount == 0 {
		return ErrNonPositive
	}
	if err := debit(kv, from, amount); err != nil {
		return err
	}
	return credit(kv, to, amount)
}

// Mint creates amount new tokens in a's balance: only the state machine's
// own rules (contribution rewards) call it.
func Mint(kv state.KV, a common.Address, amount uint64) error {
	if amount == 0 {
		return nil
	}
	if err := credit(kv, a, amount); err != nil {
		return err
	}
	return addSupply(kv, amount)
}
