package cli

import (
	"slices"
	"strings"
	"testing"
)

func TestServeSeedFlag(t *testing.T) {
	t.Setenv("DFORGE_SEED", "owner:alice, !repo:alice/huge")
	cfg, err := parseServe(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Seed, []string{"owner:alice", "!repo:alice/huge"}) {
		t.Fatalf("seed from env = %q", cfg.Seed)
	}
	cfg, err = parseServe([]string{"--seed", "none", "--seed", "repo:bob/demo"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Seed, []string{"none", "repo:bob/demo"}) {
		t.Fatalf("the flag must replace the env: %q", cfg.Seed)
	}
	if _, err := parseServe([]string{"--seed", "user:bob"}); err == nil || !strings.Contains(err.Error(), "--seed") {
		t.Fatalf("a bad seeding policy: %v", err)
	}
}
