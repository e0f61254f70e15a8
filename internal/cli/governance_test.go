package cli

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/chain/tx"
)

// TestGovernanceOnFourValidators runs four validator processes and a full
// node, stakes from three accounts (one with reputation), and puts four
// proposals through their whole life: a parameter change and a treasury
// spend that pass and execute after the timelock, a text proposal
// rejected for want of quorum, and a validator-set change that makes the
// full node a validator, which then signs blocks. The tally is checked by
// hand, and every node ends with the same app hash.
func TestGovernanceOnFourValidators(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	alice, bob, carol := newVoter(t), newVoter(t), newVoter(t)
	dave := common.HexToAddress("0x000000000000000000000000000000000000Da7e")
	const token = 1_000_000
	dir := filepath.Join(t.TempDir(), "net")
	args := []string{"testnet", "--validators", "4", "--full-nodes", "1", "--out", dir, "--empty-blocks", "300ms",
		"--param", "votingPeriodBlocks=30", "--param", "timelockBlocks=2",
		"--param", "proposalDeposit=10000000", "--param", "minProposerStake=100000000",
		"--reputation", bob.addr.Hex() + "=500"} // 1.5x
	for _, v := range []*voter{alice, bob, carol} {
		args = append(args, "--alloc", fmt.Sprintf("%s=%d", v.addr.Hex(), 10_000*token))
	}
	if err := Run(ctx, args, io.Discard); err != nil {
		t.Fatal(err)
	}
	nodes := make([]*nodeProc, 5)
	for i := range nodes {
		nodes[i] = startNodeProc(t, ctx, node.TestnetHome(dir, i), fmt.Sprintf("node%d", i))
	}
	eventually(t, ctx, "5 nodes connected", time.Minute, func() (string, bool) { return connected(ctx, nodes, 4) })

	// 1. Stake: power is stake × multiplier, so 1000, 3000 and 600 tokens.
	for _, s := range []struct {
		v      *voter
		tokens uint64
	}{{alice, 1000}, {bob, 2000}, {carol, 600}} {
		s.v.send(t, ctx, nodes[0], tx.KindStake, map[string]any{"amount": strconv.FormatUint(s.tokens*token, 10)})
	}

	// 2. Four proposals from alice, ids 1 to 4 in order.
	pubKey, valAddr := validatorKey(t, node.TestnetHome(dir, 4))
	proposals := []struct{ typ, title, payload string }{
		{"param", "Raise the quorum to 50 %", `{"name":"quorumBps","value":"5000"}`},
		{"spend", "Pay Dave for the audit", fmt.Sprintf(`{"to":"%s","amount":"%d","reason":"security audit"}`, dave.Hex(), 123*token)},
		{"text", "Adopt a logo nobody votes for", `{}`},
		{"validator", "Make node4 a validator", fmt.Sprintf(`{"pubKey":"%s","power":"10"}`, pubKey)},
	}
	for i, p := range proposals {
		alice.send(t, ctx, nodes[i%4], tx.KindPropose, map[string]any{
			"proposalType": p.typ, "title": p.title, "description": "Why: see the **forum**.", "payload": p.payload, "deposit": "10000000",
		})
	}

	// 3. Votes, through different nodes; carol changes her mind once.
	for _, v := range []struct {
		who      *voter
		proposal int
		option   string
	}{
		{alice, 1, "yes"}, {bob, 1, "yes"}, {carol, 1, "yes"}, {carol, 1, "no"},
		{alice, 2, "yes"}, {bob, 2, "yes"},
		{carol, 3, "yes"},
		{alice, 4, "yes"}, {bob, 4, "yes"},
	} {
		v.who.send(t, ctx, nodes[v.proposal%4], tx.KindVote, map[string]any{"proposal": strconv.Itoa(v.proposal), "option": v.option})
	}

	// 4. The outcomes, read on the full node.
	want := map[int]string{1: "executed", 2: "executed", 3: "rejected", 4: "executed"}
	got := map[int]proposalView{}
	eventually(t, ctx, "every proposal decided", 2*time.Minute, func() (string, bool) {
		var states []string
		done := true
		for id, status := range want {
			p, err := readProposal(ctx, nodes[4], id)
			got[id] = p
			states = append(states, fmt.Sprintf("#%d %s %v", id, p.Status, err))
			done = done && err == nil && p.Status == status
		}
		return strings.Join(states, ", "), done
	})
	// The tally by hand: alice 1000 × 1.0 + bob 2000 × 1.5 yes, carol 600 × 1.0 no.
	if tl := got[1].Tally; tl.Yes != 4000*token || tl.No != 600*token || tl.Abstain != 0 || tl.TotalPower != 4600*token || tl.Voters != 3 {
		t.Fatalf("tally of #1: %+v", tl)
	}
	// #3: 600 of 4600 voted, below the 33.4 % quorum.
	if tl := got[3].Tally; tl.Yes != 600*token || tl.TotalPower != 4600*token {
		t.Fatalf("tally of #3: %+v", tl)
	}

	// 5. The effects hold on every node.
	for _, n := range nodes {
		var params struct {
			Gov struct{ QuorumBps uint64 } `json:"gov"`
		}
		if err := getJSON(ctx, n.url+"/api/v1/chain/params", &params); err != nil || params.Gov.QuorumBps != 5000 {
			t.Fatalf("%s: quorum %d after the change (%v)", n.name, params.Gov.QuorumBps, err)
		}
		if acct := account(ctx, n, dave); acct != fmt.Sprintf("balance %d nonce 0", 123*token) {
			t.Fatalf("%s: dave after the spend: %s", n.name, acct)
		}
	}
	// The new quorum takes effect: #5 gets 1600 of 4600 (34.8 %), enough
	// under the old 33.4 % but not under the new 50 %.
	alice.send(t, ctx, nodes[1], tx.KindPropose, map[string]any{
		"proposalType": "text", "title": "Judged by the new quorum", "description": "", "payload": "{}", "deposit": "10000000",
	})
	alice.send(t, ctx, nodes[2], tx.KindVote, map[string]any{"proposal": "5", "option": "yes"})
	carol.send(t, ctx, nodes[3], tx.KindVote, map[string]any{"proposal": "5", "option": "yes"})
	eventually(t, ctx, "#5 decided", 2*time.Minute, func() (string, bool) {
		p, err := readProposal(ctx, nodes[4], 5)
		got[5] = p
		return fmt.Sprintf("#5 %s %v", p.Status, err), err == nil && p.Status != "active"
	})
	if p := got[5]; p.Status != "rejected" || p.Tally.Yes != 1600*token || p.Tally.TotalPower != 4600*token {
		t.Fatalf("#5 under the new quorum: %+v", p)
	}
	// Deposits: three back to alice, two (the rejected #3's and #5's) forfeited.
	if acct := account(ctx, nodes[0], alice.addr); acct != fmt.Sprintf("balance %d nonce %d", (10_000-1000-20)*token, alice.nonce) {
		t.Fatalf("alice: %s", acct)
	}

	// 6. node4 joined the validator set and signs blocks.
	eventually(t, ctx, "node4 signs a block", time.Minute, func() (string, bool) {
		return signedBy(ctx, nodes[0], valAddr)
	})
	var status struct {
		SyncInfo struct {
			Height int64 `json:"latest_block_height,string"`
		} `json:"sync_info"`
	}
	if err := rpcResult(ctx, nodes[0].rpc, "/status", &status); err != nil {
		t.Fatal(err)
	}
	final := waitSameState(t, ctx, nodes, status.SyncInfo.Height)
	assertSameBlock(t, ctx, nodes, final)
}

// voter is an account that signs its own transactions.
type voter struct {
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
}

func newVoter(t *testing.T) *voter {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return &voter{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// send signs kind with fields (from and nonce added) and relays it through
// n, failing the test unless it commits.
func (v *voter) send(t *testing.T, ctx context.Context, n *nodeProc, kind tx.Kind, fields map[string]any) int64 {
	t.Helper()
	fields["from"], fields["nonce"] = v.addr.Hex(), strconv.FormatUint(v.nonce, 10)
	env, err := tx.Sign(v.key, kind, fields, app.DefaultParams().ChainID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(env)
	req, _ := http.NewRequestWithContext(ctx, "POST", n.url+"/api/v1/chain/txs", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("relay %s through %s: %v", kind, n.name, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var got struct {
		Height int64
		Code   uint32
	}
	if err := json.Unmarshal(raw, &got); err != nil || res.StatusCode != 200 || got.Code != 0 {
		t.Fatalf("%s from %s through %s: %d %s", kind, v.addr.Hex(), n.name, res.StatusCode, raw)
	}
	v.nonce++
	return got.Height
}

type proposalView struct {
	Status string
	Tally  struct {
		Yes, No, Abstain uint64
		TotalPower       uint64 `json:"total_power"`
		Voters           uint64
	}
}

func readProposal(ctx context.Context, n *nodeProc, id int) (proposalView, error) {
	var p proposalView
	err := getJSON(ctx, fmt.Sprintf("%s/api/v1/governance/proposals/%d", n.url, id), &p)
	return p, err
}

// validatorKey reads a node's validator public key (base64) and address.
func validatorKey(t *testing.T, home string) (string, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(cometHome(home), "config", "priv_validator_key.json"))
	if err != nil {
		t.Fatal(err)
	}
	var key struct {
		Address string
		PubKey  struct{ Value string } `json:"pub_key"`
	}
	if err := json.Unmarshal(raw, &key); err != nil {
		t.Fatal(err)
	}
	return key.PubKey.Value, key.Address
}

// signedBy reports whether the latest committed block carries a commit
// signature from the validator with the given address.
func signedBy(ctx context.Context, n *nodeProc, addr string) (string, bool) {
	var commit struct {
		SignedHeader struct {
			Commit struct {
				Height     string
				Signatures []struct {
					Flag    int    `json:"block_id_flag"`
					Address string `json:"validator_address"`
				}
			}
		} `json:"signed_header"`
	}
	if err := rpcResult(ctx, n.rpc, "/commit", &commit); err != nil {
		return err.Error(), false
	}
	c := commit.SignedHeader.Commit
	for _, s := range c.Signatures {
		if strings.EqualFold(s.Address, addr) && s.Flag == 2 {
			return "signed at " + c.Height, true
		}
	}
	return fmt.Sprintf("height %s: %d signatures, none from %s", c.Height, len(c.Signatures), addr), false
}
