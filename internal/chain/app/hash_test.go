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
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// Expected results of TestAppHashStable, computed on the code before the
// chain modules were reshaped (issue 13). A change to either value is a
// CONSENSUS CHANGE: every node running the old code would compute another
// app hash, or give other events, for the same blocks. Update them only
// with a deliberate, coordinated upgrade of the chain.
const (
	stableAppHash = "8c72bbdd5840db1e344a4bbfc8833e7de14816c7f67311b1704d92e894ac1c0e"
	stableResults = "360c0bc40d300d23be362f8537b23e463ac1c52eaedd7c995d60051aa4d1369d"
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

// TestAppHashStable runs a fixed sequence of blocks through every kind of
// transaction and every block-start rule (unbondings maturing, a new reward
// epoch, a vote ending, a proposal executing, failed transactions, a
// refused forge action that still uses its nonce), and checks the final app
// hash and a digest of every FinalizeBlock answer (events with their
// attribute keys and order, result codes and logs) against the values the
// code gave before it was refactored.
func TestAppHashStable(t *testing.T) {
	checkPins(t, false, stableAppHash, stableResults)
}

// checkPins plays the stable chain and compares it with its pins.
func checkPins(t *testing.T, ownKeys bool, wantHash, wantResults string) {
	hash, results := playStableChain(t, ownKeys)
	if hash != wantHash {
		t.Errorf("app hash %s, want %s: a consensus change", hash, wantHash)
	}
	if results != wantResults {
		t.Errorf("block results digest %s, want %s: a consensus change (events, codes or logs)", results, wantResults)
	}
}

// Expected results of TestAppHashStableOwnKeys: the same blocks on a chain
// born with every upgrade this binary knows (upgrade.All: own-keys,
// safe-urls, route-names, pending-transfers), as a new chain's genesis lists them, where the operator
// relays under genesis delegations, plus a block of delegations given,
// used, refused and revoked. Pinned on purpose when own-keys was made,
// again when safe-urls joined the list (the genesis marks it done), again
// when own-keys bounded node registrations per block (the chain keeps a
// count, so the node registered in block 2 changes the state), again
// when route-names joined the list, and again when pending-transfers
// joined it (the genesis marks it done, and the last block offers a
// transfer its recipient rejects); the same warning holds.
const (
	ownKeysAppHash = "801167d6b1916c32bd081e76bc48646f0d2e7e22f0d111ca3b3fc91ad051f1ec"
	ownKeysResults = "801b88163df40eabf3ba2729d3be07fdd024da84a564052d80078ec0f399b26f"
)

func TestAppHashStableOwnKeys(t *testing.T) {
	checkPins(t, true, ownKeysAppHash, ownKeysResults)
}

// playStableChain runs the fixed blocks and returns the final app hash and
// the digest of every FinalizeBlock answer; ownKeys makes the chain under
// the rules of every known upgrade.
func playStableChain(t *testing.T, ownKeys bool) (string, string) {
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
	send := func(w wallet, kind tx.Kind, m map[string]any) []byte {
		m["from"] = w.addr.Hex()
		m["nonce"] = strconv.FormatUint(nonces[w.addr], 10)
		nonces[w.addr]++
		return encodeSigned(t, w, kind, p.ChainID, m)
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
			// pending-transfers: an offer signed by its owner, refused by its recipient through the operator.
			send(alice, tx.KindForge, map[string]any{"actor": alice.addr.Hex(), "action": "repo.transfer", "payload": `{"repo":1,"newOwner":"` + carol.addr.Hex() + `"}`}),
			act(bob, "repo.transfer.accept", `{"repo":1}`), // not the recipient
			act(carol, "repo.transfer.reject", `{"repo":1}`),
			send(alice, tx.KindForge, map[string]any{"actor": alice.addr.Hex(), "action": "repo.delete", "payload": `{"repo":1}`}),
			fail(carol, tx.KindUndelegate, map[string]any{"account": alice.addr.Hex(), "delegate": op.addr.Hex()}), // a stranger
			send(carol, tx.KindUndelegate, map[string]any{"account": carol.addr.Hex(), "delegate": bob.addr.Hex()}),
		})
	}

	digest := sha256.New()
	enc := json.NewEncoder(digest)
	if err := enc.Encode(init); err != nil {
		t.Fatal(err)
	}
	for i, txs := range blocks {
		res := finalize(t, a, int64(i+1), txs...)
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
		t.Logf("block %d: app hash %x", i+1, res.AppHash)
		for j, r := range res.TxResults {
			t.Logf("  tx %d: code %d %s events %d", j, r.Code, r.Log, len(r.Events))
		}
		for _, ev := range res.Events {
			t.Logf("  block event %s", ev.Type)
		}
	}
	return hex.EncodeToString(st.Hash()), hex.EncodeToString(digest.Sum(nil))
}
