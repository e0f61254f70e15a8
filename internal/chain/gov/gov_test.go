package gov_test

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/reputation"
	"github.com/dforge/dforge/internal/chain/state"
)

var (
	alice = common.HexToAddress("0xa1")
	bob   = common.HexToAddress("0xb0")
	carol = common.HexToAddress("0xc0")
)

// effects records what governance asked of the app.
type effects struct {
	refunds, forfeits []uint64
	executed          []uint64
	fail              error
}

func (e *effects) SettleDeposit(_ state.KV, p *gov.Proposal, refund bool) error {
	if refund {
		e.refunds = append(e.refunds, p.ID)
	} else {
		e.forfeits = append(e.forfeits, p.ID)
	}
	return nil
}

func (e *effects) Execute(_ state.KV, p *gov.Proposal) error {
	if e.fail != nil {
		return e.fail
	}
	e.executed = append(e.executed, p.ID)
	return nil
}

func testParams() params.Params {
	p := params.Defaults()
	p.Gov.VotingPeriodBlocks, p.Gov.TimelockBlocks, p.Gov.ProposalDeposit = 10, 0, 5
	return p
}

func propose(t *testing.T, kv state.KV, p params.Params, height uint64, typ, payload string) *gov.Proposal {
	t.Helper()
	pr, err := gov.Propose(kv, p, height, gov.Create{Proposer: alice, Type: typ, Title: "Raise the quorum", Payload: payload, Deposit: p.Gov.ProposalDeposit})
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func vote(t *testing.T, kv state.KV, p params.Params, height uint64, who common.Address, id uint64, option string) *gov.Proposal {
	t.Helper()
	pr, _, err := gov.CastVote(kv, p.Reputation, height, who, id, option)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// Power is the stake at the start of the proposal's block times the
// reputation multiplier; stake moved afterwards does not count.
func TestVotingPowerIsSnapshottedAtTheProposal(t *testing.T) {
	kv, p := state.OpenMemory(), testParams()
	must(t, gov.StakeChanged(kv, p.Reputation, alice, 2, 1000))
	must(t, gov.StakeChanged(kv, p.Reputation, bob, 2, 3000))
	if _, err := reputation.Add(kv, p.Reputation, bob, 3, 500); err != nil { // 1.5x
		t.Fatal(err)
	}
	must(t, gov.StakeChanged(kv, p.Reputation, bob, 3, 3000)) // refreshed, as after a reward
	pr := propose(t, kv, p, 5, gov.TypeText, "")
	if pr.TotalPower != 1000+4500 {
		t.Fatalf("total power %d, want 5500", pr.TotalPower)
	}
	must(t, gov.StakeChanged(kv, p.Reputation, bob, 6, 0))      // unstakes everything after the snapshot
	must(t, gov.StakeChanged(kv, p.Reputation, carol, 6, 9999)) // stakes after it
	pr = vote(t, kv, p, 7, bob, pr.ID, gov.Yes)
	if pr.Yes != 4500 {
		t.Fatalf("bob's yes counts %d, want 4500", pr.Yes)
	}
	if _, _, err := gov.CastVote(kv, p.Reputation, 7, carol, pr.ID, gov.Yes); !errors.Is(err, gov.ErrNoPower) {
		t.Fatalf("carol, who staked after the snapshot, voted: %v", err)
	}
}

func TestAVoteCanChangeWhileActiveOnly(t *testing.T) {
	kv, p := state.OpenMemory(), testParams()
	must(t, gov.StakeChanged(kv, p.Reputation, alice, 1, 100))
	pr := propose(t, kv, p, 2, gov.TypeText, "{}")
	vote(t, kv, p, 3, alice, pr.ID, gov.No)
	pr = vote(t, kv, p, 4, alice, pr.ID, gov.Yes)
	if pr.Yes != 100 || pr.No != 0 || pr.Voters != 1 {
		t.Fatalf("after the change: %+v", pr)
	}
	if _, _, err := gov.CastVote(kv, p.Reputation, pr.VotingEndHeight, alice, pr.ID, gov.No); !errors.Is(err, gov.ErrClosed) {
		t.Fatalf("a vote at the end height: %v", err)
	}
	if _, _, err := gov.CastVote(kv, p.Reputation, 4, alice, pr.ID, "maybe"); !errors.Is(err, gov.ErrInvalid) {
		t.Fatalf("option maybe: %v", err)
	}
}

// The tally: quorum counts abstain, the threshold only yes against no.
func TestTally(t *testing.T) {
	cases := []struct {
		name             string
		yes, no, abstain uint64 // of 100 power in four accounts
		status           string
		refund           bool
	}{
		{"passes", 40, 10, 0, gov.StatusExecuted, true},
		{"no quorum", 20, 0, 0, gov.StatusRejected, false},
		{"quorum by abstain, yes wins", 10, 0, 30, gov.StatusExecuted, true},
		{"a tie is not a majority", 20, 20, 0, gov.StatusRejected, true},
		{"all abstain", 0, 0, 40, gov.StatusRejected, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kv, p := state.OpenMemory(), testParams()
			voters := []struct {
				who    common.Address
				stake  uint64
				option string
			}{{alice, c.yes, gov.Yes}, {bob, c.no, gov.No}, {carol, c.abstain, gov.Abstain}, {common.HexToAddress("0xd0"), 100 - c.yes - c.no - c.abstain, ""}}
			for _, v := range voters {
				if v.stake > 0 {
					must(t, gov.StakeChanged(kv, p.Reputation, v.who, 1, v.stake))
				}
			}
			pr := propose(t, kv, p, 2, gov.TypeParam, `{"name":"quorumBps","value":"5000"}`)
			for _, v := range voters {
				if v.option != "" && v.stake > 0 {
					vote(t, kv, p, 3, v.who, pr.ID, v.option)
				}
			}
			fx := &effects{}
			changed, err := gov.BeginBlock(kv, pr.VotingEndHeight, 0, fx)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := gov.GetProposal(kv, pr.ID)
			if got.Status != c.status || len(changed) == 0 {
				t.Fatalf("status %s, want %s (%+v)", got.Status, c.status, got)
			}
			if (len(fx.refunds) == 1) != c.refund {
				t.Fatalf("refunds %v, forfeits %v", fx.refunds, fx.forfeits)
			}
		})
	}
}

func TestExecutionWaitsForTheTimelockAndRecordsAFailure(t *testing.T) {
	kv, p := state.OpenMemory(), testParams()
	must(t, gov.StakeChanged(kv, p.Reputation, alice, 1, 100))
	pr := propose(t, kv, p, 2, gov.TypeSpend, `{"to":"0x00000000000000000000000000000000000000b0","amount":"99","reason":"audit"}`)
	vote(t, kv, p, 3, alice, pr.ID, gov.Yes)
	fx := &effects{fail: errors.New("the treasury holds 5 micro-units, the spend asks for 99")}
	if _, err := gov.BeginBlock(kv, pr.VotingEndHeight, 4, fx); err != nil {
		t.Fatal(err)
	}
	got, _ := gov.GetProposal(kv, pr.ID)
	if got.Status != gov.StatusPassed || got.ExecuteHeight != pr.VotingEndHeight+4 {
		t.Fatalf("after the vote: %+v", got)
	}
	if _, err := gov.BeginBlock(kv, got.ExecuteHeight, 4, fx); err != nil {
		t.Fatal(err)
	}
	got, _ = gov.GetProposal(kv, pr.ID)
	if got.Status != gov.StatusFailed || got.Failure != fx.fail.Error() {
		t.Fatalf("after execution: %+v", got)
	}
}

func TestBadProposalsAreRefused(t *testing.T) {
	p := testParams()
	cases := map[string]gov.Create{
		"no title":             {Type: gov.TypeText, Deposit: 5},
		"unknown type":         {Type: "coup", Title: "x", Deposit: 5},
		"unknown param":        {Type: gov.TypeParam, Title: "x", Payload: `{"name":"chainId","value":"1"}`, Deposit: 5},
		"param out of range":   {Type: gov.TypeParam, Title: "x", Payload: `{"name":"quorumBps","value":"10001"}`, Deposit: 5},
		"spend to zero":        {Type: gov.TypeSpend, Title: "x", Payload: `{"to":"0x0000000000000000000000000000000000000000","amount":"1","reason":"r"}`, Deposit: 5},
		"spend without reason": {Type: gov.TypeSpend, Title: "x", Payload: `{"to":"0x00000000000000000000000000000000000000b0","amount":"1","reason":""}`, Deposit: 5},
		"bad validator key":    {Type: gov.TypeValidator, Title: "x", Payload: `{"pubKey":"AAAA","power":"1"}`, Deposit: 5},
		"extra payload":        {Type: gov.TypeText, Title: "x", Payload: `{"a":"b"}`, Deposit: 5},
		"wrong deposit":        {Type: gov.TypeText, Title: "x", Deposit: 4},
	}
	for name, c := range cases {
		if _, err := c.Validate(p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Decayed reputation reaches voting power through the sweep, and the total
// stays the sum of the records.
func TestSweepCarriesDecayIntoPower(t *testing.T) {
	kv, p := state.OpenMemory(), testParams()
	if _, err := reputation.AdvanceEpoch(kv, 1, 10); err != nil {
		t.Fatal(err)
	}
	if _, err := reputation.Add(kv, p.Reputation, bob, 1, 500); err != nil { // 1.5x
		t.Fatal(err)
	}
	must(t, ledger.InitGenesis(kv, []ledger.Allocation{{Address: alice, Amount: 100}, {Address: bob, Amount: 1000}}))
	must(t, ledger.Stake(kv, alice, 100))
	must(t, ledger.Stake(kv, bob, 1000))
	must(t, gov.StakeChanged(kv, p.Reputation, alice, 1, 100))
	must(t, gov.StakeChanged(kv, p.Reputation, bob, 1, 1000))
	if total, _ := gov.TotalPowerBefore(kv, p.Reputation, 2); total != 100+1500 {
		t.Fatalf("total %d, want 1600", total)
	}
	for h := uint64(2); h <= 31; h++ { // three epochs: 500 × 0.98³ = 470 points, 1.47x
		if _, err := reputation.AdvanceEpoch(kv, h, 10); err != nil {
			t.Fatal(err)
		}
		must(t, gov.Sweep(kv, p.Reputation, h, 1))
	}
	_, m, power, _ := gov.PowerBefore(kv, p.Reputation, bob, 32)
	if m != 14_700 || power != 1470 {
		t.Fatalf("bob after decay: multiplier %d, power %d", m, power)
	}
	if total, _ := gov.TotalPowerBefore(kv, p.Reputation, 32); total != 100+1470 {
		t.Fatalf("total %d, want 1570", total)
	}
}
