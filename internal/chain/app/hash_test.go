package app_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// The pins of the stable chain. A change to any of them is a CONSENSUS
// CHANGE: every node running the old code would compute another app hash,
// or give other events, for the same blocks. Update them only with a
// deliberate, coordinated upgrade of the chain.
//
// The checkpoints are the app hash and results digest after the blocks the
// scenario had before it took every action (playStableChain's first
// blocks); they are the pins of those blocks, unchanged since:
// checkpointBeforeUpgrades* was computed on the code before the chain
// modules were reshaped (issue 13); checkpointOwnKeys* was pinned on
// purpose when own-keys was made, again when safe-urls joined upgrade.All
// (the genesis marks it done), again when own-keys bounded node
// registrations per block (the chain keeps a count, so the node
// registered in block 2 changes the state), again when route-names
// joined the list, again when pending-transfers joined it, and again when
// app-version joined it (its genesis also keeps the app version, 2) (the
// genesis marks every known upgrade done, so a chain born today changes
// with each new upgrade; the before-upgrades checkpoint must never change).
//
// The finals are the same chains after the blocks of coverSteps, which
// run every forge action and transaction kind. They were pinned on
// purpose when those blocks were added (issue 22: TestAppHashStable is
// re-pinned once, on purpose), so a record field that changes an old
// encoding (a new field without omitempty) changes them. A new action or
// kind is a new step, and so a new deliberate re-pin of both finals; the
// checkpoints stay. Re-pinned when pending-transfers added
// repo.transfer.accept and repo.transfer.reject (the old chain passes that
// upgrade beside own-keys). TestAppHashStable's finals re-pinned when
// app-version joined the genesis (its state differs from block 0 on; the
// before-upgrades finals stay).
const (
	checkpointBeforeUpgradesAppHash = "8c72bbdd5840db1e344a4bbfc8833e7de14816c7f67311b1704d92e894ac1c0e"
	checkpointBeforeUpgradesResults = "360c0bc40d300d23be362f8537b23e463ac1c52eaedd7c995d60051aa4d1369d"
	checkpointOwnKeysAppHash        = "b475663ba2a3e062b1aca3293afcd61fee475d8d5684af21e18eb75e6cfcad53"
	checkpointOwnKeysResults        = "c17cbfad91cd169ef4f37c784d4d04bc320ea3ca5aa8a684bb16a9a00710827c"

	beforeUpgradesAppHash = "69349cc7d7724e016fba92c2cb6e17c7bc314deb3a6a1e51c2982ed9437f6cb8"
	beforeUpgradesResults = "f46165f83596aed2a038b06ba090bf4f93f78b4d0db9a4f6c29cb89ca1228d5d"
	stableAppHash         = "0a5d07e5522d9ce0ee1bda4d275bf57353c30f0a830b192fabc51f40e423c064"
	stableResults         = "efd1d7c40aa9c745b635c062e7ee1eb73c68c4531f7f0daca6182989eed15fa0"
)

// fixedWallet is a wallet whose key is derived from seed, so its address
// (and every state key holding it) is the same on every run.
func fixedWallet(t testing.TB, seed string) wallet {
	t.Helper()
	sum := sha256.Sum256([]byte(seed))
	k, err := crypto.ToECDSA(sum[:])
	if err != nil {
		t.Fatal(err)
	}
	return wallet{k, crypto.PubkeyToAddress(k.PublicKey)}
}

// TestAppHashStable plays the stable chain as a chain born today: its
// genesis lists every upgrade this binary knows (upgrade.All), so it runs
// under own-keys rules from block 1, where the operator relays under
// genesis delegations and users sign their sensitive actions. It checks
// the app hash and a digest of every FinalizeBlock answer (events with
// their attribute keys and order, result codes and logs) after the
// original blocks, and after the blocks that run every action and kind.
func TestAppHashStable(t *testing.T) {
	checkPins(t, true, checkpointOwnKeysAppHash, checkpointOwnKeysResults, stableAppHash, stableResults)
}

// TestAppHashStableBeforeUpgrades plays the stable chain as a chain made
// before any upgrade, where the genesis operator names the actor of every
// forge action: a fixed sequence of blocks through every kind of
// transaction and every block-start rule (unbondings maturing, a new
// reward epoch, a vote ending, a proposal executing, failed transactions,
// a refused forge action that still uses its nonce), then every action,
// and the own-keys upgrade passed by governance. Its checkpoint is what
// the code gave before it was refactored: old chains replay unchanged.
func TestAppHashStableBeforeUpgrades(t *testing.T) {
	checkPins(t, false, checkpointBeforeUpgradesAppHash, checkpointBeforeUpgradesResults, beforeUpgradesAppHash, beforeUpgradesResults)
}

// checkPins plays the stable chain and compares it with its pins.
func checkPins(t *testing.T, ownKeys bool, checkpointHash, checkpointResults, wantHash, wantResults string) {
	run := playStableChain(t, ownKeys)
	if run.checkpointHash != checkpointHash {
		t.Errorf("app hash after the original blocks %s, want %s: a consensus change that old chains would see", run.checkpointHash, checkpointHash)
	}
	if run.checkpointResults != checkpointResults {
		t.Errorf("block results digest after the original blocks %s, want %s: a consensus change (events, codes or logs) that old chains would see", run.checkpointResults, checkpointResults)
	}
	if run.hash != wantHash {
		t.Errorf("app hash %s, want %s: a consensus change", run.hash, wantHash)
	}
	if run.results != wantResults {
		t.Errorf("block results digest %s, want %s: a consensus change (events, codes or logs)", run.results, wantResults)
	}
}

// TestStableChainCoversEveryAction fails when a forge action or a
// transaction kind never succeeds in the stable chain, in either mode: a
// new one needs its step in coverSteps (and a deliberate re-pin). Every
// step of coverSteps succeeds, so a rule change that refuses one shows
// here by name, not only as another hash.
func TestStableChainCoversEveryAction(t *testing.T) {
	for _, ownKeys := range []bool{false, true} {
		run := playStableChain(t, ownKeys)
		succeeded := map[string]bool{}
		for _, o := range run.outcomes {
			if o.code == 0 {
				succeeded[string(o.kind)], succeeded[o.action] = true, true
			} else if o.step {
				t.Errorf("own keys %v: the step %s %s of block %d fails with code %d (%s)", ownKeys, o.kind, o.action, o.height, o.code, tx.CodeName(o.code))
			}
		}
		for _, action := range forge.Actions() {
			if !succeeded[action] {
				t.Errorf("own keys %v: forge action %s never succeeds in the stable chain: add a step to coverSteps", ownKeys, action)
			}
		}
		for _, kind := range tx.Kinds() {
			if !succeeded[string(kind)] {
				t.Errorf("own keys %v: no %s transaction succeeds in the stable chain: add a step to coverSteps", ownKeys, kind)
			}
		}
	}
}

// stableRun is what playStableChain saw.
type stableRun struct {
	// checkpointHash and checkpointResults are the app hash and results
	// digest after the original blocks; hash and results after them all.
	checkpointHash, checkpointResults string
	hash, results                     string
	// outcomes are the result codes of every transaction the scenario
	// signed.
	outcomes []outcome
}

// outcome is a transaction's kind, its forge action if any, its block and
// its result code; step says it is one of coverSteps'.
type outcome struct {
	kind   tx.Kind
	action string
	height int64
	code   uint32
	step   bool
}

// playStableChain runs the fixed blocks, then coverSteps', and returns the
// app hash and the digest of every FinalizeBlock answer after each part,
// and every transaction's outcome; ownKeys makes the chain under the rules
// of every known upgrade.
func playStableChain(t *testing.T, ownKeys bool) stableRun {
	alice, bob, carol, op := fixedWallet(t, "alice"), fixedWallet(t, "bob"), fixedWallet(t, "carol"), fixedWallet(t, "operator")
	p := app.DefaultParams()
	p.UnbondingBlocks = 2
	p.Gov.VotingPeriodBlocks = 3
	p.Gov.TimelockBlocks = 1
	p.Gov.ProposalDeposit = 100
	p.Gov.MinProposerStake = 1_000
	p.Rewards.EpochBlocks = 4
	g := app.Genesis{
		Params: p,
		Allocations: []ledger.Allocation{
			{Address: alice.addr, Amount: 1_000_000_000}, {Address: bob.addr, Amount: 500_000_000},
			{Address: carol.addr, Amount: 10_000}, {Address: app.TreasuryAddress, Amount: 1_000_000_000_000},
		},
		Operators:  []common.Address{op.addr},
		Reputation: []app.ReputationGrant{{Address: bob.addr, Score: 300}},
	}
	if ownKeys {
		g.Upgrades = upgrade.All()
		g.Delegations = delegatedTo(op.addr, alice.addr, bob.addr, carol.addr)
	}
	raw, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	st := state.OpenMemory()
	a, err := app.New(st)
	if err != nil {
		t.Fatal(err)
	}
	pub := make([]byte, 32)
	pub[0] = 9
	init, err := a.InitChain(context.Background(), &abci.InitChainRequest{AppStateBytes: raw,
		Validators: []abci.ValidatorUpdate{{Power: 10, PubKeyType: "ed25519", PubKeyBytes: pub}}})
	if err != nil {
		t.Fatal(err)
	}

	nonces := map[common.Address]uint64{}
	sent := map[string]outcome{} // every signed transaction, by its bytes
	send := func(w wallet, kind tx.Kind, m map[string]any) []byte {
		m["from"] = w.addr.Hex()
		m["nonce"] = strconv.FormatUint(nonces[w.addr], 10)
		nonces[w.addr]++
		raw := encodeSigned(t, w, kind, p.ChainID, m)
		action, _ := m["action"].(string)
		sent[string(raw)] = outcome{kind: kind, action: action}
		return raw
	}
	// fail is a transaction that fails in its block without using its nonce.
	fail := func(w wallet, kind tx.Kind, m map[string]any) []byte {
		raw := send(w, kind, m)
		nonces[w.addr]--
		return raw
	}
	amount := func(w wallet, kind tx.Kind, n uint64) []byte {
		return send(w, kind, map[string]any{"amount": strconv.FormatUint(n, 10)})
	}
	notOperator := fail
	if ownKeys {
		notOperator = send // any key registers its node
	}
	act := func(actor wallet, action, payload string) []byte {
		return send(op, tx.KindForge, map[string]any{"actor": actor.addr.Hex(), "action": action, "payload": payload})
	}
	sha1, sha2 := "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	badNonce := transfer(t, carol, bob.addr, 1, 99, p.ChainID)

	blocks := [][][]byte{
		// 1: transfers, a tip, staking, a treasury deposit, a username.
		{
			send(alice, tx.KindTransfer, map[string]any{"to": carol.addr.Hex(), "amount": "5000"}),
			send(bob, tx.KindTip, map[string]any{"to": alice.addr.Hex(), "amount": "7", "target": "repo:alice/x"}),
			amount(alice, tx.KindStake, 300_000_000),
			amount(bob, tx.KindStake, 100_000_000),
			amount(carol, tx.KindTreasuryDeposit, 10),
			send(carol, tx.KindClaimUsername, map[string]any{"username": "Carol"}),
			badNonce,
			[]byte("not a transaction"),
		},
		// 2: an unstake, a rename, a node, forge actions.
		{
			amount(alice, tx.KindUnstake, 1_000),
			send(carol, tx.KindClaimUsername, map[string]any{"username": "carol-2"}),
			fail(bob, tx.KindClaimUsername, map[string]any{"username": "carol-2"}), // taken
			send(op, tx.KindRegisterNode, map[string]any{"url": "https://node.example", "peerId": testPeerID, "addrs": "/ip4/1.2.3.4/tcp/4001"}),
			notOperator(alice, tx.KindRegisterNode, map[string]any{"url": "https://x.example", "peerId": testPeerID, "addrs": ""}),
			act(alice, "repo.create", `{"name":"x","description":"the x"}`),
			act(alice, "repo.create", `{"name":"X"}`), // refused: uses the nonce
			act(alice, "repo.collaborator.set", `{"repo":1,"user":"`+bob.addr.Hex()+`","permission":"write"}`),
			act(carol, "repo.star", `{"repo":1}`),
			act(alice, "repo.push", `{"repo":1,"ref":"refs/heads/main","old":"0000000000000000000000000000000000000000","new":"`+sha1+`","commits":[{"sha":"`+sha1+`","author":"`+alice.addr.Hex()+`"}]}`),
		},
		// 3: a proposal of each kind with an effect, an issue, a pull request.
		{
			send(alice, tx.KindPropose, map[string]any{"proposalType": "param", "title": "Quorum", "description": "d", "payload": `{"name":"quorumBps","value":"4000"}`, "deposit": "100"}),
			send(bob, tx.KindPropose, map[string]any{"proposalType": "spend", "title": "Spend", "description": "", "payload": `{"to":"` + carol.addr.Hex() + `","amount":"77","reason":"work"}`, "deposit": "100"}),
			send(bob, tx.KindPropose, map[string]any{"proposalType": "validator", "title": "Validator", "description": "", "payload": `{"pubKey":"CQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","power":"20"}`, "deposit": "100"}),
			send(alice, tx.KindPropose, map[string]any{"proposalType": "text", "title": "Nobody", "description": "", "payload": "{}", "deposit": "100"}),
			fail(carol, tx.KindPropose, map[string]any{"proposalType": "text", "title": "No stake", "description": "", "payload": "{}", "deposit": "100"}),
			act(carol, "issue.create", `{"repo":1,"title":"it breaks"}`),
			act(bob, "pr.create", `{"repo":1,"title":"feature","headBranch":"f","headSha":"`+sha2+`","baseSha":"`+sha1+`"}`),
		},
		// 4: votes, a review, a merge, an issue closed; alice's unbonding matures.
		{
			send(alice, tx.KindVote, map[string]any{"proposal": "1", "option": "yes"}),
			send(bob, tx.KindVote, map[string]any{"proposal": "1", "option": "no"}),
			send(alice, tx.KindVote, map[string]any{"proposal": "2", "option": "yes"}),
			send(bob, tx.KindVote, map[string]any{"proposal": "2", "option": "yes"}),
			send(bob, tx.KindVote, map[string]any{"proposal": "4", "option": "yes"}),
			fail(carol, tx.KindVote, map[string]any{"proposal": "2", "option": "yes"}), // no power
			act(alice, "pr.review", `{"repo":1,"number":2,"state":"approve","body":"ok","commitSha":"`+sha2+`"}`),
			act(alice, "pr.merge", `{"repo":1,"number":2,"style":"merge","mergeSha":"3333333333333333333333333333333333333333"}`),
			act(alice, "issue.close", `{"repo":1,"number":1,"reason":"completed"}`),
		},
		// 5: a new epoch; more stake changes power mid-vote.
		{amount(bob, tx.KindStake, 1_000), send(alice, tx.KindVote, map[string]any{"proposal": "1", "option": "abstain"})},
		// 6, 7, 8: votes end, passed proposals execute after the timelock.
		{amount(alice, tx.KindUnstake, 5)},
		{},
		{fail(bob, tx.KindVote, map[string]any{"proposal": "3", "option": "yes"})},
		{amount(alice, tx.KindStake, 5)},
		{},
	}
	if ownKeys {
		blocks = append(blocks, [][]byte{
			send(carol, tx.KindDelegate, map[string]any{"delegate": bob.addr.Hex(), "scopes": "issue", "expiry": "100"}),
			send(bob, tx.KindForge, map[string]any{"actor": carol.addr.Hex(), "action": "issue.create", "payload": `{"repo":1,"title":"via bob"}`}),
			send(bob, tx.KindForge, map[string]any{"actor": carol.addr.Hex(), "action": "repo.create", "payload": `{"name":"nope"}`}), // out of scope
			send(alice, tx.KindForge, map[string]any{"actor": alice.addr.Hex(), "action": "repo.delete", "payload": `{"repo":1}`}),
			fail(carol, tx.KindUndelegate, map[string]any{"account": alice.addr.Hex(), "delegate": op.addr.Hex()}), // a stranger
			send(carol, tx.KindUndelegate, map[string]any{"account": carol.addr.Hex(), "delegate": bob.addr.Hex()}),
		})
	}

	var run stableRun
	digest := sha256.New()
	enc := json.NewEncoder(digest)
	if err := enc.Encode(init); err != nil {
		t.Fatal(err)
	}
	play := func(height int64, txs [][]byte, steps bool) {
		res := finalize(t, a, height, txs...)
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
		t.Logf("block %d: app hash %x", height, res.AppHash)
		for j, r := range res.TxResults {
			o, ok := sent[string(txs[j])]
			if ok {
				o.height, o.code, o.step = height, r.Code, steps
				run.outcomes = append(run.outcomes, o)
			}
			t.Logf("  tx %d %s %s: code %d %s events %d", j, o.kind, o.action, r.Code, r.Log, len(r.Events))
		}
		for _, ev := range res.Events {
			t.Logf("  block event %s", ev.Type)
		}
	}
	for i, txs := range blocks {
		play(int64(i+1), txs, false)
	}
	run.checkpointHash, run.checkpointResults = hex.EncodeToString(st.Hash()), hex.EncodeToString(digest.Sum(nil))

	// Every action and kind, in the blocks after.
	h0 := len(blocks) + 1
	for i, steps := range coverSteps(t, alice, bob, carol, uint64(h0), ownKeys) {
		txs := make([][]byte, len(steps))
		for j, s := range steps {
			signer := op
			switch {
			case s.action == "":
				txs[j] = send(s.by, s.kind, s.msg)
				continue
			case s.signer != nil:
				signer = *s.signer
			case s.self && ownKeys:
				signer = s.by
			}
			txs[j] = send(signer, tx.KindForge, map[string]any{"actor": s.by.addr.Hex(), "action": s.action, "payload": s.payload})
		}
		play(int64(h0+i), txs, true)
	}
	run.hash, run.results = hex.EncodeToString(st.Hash()), hex.EncodeToString(digest.Sum(nil))
	return run
}
