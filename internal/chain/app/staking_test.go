package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

const testChainID = 7_771

// newStakingChain starts an app with the given unbonding period whose
// genesis gives each wallet 1000 micro-units.
func newStakingChain(t *testing.T, unbonding uint64, wallets ...wallet) (*app.App, *state.Store) {
	t.Helper()
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	p := app.DefaultParams()
	p.UnbondingBlocks = unbonding
	g := app.Genesis{Params: p}
	for _, w := range wallets {
		g.Allocations = append(g.Allocations, ledger.Allocation{Address: w.addr, Amount: 1000})
	}
	raw, _ := json.Marshal(g)
	if _, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: raw}); err != nil {
		t.Fatal(err)
	}
	return a, st
}

// signed is a signed transaction of kind with the fields from, amount and
// nonce (Stake, Unstake, TreasuryDeposit).
func signed(t *testing.T, kind tx.Kind, from wallet, amount, nonce uint64) []byte {
	t.Helper()
	return encodeSigned(t, from, kind, testChainID, map[string]any{
		"from": from.addr.Hex(), "amount": strconv.FormatUint(amount, 10), "nonce": strconv.FormatUint(nonce, 10),
	})
}

// finalize runs and commits one block and returns FinalizeBlock's answer.
func finalize(t *testing.T, a *app.App, height int64, txs ...[]byte) *abci.FinalizeBlockResponse {
	t.Helper()
	res, err := a.FinalizeBlock(context.Background(), &abci.FinalizeBlockRequest{Height: height, Txs: txs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(context.Background(), &abci.CommitRequest{}); err != nil {
		t.Fatal(err)
	}
	return res
}

func account(t *testing.T, a *app.App, addr common.Address) app.Account {
	t.Helper()
	acct, err := a.Account(addr)
	if err != nil {
		t.Fatal(err)
	}
	return acct
}

func attr(ev abci.Event, key string) string {
	for _, at := range ev.Attributes {
		if at.Key == key {
			return at.Value
		}
	}
	return ""
}

func checkTx(t *testing.T, a *app.App, raw []byte) *abci.CheckTxResponse {
	t.Helper()
	res, err := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: raw})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestUnstakedFundsReturnAtTheMaturingHeight(t *testing.T) {
	alice, bob := newWallet(t), newWallet(t)
	a, _ := newStakingChain(t, 3, alice)

	stake := signed(t, tx.KindStake, alice, 400, 0)
	if res := checkTx(t, a, stake); res.Code != 0 {
		t.Fatalf("CheckTx stake = %d %s", res.Code, res.Log)
	}
	res := finalize(t, a, 1, stake)
	if r := res.TxResults[0]; r.Code != 0 || r.Events[0].Type != "Stake" || attr(r.Events[0], "amount") != "400" || attr(r.Events[0], "from") != alice.addr.Hex() {
		t.Fatalf("stake result %d %s %+v", r.Code, r.Log, r.Events)
	}
	if got := account(t, a, alice.addr); got.Balance != 600 || got.Staked != 400 || got.Unbonding != 0 {
		t.Fatalf("after stake %+v", got)
	}

	// Unstaked at height 2 with 3 unbonding blocks: paid back at height 5.
	res = finalize(t, a, 2, signed(t, tx.KindUnstake, alice, 150, 1))
	if r := res.TxResults[0]; r.Code != 0 || r.Events[0].Type != "Unstake" || attr(r.Events[0], "maturesAt") != "5" {
		t.Fatalf("unstake result %d %s %+v", r.Code, r.Log, r.Events)
	}
	for h := int64(3); h <= 4; h++ {
		res := finalize(t, a, h)
		if len(res.Events) != 0 {
			t.Fatalf("height %d: early block events %+v", h, res.Events)
		}
		if got := account(t, a, alice.addr); got.Balance != 600 || got.Staked != 250 || got.Unbonding != 150 {
			t.Fatalf("height %d: funds moved before maturing: %+v", h, got)
		}
	}
	// The matured funds are spendable by the maturing block's own transactions.
	res = finalize(t, a, 5, transfer(t, alice, bob.addr, 700, 2, testChainID))
	if len(res.Events) != 1 || res.Events[0].Type != app.EventUnbondingMatured ||
		attr(res.Events[0], "address") != alice.addr.Hex() || attr(res.Events[0], "amount") != "150" {
		t.Fatalf("maturing block events %+v", res.Events)
	}
	if r := res.TxResults[0]; r.Code != 0 {
		t.Fatalf("spending matured funds in the maturing block: %d %s", r.Code, r.Log)
	}
	if got := account(t, a, alice.addr); got.Balance != 50 || got.Staked != 250 || got.Unbonding != 0 || got.Nonce != 3 {
		t.Fatalf("after maturing %+v, want balance 50 staked 250 unbonding 0 nonce 3", got)
	}
	if res := finalize(t, a, 6); len(res.Events) != 0 {
		t.Fatalf("entry paid twice: %+v", res.Events)
	}
	tot, err := a.Totals()
	if err != nil || tot != (app.Totals{Supply: 1000, Staked: 250, Unbonding: 0, Treasury: 0}) {
		t.Fatalf("totals %+v %v", tot, err)
	}
}

func TestUnstakeMoreThanStakedIsRejected(t *testing.T) {
	alice := newWallet(t)
	a, st := newStakingChain(t, 3, alice)
	finalize(t, a, 1, signed(t, tx.KindStake, alice, 100, 0))

	over := signed(t, tx.KindUnstake, alice, 101, 1)
	res := checkTx(t, a, over)
	if res.Code != tx.CodeInsufficientFunds || !strings.Contains(res.Log, "staked") || !strings.Contains(res.Log, "100") {
		t.Fatalf("CheckTx unstake over stake = %d %q", res.Code, res.Log)
	}
	before := st.Hash()
	r := finalize(t, a, 2, over).TxResults[0]
	if r.Code != tx.CodeInsufficientFunds {
		t.Fatalf("deliver unstake over stake = %d %q", r.Code, r.Log)
	}
	if got := account(t, a, alice.addr); got.Balance != 900 || got.Staked != 100 || got.Unbonding != 0 || got.Nonce != 1 {
		t.Fatalf("a rejected unstake changed the account: %+v", got)
	}
	if !bytes.Equal(before, st.Hash()) {
		t.Fatal("a rejected unstake changed the state")
	}
	// Unstaking with nothing staked fails the same way.
	bob := newWallet(t)
	if res := checkTx(t, a, signed(t, tx.KindUnstake, bob, 1, 0)); res.Code != tx.CodeInsufficientFunds {
		t.Fatalf("unstake with no stake = %d %q", res.Code, res.Log)
	}
}

func TestStakeMoreThanBalanceIsRejected(t *testing.T) {
	alice := newWallet(t)
	a, _ := newStakingChain(t, 3, alice)
	over := signed(t, tx.KindStake, alice, 1001, 0)
	if res := checkTx(t, a, over); res.Code != tx.CodeInsufficientFunds || res.Log == "" {
		t.Fatalf("CheckTx stake over balance = %d %q", res.Code, res.Log)
	}
	if r := finalize(t, a, 1, over).TxResults[0]; r.Code != tx.CodeInsufficientFunds {
		t.Fatalf("deliver stake over balance = %d %q", r.Code, r.Log)
	}
	if got := account(t, a, alice.addr); got.Balance != 1000 || got.Staked != 0 || got.Nonce != 0 {
		t.Fatalf("a rejected stake changed the account: %+v", got)
	}
	// Pending stakes in the mempool count against the balance.
	if res := checkTx(t, a, signed(t, tx.KindStake, alice, 600, 0)); res.Code != 0 {
		t.Fatalf("first stake = %d %q", res.Code, res.Log)
	}
	if res := checkTx(t, a, signed(t, tx.KindStake, alice, 600, 1)); res.Code != tx.CodeInsufficientFunds {
		t.Fatalf("second pending stake over balance = %d %q", res.Code, res.Log)
	}
}

func TestTreasuryDepositCreditsTheTreasury(t *testing.T) {
	alice := newWallet(t)
	a, _ := newStakingChain(t, 3, alice)
	dep := signed(t, tx.KindTreasuryDeposit, alice, 250, 0)
	if res := checkTx(t, a, dep); res.Code != 0 {
		t.Fatalf("CheckTx deposit = %d %s", res.Code, res.Log)
	}
	r := finalize(t, a, 1, dep).TxResults[0]
	if r.Code != 0 || r.Events[0].Type != "TreasuryDeposit" || attr(r.Events[0], "to") != app.TreasuryAddress.Hex() || attr(r.Events[0], "amount") != "250" {
		t.Fatalf("deposit result %d %s %+v", r.Code, r.Log, r.Events)
	}
	if got := account(t, a, app.TreasuryAddress); got.Balance != 250 {
		t.Fatalf("treasury balance %d, want 250", got.Balance)
	}
	if got := account(t, a, alice.addr); got.Balance != 750 {
		t.Fatalf("alice balance %d, want 750", got.Balance)
	}
	if r := finalize(t, a, 2, signed(t, tx.KindTreasuryDeposit, alice, 751, 1)).TxResults[0]; r.Code != tx.CodeInsufficientFunds {
		t.Fatalf("deposit over balance = %d %s", r.Code, r.Log)
	}
}

func TestSameBlocksGiveTheSameAppHash(t *testing.T) {
	alice, bob := newWallet(t), newWallet(t)
	blocks := [][][]byte{
		{signed(t, tx.KindStake, alice, 500, 0), signed(t, tx.KindStake, bob, 300, 0)},
		{signed(t, tx.KindUnstake, alice, 200, 1), signed(t, tx.KindUnstake, bob, 100, 1), signed(t, tx.KindUnstake, bob, 999, 2)},
		{signed(t, tx.KindTreasuryDeposit, alice, 10, 2), transfer(t, bob, alice.addr, 5, 2, testChainID)},
		{signed(t, tx.KindUnstake, alice, 300, 3)}, // height 4: the height-2 unstakes mature first
		{},
		{signed(t, tx.KindStake, alice, 100, 4)}, // height 6: the height-4 unstake matures first
		{},
	}
	a1, st1 := newStakingChain(t, 2, alice, bob)
	a2, st2 := newStakingChain(t, 2, alice, bob)
	if !bytes.Equal(st1.WorkingHash(), st2.WorkingHash()) {
		t.Fatal("genesis hashes differ")
	}
	matured := 0
	for i, txs := range blocks {
		h := int64(i + 1)
		r1, r2 := finalize(t, a1, h, txs...), finalize(t, a2, h, txs...)
		if !bytes.Equal(r1.AppHash, r2.AppHash) || !bytes.Equal(st1.Hash(), st2.Hash()) {
			t.Fatalf("height %d: app hashes differ", h)
		}
		matured += len(r1.Events)
	}
	if matured != 3 {
		t.Fatalf("%d unbondings matured, want 3", matured)
	}
	if got := account(t, a1, alice.addr); got.Balance != 895 || got.Staked != 100 || got.Unbonding != 0 {
		t.Fatalf("alice %+v", got)
	}
}

// TestSupplyInvariantOverRandomBlocks applies random transfers, stakes,
// unstakes and deposits (some of them failing) across blocks and checks,
// after every block, the chain against a simple model and that Supply
// equals balances + staked + unbonding.
func TestSupplyInvariantOverRandomBlocks(t *testing.T) {
	const unbonding = 4
	rng := rand.New(rand.NewSource(42))
	wallets := []wallet{newWallet(t), newWallet(t), newWallet(t), newWallet(t)}
	a, _ := newStakingChain(t, unbonding, wallets...)
	replica, _ := newStakingChain(t, unbonding, wallets...)

	type model struct{ balance, staked, unbonding, nonce uint64 }
	m := map[common.Address]*model{app.TreasuryAddress: {}}
	for _, w := range wallets {
		m[w.addr] = &model{balance: 1000}
	}
	type entry struct {
		addr   common.Address
		amount uint64
	}
	pending := map[int64][]entry{}
	kinds := []tx.Kind{tx.KindTransfer, tx.KindStake, tx.KindUnstake, tx.KindTreasuryDeposit}
	applied := map[tx.Kind]int{}
	failed := 0

	for h := int64(1); h <= 80; h++ {
		// Expected effect of maturing entries, then of each transaction.
		for _, e := range pending[h] {
			m[e.addr].balance += e.amount
			m[e.addr].unbonding -= e.amount
		}
		var txs [][]byte
		var want []bool
		for _, i := range rng.Perm(len(wallets))[:rng.Intn(len(wallets)+1)] {
			w, acct := wallets[i], m[wallets[i].addr]
			kind := kinds[rng.Intn(len(kinds))]
			amount := uint64(1 + rng.Intn(450))
			var raw []byte
			ok := false
			switch kind {
			case tx.KindTransfer:
				to := wallets[rng.Intn(len(wallets))].addr
				raw = transfer(t, w, to, amount, acct.nonce, testChainID)
				if ok = acct.balance >= amount; ok {
					acct.balance -= amount
					m[to].balance += amount
				}
			case tx.KindStake:
				raw = signed(t, kind, w, amount, acct.nonce)
				if ok = acct.balance >= amount; ok {
					acct.balance -= amount
					acct.staked += amount
				}
			case tx.KindUnstake:
				raw = signed(t, kind, w, amount, acct.nonce)
				if ok = acct.staked >= amount; ok {
					acct.staked -= amount
					acct.unbonding += amount
					pending[h+unbonding] = append(pending[h+unbonding], entry{w.addr, amount})
				}
			case tx.KindTreasuryDeposit:
				raw = signed(t, kind, w, amount, acct.nonce)
				if ok = acct.balance >= amount; ok {
					acct.balance -= amount
					m[app.TreasuryAddress].balance += amount
				}
			}
			if ok {
				acct.nonce++
				applied[kind]++
			} else {
				failed++
			}
			txs = append(txs, raw)
			want = append(want, ok)
		}

		res := finalize(t, a, h, txs...)
		if r := finalize(t, replica, h, txs...); !bytes.Equal(r.AppHash, res.AppHash) {
			t.Fatalf("height %d: replica app hash differs", h)
		}
		if len(res.Events) != len(pending[h]) {
			t.Fatalf("height %d: %d UnbondingMatured events, want %d", h, len(res.Events), len(pending[h]))
		}
		for i, r := range res.TxResults {
			if (r.Code == 0) != want[i] {
				t.Fatalf("height %d tx %d: code %d %q, model expected success=%v", h, i, r.Code, r.Log, want[i])
			}
		}

		var sum, staked, unbond uint64
		for _, addr := range append([]common.Address{app.TreasuryAddress}, addrs(wallets)...) {
			got, exp := account(t, a, addr), m[addr]
			if got.Balance != exp.balance || got.Staked != exp.staked || got.Unbonding != exp.unbonding || got.Nonce != exp.nonce {
				t.Fatalf("height %d: %s is %+v, model %+v", h, addr.Hex(), got, *exp)
			}
			sum += got.Balance + got.Staked + got.Unbonding
			staked += got.Staked
			unbond += got.Unbonding
		}
		tot, err := a.Totals()
		if err != nil {
			t.Fatal(err)
		}
		if tot.Supply != 4000 || tot.Supply != sum || tot.Staked != staked || tot.Unbonding != unbond {
			t.Fatalf("height %d: totals %+v; accounts hold %d (staked %d, unbonding %d)", h, tot, sum, staked, unbond)
		}
	}
	for _, k := range kinds {
		if applied[k] == 0 {
			t.Fatalf("the random run never applied a %s; applied %v", k, applied)
		}
	}
	if failed == 0 {
		t.Fatal("the random run never tried a failing transaction")
	}
}

func addrs(ws []wallet) []common.Address {
	out := make([]common.Address, len(ws))
	for i, w := range ws {
		out[i] = w.addr
	}
	return out
}

// CometBFT calls CheckTx from many goroutines at once, and alongside
// FinalizeBlock and Commit (see ConcurrentCheckTx); under -race this shows
// the locking holds, and every transaction is admitted exactly once.
func TestConcurrentCheckTxAlongsideBlocks(t *testing.T) {
	t.Parallel()
	ws := make([]wallet, 8)
	for i := range ws {
		ws[i] = newWallet(t)
	}
	a, _ := newStakingChain(t, 10, ws...)
	txs := make([][]byte, len(ws))
	for i, w := range ws {
		txs[i] = signed(t, tx.KindStake, w, 10, 0)
	}
	codes := make(chan uint32, len(txs))
	done := make(chan struct{})
	for _, raw := range txs {
		go func() {
			res, err := a.CheckTx(context.Background(), &abci.CheckTxRequest{Tx: raw, Type: abci.CHECK_TX_TYPE_CHECK})
			if err != nil {
				t.Error(err)
			}
			codes <- res.Code
		}()
	}
	go func() {
		defer close(done)
		finalize(t, a, 1) // an empty block racing the checks
	}()
	<-done
	for range txs {
		if c := <-codes; c != 0 {
			t.Errorf("CheckTx code %d, want 0", c)
		}
	}
	// The block that then includes them applies every one.
	for i, r := range finalize(t, a, 2, txs...).TxResults {
		if r.Code != 0 {
			t.Errorf("tx %d in the block: code %d %s", i, r.Code, r.Log)
		}
	}
}
