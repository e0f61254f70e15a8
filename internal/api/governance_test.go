package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/tx"
)

// The shapes of the governance contract, as a client decodes them.
type (
	tallyJSON struct {
		Yes          uint64 `json:"yes"`
		No           uint64 `json:"no"`
		Abstain      uint64 `json:"abstain"`
		TotalPower   uint64 `json:"total_power"`
		Voters       uint64 `json:"voters"`
		QuorumBps    uint64 `json:"quorum_bps"`
		ThresholdBps uint64 `json:"threshold_bps"`
	}
	proposalJSON struct {
		ID              uint64            `json:"id"`
		Proposer        string            `json:"proposer"`
		ProposerName    string            `json:"proposer_name"`
		Type            string            `json:"type"`
		Title           string            `json:"title"`
		Description     string            `json:"description"`
		DescriptionHTML string            `json:"description_html"`
		Payload         map[string]string `json:"payload"`
		Deposit         uint64            `json:"deposit"`
		Status          string            `json:"status"`
		Failure         string            `json:"failure"`
		CreatedHeight   int64             `json:"created_height"`
		CreatedAt       string            `json:"created_at"`
		VotingEndHeight int64             `json:"voting_end_height"`
		ExecuteHeight   int64             `json:"execute_height"`
		Tally           tallyJSON         `json:"tally"`
		EndedHeight     *int64            `json:"ended_height"`
	}
	voteJSON struct {
		Proposal  uint64 `json:"proposal"`
		Voter     string `json:"voter"`
		VoterName string `json:"voter_name"`
		Option    string `json:"option"`
		Power     uint64 `json:"power"`
		Height    int64  `json:"height"`
		Time      string `json:"time"`
	}
	powerJSON struct {
		Address       string  `json:"address"`
		Stake         uint64  `json:"stake"`
		Reputation    uint64  `json:"reputation"`
		MultiplierBps uint64  `json:"multiplierBps"`
		Power         uint64  `json:"power"`
		Proposal      *uint64 `json:"proposal"`
	}
	paramDocJSON struct {
		Name, Group, Value, Default, Min, Max, Unit, Doc string
	}
	chainParamsJSON struct {
		Gov        map[string]uint64 `json:"gov"`
		Rewards    map[string]uint64 `json:"rewards"`
		Reputation map[string]uint64 `json:"reputation"`
	}
	reputationJSON struct {
		Address       string            `json:"address"`
		Reputation    uint64            `json:"reputation"`
		MultiplierBps uint64            `json:"multiplier_bps"`
		Scores        map[string]uint64 `json:"scores"`
		Earned        uint64            `json:"earned"`
		Withheld      uint64            `json:"withheld"`
	}
	figuresJSON struct {
		Supply          uint64 `json:"supply"`
		Staked          uint64 `json:"staked"`
		Treasury        uint64 `json:"treasury"`
		RewardsPerEpoch []struct {
			Epoch  uint64 `json:"epoch"`
			Minted uint64 `json:"minted"`
		} `json:"rewards_per_epoch"`
		Proposals map[string]int64 `json:"proposals"`
	}
)

// votingBlocks is the test chain's voting period: room for two votes even
// when CometBFT adds an empty block after each transaction.
const votingBlocks = 8

// untilEnded relays cheap transfers from s (blocks are made only for
// transactions) until proposal id is no longer active.
func (n *chainNode) untilEnded(t *testing.T, s *signer, id uint64) proposalJSON {
	t.Helper()
	path := "/api/v1/governance/proposals/" + strconv.FormatUint(id, 10)
	for range 3 * votingBlocks {
		if _, p := get[proposalJSON](t, n, path); p.Status != "active" {
			return p
		}
		n.send(t, s, tx.KindTransfer, map[string]any{"to": s.addr.Hex(), "amount": "1"})
	}
	t.Fatalf("proposal #%d is still active", id)
	return proposalJSON{}
}

// TestGovernance makes proposals through the API as a wallet does
// (EIP-712-signed transactions relayed to POST /api/v1/chain/txs) and
// reads them back: the deposit in escrow, the proposal and its tally, each
// voter's power, the end of the vote and the parameter it changed, and a
// proposal rejected for want of a quorum.
func TestGovernance(t *testing.T) {
	t.Parallel()
	alice, bob := newSigner(), newSigner()
	p := app.DefaultParams()
	p.Gov.VotingPeriodBlocks, p.Gov.TimelockBlocks, p.Gov.ProposalDeposit, p.Gov.MinProposerStake = votingBlocks, 0, 1_000, 5_000
	n := startChainNodeWith(t, app.Genesis{Params: p,
		Allocations: []ledger.Allocation{{Address: alice.addr, Amount: 1_000_000}, {Address: bob.addr, Amount: 1_000_000}},
		// bob's reputation makes his power 1.5 times his stake.
		Reputation: []app.ReputationGrant{{Address: bob.addr, Score: 500}},
	})
	n.send(t, alice, tx.KindStake, map[string]any{"amount": "30000"})
	n.send(t, bob, tx.KindStake, map[string]any{"amount": "10000"})

	// 1. The parameters and their documentation.
	_, params := get[chainParamsJSON](t, n, "/api/v1/chain/params")
	if params.Gov["votingPeriodBlocks"] != votingBlocks || params.Gov["quorumBps"] != 3340 || params.Gov["proposalDeposit"] != 1_000 ||
		params.Rewards["pr"] != 100_000_000 || params.Rewards["minRepoContributors"] != 2 ||
		params.Reputation["multiplierPerPointBps"] != 10 || params.Reputation["maxMultiplierBps"] != 20_000 {
		t.Fatalf("params = %+v", params)
	}
	docOf := func(name string) paramDocJSON {
		t.Helper()
		_, docs := get[[]paramDocJSON](t, n, "/api/v1/chain/param-docs")
		for _, d := range docs {
			if d.Name == name {
				return d
			}
		}
		t.Fatalf("no doc for %s in %+v", name, docs)
		return paramDocJSON{}
	}
	if d := docOf("quorumBps"); d.Group != "gov" || d.Value != "3340" || d.Default != "3340" || d.Unit != "bps" || d.Min != "1" || d.Max != "10000" || d.Doc == "" {
		t.Fatalf("quorumBps doc = %+v", d)
	}
	if d := docOf("votingPeriodBlocks"); d.Value != strconv.Itoa(votingBlocks) || d.Default != "43200" {
		t.Fatalf("votingPeriodBlocks doc = %+v", d)
	}

	// 2. Alice proposes: her deposit moves into escrow.
	created := n.send(t, alice, tx.KindPropose, map[string]any{"proposalType": "param", "title": "Raise the quorum",
		"description": "Raise it to **40 %**.\n\n<script>alert(1)</script>", "payload": `{"name":"quorumBps","value":"4000"}`, "deposit": "1000"})
	if _, a := get[map[string]any](t, n, "/api/v1/accounts/"+alice.addr.Hex()); a["balance"] != 969_000.0 || a["staked"] != 30_000.0 {
		t.Fatalf("alice after proposing = %v", a)
	}
	if _, e := get[map[string]any](t, n, "/api/v1/accounts/"+app.EscrowAddress.Hex()); e["balance"] != 1_000.0 {
		t.Fatalf("escrow = %v", e)
	}
	res, active := get[[]proposalJSON](t, n, "/api/v1/governance/proposals?status=active")
	if res.Header.Get("X-Total-Count") != "1" || len(active) != 1 {
		t.Fatalf("active proposals = %+v", active)
	}
	pr := active[0]
	want := tallyJSON{TotalPower: 30_000 + 15_000, QuorumBps: 3340, ThresholdBps: 5000}
	if created.ProposalID != 1 {
		t.Fatalf("the Propose's result names proposal %d, want 1", created.ProposalID)
	}
	if pr.ID != 1 || pr.Proposer != alice.addr.Hex() || pr.ProposerName == "" || pr.Type != "param" || pr.Status != "active" ||
		pr.Payload["name"] != "quorumBps" || pr.Payload["value"] != "4000" || pr.Deposit != 1_000 || pr.Tally != want ||
		pr.CreatedHeight != created.Height || pr.VotingEndHeight != created.Height+votingBlocks-1 || pr.EndedHeight != nil ||
		pr.ExecuteHeight != 0 || pr.CreatedAt == "" || pr.Failure != "" {
		t.Fatalf("proposal = %+v", pr)
	}
	if !strings.Contains(pr.DescriptionHTML, "<strong>40 %</strong>") || strings.Contains(pr.DescriptionHTML, "<script") {
		t.Fatalf("description_html = %q", pr.DescriptionHTML)
	}

	// 3. Voting power: the snapshot's stake times the multiplier.
	_, bobPower := get[powerJSON](t, n, "/api/v1/governance/power/"+strings.ToLower(bob.addr.Hex())+"?proposal=1")
	if bobPower != (powerJSON{Address: bob.addr.Hex(), Stake: 10_000, Reputation: 500, MultiplierBps: 15_000, Power: 15_000, Proposal: bobPower.Proposal}) ||
		bobPower.Proposal == nil || *bobPower.Proposal != 1 {
		t.Fatalf("bob's power on #1 = %+v", bobPower)
	}
	if _, now := get[powerJSON](t, n, "/api/v1/governance/power/"+alice.addr.Hex()); now.Proposal != nil || now.Stake != 30_000 || now.Power != 30_000 || now.MultiplierBps != 10_000 {
		t.Fatalf("alice's power now = %+v", now)
	}

	// 4. Two votes with different powers; the list is newest first.
	n.send(t, alice, tx.KindVote, map[string]any{"proposal": "1", "option": "yes"})
	n.send(t, bob, tx.KindVote, map[string]any{"proposal": "1", "option": "no"})
	res, votes := get[[]voteJSON](t, n, "/api/v1/governance/proposals/1/votes")
	if res.Header.Get("X-Total-Count") != "2" || len(votes) != 2 || votes[0].Voter != bob.addr.Hex() || votes[0].Option != "no" ||
		votes[0].Power != bobPower.Power || votes[0].VoterName == "" || votes[0].Time == "" || votes[1].Voter != alice.addr.Hex() || votes[1].Power != 30_000 {
		t.Fatalf("votes = %+v", votes)
	}
	// One voter's vote, as the proposal page asks for it.
	if _, mine := get[[]voteJSON](t, n, "/api/v1/governance/proposals/1/votes?voter="+strings.ToLower(alice.addr.Hex())); len(mine) != 1 || mine[0].Voter != alice.addr.Hex() || mine[0].Option != "yes" {
		t.Fatalf("alice's vote = %+v", mine)
	}
	if _, none := get[[]voteJSON](t, n, "/api/v1/governance/proposals/1/votes?voter=0x000000000000000000000000000000000000cafe"); len(none) != 0 {
		t.Fatalf("a voter who did not vote has votes: %+v", none)
	}
	if _, p := get[proposalJSON](t, n, "/api/v1/governance/proposals/1"); p.Tally.Yes != 30_000 || p.Tally.No != 15_000 || p.Tally.Voters != 2 {
		t.Fatalf("tally after the votes = %+v", p.Tally)
	}

	// 5. The vote ends: it passes, executes at once (no timelock), the
	// deposit comes back and the parameter changes.
	done := n.untilEnded(t, bob, 1)
	if done.Status != "executed" || done.EndedHeight == nil || *done.EndedHeight != done.VotingEndHeight+1 || done.ExecuteHeight != *done.EndedHeight {
		t.Fatalf("after the vote = %+v", done)
	}
	if _, params := get[chainParamsJSON](t, n, "/api/v1/chain/params"); params.Gov["quorumBps"] != 4000 {
		t.Fatalf("quorumBps after the change = %d", params.Gov["quorumBps"])
	}
	if d := docOf("quorumBps"); d.Value != "4000" || d.Default != "3340" {
		t.Fatalf("quorumBps doc after the change = %+v", d)
	}
	if _, a := get[map[string]any](t, n, "/api/v1/accounts/"+alice.addr.Hex()); a["balance"] != 970_000.0 {
		t.Fatalf("alice after the deposit came back = %v", a)
	}

	// 6. Bob's text proposal gets no votes: rejected, the deposit forfeited.
	_, before := get[map[string]any](t, n, "/api/v1/accounts/"+app.TreasuryAddress.Hex())
	n.send(t, bob, tx.KindPropose, map[string]any{"proposalType": "text", "title": "Nobody will vote", "description": "", "payload": "{}", "deposit": "1000"})
	if rejected := n.untilEnded(t, alice, 2); rejected.Status != "rejected" || rejected.Tally.QuorumBps != 4000 || rejected.ExecuteHeight != 0 || rejected.DescriptionHTML != "" {
		t.Fatalf("rejected proposal = %+v", rejected)
	}
	if _, after := get[map[string]any](t, n, "/api/v1/accounts/"+app.TreasuryAddress.Hex()); after["balance"].(float64) != before["balance"].(float64)+1_000 {
		t.Fatalf("treasury %v -> %v", before["balance"], after["balance"])
	}
	res, all := get[[]proposalJSON](t, n, "/api/v1/governance/proposals")
	if res.Header.Get("X-Total-Count") != "2" || len(all) != 2 || all[0].ID != 2 || all[1].ID != 1 {
		t.Fatalf("all proposals = %+v", all)
	}
	if _, rejected := get[[]proposalJSON](t, n, "/api/v1/governance/proposals?status=rejected"); len(rejected) != 1 || rejected[0].ID != 2 {
		t.Fatalf("rejected proposals = %+v", rejected)
	}
	_, figures := get[figuresJSON](t, n, "/api/v1/analytics/governance")
	if figures.Proposals["executed"] != 1 || figures.Proposals["rejected"] != 1 || figures.Proposals["active"] != 0 ||
		figures.Staked != 40_000 || figures.Supply != 2_000_000 || figures.Treasury != 1_000 || figures.RewardsPerEpoch == nil {
		t.Fatalf("figures = %+v", figures)
	}

	// 7. Reputation without rewards: the genesis score, no contributions.
	_, rep := get[reputationJSON](t, n, "/api/v1/accounts/"+bob.addr.Hex()+"/reputation")
	if rep.Address != bob.addr.Hex() || rep.Reputation != 500 || rep.MultiplierBps != 15_000 || rep.Scores["total"] != 0 || rep.Earned != 0 {
		t.Fatalf("bob's reputation = %+v", rep)
	}

	// 8. Bad input.
	bad := map[string]string{
		"/api/v1/governance/proposals?status=pending":                         "400 invalid_status",
		"/api/v1/governance/proposals?page=-1":                                "400 invalid_page",
		"/api/v1/governance/proposals/99":                                     "404 not_found",
		"/api/v1/governance/proposals/0":                                      "400 invalid_id",
		"/api/v1/governance/proposals/abc":                                    "400 invalid_id",
		"/api/v1/governance/proposals/99/votes":                               "404 not_found",
		"/api/v1/governance/proposals/1/votes?voter=0x12":                     "400 invalid_address",
		"/api/v1/governance/power/0x12":                                       "400 invalid_address",
		"/api/v1/governance/power/" + bob.addr.Hex() + "?proposal=99":         "404 not_found",
		"/api/v1/governance/power/" + bob.addr.Hex() + "?proposal=first":      "400 invalid_id",
		"/api/v1/accounts/0x12/reputation":                                    "400 invalid_address",
		"/api/v1/rewards?account=bob":                                         "400 invalid_address",
		"/api/v1/leaderboard?period=year":                                     "400 invalid_period",
		"/api/v1/leaderboard?limit=many":                                      "400 invalid_limit",
		"/api/v1/governance/power/" + common.Address{}.Hex() + "?proposal=-1": "400 invalid_id",
	}
	for path, want := range bad {
		res, e := get[apiError](t, n, path)
		if got := strconv.Itoa(res.StatusCode) + " " + e.Code; got != want || e.Message == "" {
			t.Errorf("GET %s = %s %q, want %s", path, got, e.Message, want)
		}
	}
	if res, rewards := get[[]map[string]any](t, n, "/api/v1/rewards"); res.StatusCode != http.StatusOK || res.Header.Get("X-Total-Count") != "0" || len(rewards) != 0 {
		t.Fatalf("rewards = %d %v", res.StatusCode, rewards)
	}
	if _, ranks := get[[]map[string]any](t, n, "/api/v1/leaderboard?period=week"); ranks == nil || len(ranks) != 0 {
		t.Fatalf("leaderboard = %#v", ranks)
	}
}
