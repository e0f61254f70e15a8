package gov_test

import (
	"errors"
	"testing"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/params"
)

// A grant proposal's payload is checked when it is made: its members
// exactly, and the grant's terms.
func TestGrantProposalValidate(t *testing.T) {
	p := params.Defaults()
	good := `{"milestones":"[{\"description\":\"Write it\",\"amount\":\"10\",\"recipient\":\"0x00000000000000000000000000000000000000b0\"}]",` +
		`"reviewers":"0x00000000000000000000000000000000000000a1, 0x00000000000000000000000000000000000000c0","expiry":"50"}`
	c := gov.Create{Proposer: alice, Type: gov.TypeGrant, Title: "A grant", Payload: good, Deposit: p.Gov.ProposalDeposit}
	m, err := c.Validate(p)
	if err != nil || m["expiry"] != "50" {
		t.Fatalf("Validate(good) = %v, %v", m, err)
	}
	for name, payload := range map[string]string{
		"extra member":    `{"milestones":"[]","reviewers":"","expiry":"1","x":"1"}`,
		"missing member":  `{"milestones":"[]","reviewers":""}`,
		"bad milestones":  `{"milestones":"nope","reviewers":"0x00000000000000000000000000000000000000a1","expiry":"5"}`,
		"bad reviewer":    `{"milestones":"[{\"description\":\"a\",\"amount\":\"1\",\"recipient\":\"0x00000000000000000000000000000000000000b0\"}]","reviewers":"alice","expiry":"5"}`,
		"negative expiry": `{"milestones":"[{\"description\":\"a\",\"amount\":\"1\",\"recipient\":\"0x00000000000000000000000000000000000000b0\"}]","reviewers":"0x00000000000000000000000000000000000000a1","expiry":"-5"}`,
	} {
		c.Payload = payload
		if _, err := c.Validate(p); !errors.Is(err, gov.ErrInvalid) {
			t.Errorf("%s: Validate = %v, want ErrInvalid", name, err)
		}
	}
}
