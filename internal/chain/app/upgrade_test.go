package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// oldChain is a chain made as today's chains were, before own-keys: its
// genesis lists an operator and no upgrades. alice stakes, so she can pass
// proposals alone; blocks records every block's transactions to replay.
type oldChain struct {
	t          *testing.T
	a          *app.App
	st         *state.Store
	genesis    []byte
	op, alice  wallet
	nonces     map[common.Address]uint64
	height     int64
	blocks     [][][]byte
	lastResult *abci.FinalizeBlockResponse
}

func newOldChain(t *testing.T) *oldChain {
	t.Helper()
	c := &oldChain{t: t, op: newWallet(t), alice: newWallet(t), nonces: map[common.Address]uint64{}}
	p := app.DefaultParams()
	p.Gov.VotingPeriodBlocks, p.Gov.TimelockBlocks, p.Gov.ProposalDeposit, p.Gov.MinProposerStake = 2, 0, 0, 0
	g := app.Genesis{Params: p, Allocations: []ledger.Allocation{{Address: c.alice.addr, Amount: 1_000_000}}, Operators: []common.Address{c.op.addr}}
	c.genesis, _ = json.Marshal(g)
	c.a, c.st = startApp(t, c.genesis)
	c.must(c.sign(c.alice, tx.KindStake, map[string]any{"amount": "500000"}))
	return c
}

func startApp(t *testing.T, genesis []byte) (*app.App, *state.Store) {
	t.Helper()
	a, st, _ := initApp(t, genesis)
	return a, st
}

// initApp is startApp with InitChain's answer.
func initApp(t *testing.T, genesis []byte) (*app.App, *state.Store, *abci.InitChainResponse) {
	t.Helper()
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: genesis})
	if err != nil {
		t.Fatal(err)
	}
	return a, st, res
}

func (c *oldChain) sign(w wallet, kind tx.Kind, m map[string]any) []byte {
	m["from"], m["nonce"] = w.addr.Hex(), strconv.FormatUint(c.nonces[w.addr], 10)
	c.nonces[w.addr]++
	return encodeSigned(c.t, w, kind, app.DefaultParams().ChainID, m)
}

func (c *oldChain) block(txs ...[]byte) []*abci.ExecTxResult {
	c.t.Helper()
	c.height++
	c.blocks = append(c.blocks, txs)
	c.lastResult = finalize(c.t, c.a, c.height, txs...)
	return c.lastResult.TxResults
}

func (c *oldChain) must(txs ...[]byte) {
	c.t.Helper()
	for i, r := range c.block(txs...) {
		if r.Code != 0 {
			c.t.Fatalf("tx %d: %d %s", i, r.Code, r.Log)
		}
	}
}

// upgradeAt proposes the upgrade name at height and passes it.
func (c *oldChain) upgradeAt(name string, height int64) {
	c.t.Helper()
	payload := `{"name":"` + name + `","height":"` + strconv.FormatInt(height, 10) + `"}`
	res := c.block(c.sign(c.alice, tx.KindPropose, map[string]any{"proposalType": "upgrade", "title": "Upgrade to " + name, "description": "", "payload": payload, "deposit": "0"}))
	if res[0].Code != 0 {
		c.t.Fatalf("propose: %d %s", res[0].Code, res[0].Log)
	}
	pr := lastProposal(c.t, res[0].Events)
	c.must(c.sign(c.alice, tx.KindVote, map[string]any{"proposal": strconv.FormatUint(pr.ID, 10), "option": "yes"}))
	for range 4 {
		c.block()
		if got, err := gov.GetProposal(c.st, pr.ID); err != nil || got.Status == gov.StatusExecuted {
			return
		} else if got.Status == gov.StatusFailed || got.Status == gov.StatusRejected {
			c.t.Fatalf("upgrade proposal %s: %s", got.Status, got.Failure)
		}
	}
	c.t.Fatal("the upgrade proposal never executed")
}

// A chain made before own-keys takes operator-signed actions until the
// height its governance voted; from that block on they need delegations.
// A fresh node replaying every block reaches the same app hash.
func TestOwnKeysUpgradeAtAVotedHeight(t *testing.T) {
	c := newOldChain(t)
	c.must(c.sign(c.op, tx.KindForge, map[string]any{"actor": c.alice.addr.Hex(), "action": "repo.create", "payload": `{"name":"lib"}`}))
	at := c.height + 8
	c.upgradeAt(upgrade.OwnKeys, at)
	c.must(c.sign(c.op, tx.KindForge, map[string]any{"actor": c.alice.addr.Hex(), "action": "issue.create", "payload": `{"repo":1,"title":"still the old rules"}`}))
	for c.height < at-1 {
		c.block()
	}
	if on, _ := c.a.OwnKeys(); on {
		t.Fatal("own-keys applied before its height")
	}
	res := c.block(c.sign(c.op, tx.KindForge, map[string]any{"actor": c.alice.addr.Hex(), "action": "issue.create", "payload": `{"repo":1,"title":"new rules"}`}))
	if res[0].Code != tx.CodeNotDelegated {
		t.Fatalf("an operator's action at the upgrade height: %d %s", res[0].Code, res[0].Log)
	}
	if !hasEvent(c.lastResult.Events, app.EventUpgrade) {
		t.Fatalf("no Upgrade event at height %d: %+v", at, c.lastResult.Events)
	}
	c.must(c.sign(c.alice, tx.KindDelegate, map[string]any{"delegate": c.op.addr.Hex(), "scopes": "issue", "expiry": strconv.FormatInt(at+100, 10)}))
	c.must(c.sign(c.op, tx.KindForge, map[string]any{"actor": c.alice.addr.Hex(), "action": "issue.create", "payload": `{"repo":1,"title":"delegated"}`}))

	replay, st := startApp(t, c.genesis)
	for i, txs := range c.blocks {
		finalize(t, replay, int64(i+1), txs...)
	}
	if got, want := st.Hash(), c.st.Hash(); string(got) != string(want) {
		t.Fatalf("replay app hash %x, want %x", got, want)
	}
}

// An upgrade this binary does not know halts it at its height, naming the
// upgrade, and applies nothing of that block; told the name (a release
// that knows it), it crosses the height.
func TestUnknownUpgradeHalts(t *testing.T) {
	c := newOldChain(t)
	at := c.height + 6
	// A name of its own each run: Allow below lasts for the process.
	name := "from-the-future-" + strconv.FormatInt(time.Now().UnixNano(), 10)
	c.upgradeAt(name, at)
	for c.height < at-1 {
		c.block()
	}
	_, err := c.a.FinalizeBlock(context.Background(), &abci.FinalizeBlockRequest{Height: at})
	if !errors.Is(err, upgrade.ErrUnknown) {
		t.Fatalf("finalize the upgrade height: %v", err)
	}
	select {
	case halted := <-c.a.Halted():
		if !errors.Is(halted, upgrade.ErrUnknown) || !strings.Contains(halted.Error(), name) {
			t.Fatalf("halt reason: %v", halted)
		}
	default:
		t.Fatal("no halt reported")
	}
	upgrade.Allow(name)
	res, err := c.a.FinalizeBlock(context.Background(), &abci.FinalizeBlockRequest{Height: at})
	if err != nil || !hasEvent(res.Events, app.EventUpgrade) {
		t.Fatalf("crossing a known upgrade: %v %+v", err, res)
	}
}

func hasEvent(events []abci.Event, typ string) bool {
	for _, ev := range events {
		if ev.Type == typ {
			return true
		}
	}
	return false
}

// A chain made before pending-transfers moves a repository at once, and
// knows no answer to an offer, until the height its governance voted;
// from that block on a transfer waits for its recipient. A fresh node
// replaying every block reaches the same app hash.
func TestPendingTransfersUpgradeAtAVotedHeight(t *testing.T) {
	c := newOldChain(t)
	bob := newWallet(t)
	act := func(actor wallet, action, payload string) []byte {
		return c.sign(c.op, tx.KindForge, map[string]any{"actor": actor.addr.Hex(), "action": action, "payload": payload})
	}
	toBob := func(repo string) string { return `{"repo":` + repo + `,"newOwner":"` + bob.addr.Hex() + `"}` }
	c.must(act(c.alice, "repo.create", `{"name":"a"}`), act(c.alice, "repo.create", `{"name":"b"}`))
	at := c.height + 8
	c.upgradeAt(upgrade.PendingTransfers, at)
	c.must(act(c.alice, "repo.transfer", toBob("1")))
	if moved := forgeChange(t, c.lastResult.TxResults[0]); moved.Transfer != nil || moved.Repos[0].Owner != bob.addr {
		t.Fatalf("a transfer before the upgrade: %+v", moved)
	}
	if res := c.block(act(bob, "repo.transfer.accept", `{"repo":2}`)); res[0].Code != tx.CodeUnknownAction {
		t.Fatalf("an answer before the upgrade: %d %s", res[0].Code, res[0].Log)
	}
	for c.height < at-1 {
		c.block()
	}
	c.must(act(c.alice, "repo.transfer", toBob("2")))
	if offer := forgeChange(t, c.lastResult.TxResults[0]); offer.Transfer == nil || len(offer.Repos) != 0 {
		t.Fatalf("a transfer from the upgrade on: %+v", offer)
	}
	c.must(act(bob, "repo.transfer.accept", `{"repo":2}`))

	replay, st := startApp(t, c.genesis)
	for i, txs := range c.blocks {
		finalize(t, replay, int64(i+1), txs...)
	}
	if got, want := st.Hash(), c.st.Hash(); string(got) != string(want) {
		t.Fatalf("replay app hash %x, want %x", got, want)
	}
}

// forgeChange is the forge change a transaction's events hold.
func forgeChange(t *testing.T, res *abci.ExecTxResult) forge.Change {
	t.Helper()
	for _, ev := range res.Events {
		if ev.Type == forge.EventType {
			c, err := forge.ParseEvent(ev)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
	}
	t.Fatalf("no forge event in %+v", res)
	return forge.Change{}
}

// A chain made before app-version says app version 1 in Info and asks
// CometBFT for no change until the height its governance voted; that
// block's answer moves the headers to 2, and each later upgrade one more.
// A fresh node replaying every block reaches the same app hash and version.
func TestAppVersionUpgradeAtAVotedHeight(t *testing.T) {
	c := newOldChain(t)
	at := c.height + 8
	c.upgradeAt(upgrade.AppVersion, at)
	for c.height < at-1 {
		c.block()
		if c.lastResult.ConsensusParamUpdates != nil {
			t.Fatalf("block %d changed the consensus params before the upgrade: %+v", c.height, c.lastResult.ConsensusParamUpdates)
		}
	}
	if v := appVersion(t, c.a); v != 1 {
		t.Fatalf("app version before the upgrade: %d", v)
	}
	c.block()
	if got := headerVersion(c.lastResult); got != 2 {
		t.Fatalf("the upgrade block asks for header version %d, want 2", got)
	}
	if v := appVersion(t, c.a); v != 2 {
		t.Fatalf("app version after the upgrade: %d", v)
	}
	c.block()
	if c.lastResult.ConsensusParamUpdates != nil {
		t.Fatalf("the block after the upgrade changed the consensus params again: %+v", c.lastResult.ConsensusParamUpdates)
	}

	// A name of its own each run: Allow lasts for the process.
	next := "after-app-version-" + strconv.FormatInt(time.Now().UnixNano(), 10)
	upgrade.Allow(next)
	at = c.height + 8
	c.upgradeAt(next, at)
	for c.height < at {
		c.block()
	}
	if got := headerVersion(c.lastResult); got != 3 {
		t.Fatalf("the next upgrade asks for header version %d, want 3", got)
	}

	replay, st := startApp(t, c.genesis)
	for i, txs := range c.blocks {
		finalize(t, replay, int64(i+1), txs...)
	}
	if got, want := st.Hash(), c.st.Hash(); string(got) != string(want) {
		t.Fatalf("replay app hash %x, want %x", got, want)
	}
	if v := appVersion(t, replay); v != 3 {
		t.Fatalf("replayed app version %d, want 3", v)
	}
}

// A new chain's genesis lists app-version with the other upgrades: its
// InitChain answer starts the headers at version 2, and Info says so.
func TestNewChainStartsAtItsAppVersion(t *testing.T) {
	g := app.Genesis{Params: app.DefaultParams(), Upgrades: upgrade.All()}
	raw, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	a, _, res := initApp(t, raw)
	if res.ConsensusParams == nil || res.ConsensusParams.Version == nil || res.ConsensusParams.Version.App != 2 {
		t.Fatalf("InitChain's consensus params: %+v", res.ConsensusParams)
	}
	if v := appVersion(t, a); v != 2 {
		t.Fatalf("Info's app version: %d", v)
	}
}

func appVersion(t *testing.T, a *app.App) uint64 {
	t.Helper()
	info, err := a.Info(context.Background(), &abci.InfoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return info.AppVersion
}

// headerVersion is the app version a block's answer asks CometBFT to put
// in the next headers, or 0 for none.
func headerVersion(res *abci.FinalizeBlockResponse) uint64 {
	if res.ConsensusParamUpdates == nil || res.ConsensusParamUpdates.Version == nil {
		return 0
	}
	return res.ConsensusParamUpdates.Version.App
}
