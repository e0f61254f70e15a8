package params_test

import (
	"os"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/params"
)

func TestDefaultsAreValid(t *testing.T) {
	if err := params.Defaults().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestSetChecksNamesAndBounds(t *testing.T) {
	p := params.Defaults()
	next, err := p.Set("quorumBps", "5000")
	if err != nil || next.Gov.QuorumBps != 5000 || p.Gov.QuorumBps == 5000 {
		t.Fatalf("set quorumBps: %v, %+v", err, next.Gov)
	}
	for _, bad := range [][2]string{{"chainId", "1"}, {"quorumBps", "10001"}, {"quorumBps", "0"}, {"maxMultiplierBps", "30000"},
		{"votingPeriodBlocks", "-1"}, {"votingPeriodBlocks", "1e3"}, {"votingPeriodBlocks", "007"}, {"nope", "1"}} {
		if _, err := p.Set(bad[0], bad[1]); err == nil {
			t.Errorf("Set(%s, %s) accepted", bad[0], bad[1])
		}
	}
}

// A stored parameter set from before governance existed gets the defaults
// of the groups it lacks, and keeps what it has.
func TestDecodeFillsAbsentGroups(t *testing.T) {
	p, err := params.Decode([]byte(`{"chainId":9,"symbol":"X","decimals":2,"unbondingBlocks":5}`))
	if err != nil || p.UnbondingBlocks != 5 || p.Gov != params.DefaultGov() || p.Rewards != params.DefaultRewards() {
		t.Fatalf("%v %+v", err, p)
	}
}

const (
	docFile  = "../../../content/docs/governance.md"
	docBegin = "<!-- parameters: generated from internal/chain/params; UPDATE_DOCS=1 go test ./internal/chain/params rewrites it -->\n"
	docEnd   = "<!-- end of parameters -->"
)

// The /docs page lists every parameter as the code defines it.
func TestGovernanceDocIsCurrent(t *testing.T) {
	raw, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	before, rest, ok1 := strings.Cut(doc, docBegin)
	current, after, ok2 := strings.Cut(rest, docEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the parameter markers", docFile)
	}
	want := params.Markdown()
	if current == want {
		return
	}
	if os.Getenv("UPDATE_DOCS") != "" {
		if err := os.WriteFile(docFile, []byte(before+docBegin+want+docEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("%s is out of date: run UPDATE_DOCS=1 go test ./internal/chain/params", docFile)
}
