package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/chain/roles"
)

// genesisOperators reads the operators of a data dir's genesis.
func genesisOperators(t *testing.T, data string) []common.Address {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(cometHome(data), "config", "genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		AppState struct {
			Operators []common.Address `json:"operators"`
		} `json:"app_state"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.AppState.Operators
}

func operatorOf(t *testing.T, data string) common.Address {
	t.Helper()
	path := chain.OperatorKeyFile(data)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("operator key: %v", err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("operator key mode %v, want 0600", info.Mode().Perm())
	}
	key, err := crypto.LoadECDSA(path)
	if err != nil {
		t.Fatal(err)
	}
	return crypto.PubkeyToAddress(key.PublicKey)
}

func TestInitWritesTheOperatorKeyIntoTheGenesis(t *testing.T) {
	dir := t.TempDir()
	if err := Run(context.Background(), []string{"init", "--data", dir}, io.Discard); err != nil {
		t.Fatal(err)
	}
	op := operatorOf(t, dir)
	if got := genesisOperators(t, dir); len(got) != 1 || got[0] != op {
		t.Fatalf("genesis operators %v, want [%s]", got, op.Hex())
	}
	// Running init again keeps the key (and the chain).
	if err := Run(context.Background(), []string{"init", "--data", dir}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if operatorOf(t, dir) != op {
		t.Fatal("a second init replaced the operator key")
	}
}

func TestTestnetGivesEveryNodeAnOperator(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "net")
	if err := Run(context.Background(), []string{"testnet", "--validators", "3", "--out", dir}, io.Discard); err != nil {
		t.Fatal(err)
	}
	var ops []common.Address
	for i := range 3 {
		ops = append(ops, operatorOf(t, node.TestnetHome(dir, i)))
	}
	for i := range 3 {
		if got := genesisOperators(t, node.TestnetHome(dir, i)); !slices.Equal(got, ops) {
			t.Fatalf("node%d's genesis operators %v, want %v", i, got, ops)
		}
	}
	if ops[0] == ops[1] || ops[1] == ops[2] {
		t.Fatal("nodes share an operator key")
	}
}

func TestServeOnAFreshDataDirListsItsOperator(t *testing.T) {
	dir := t.TempDir()
	_, cancel, done := startServe(t, dir)
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if got := genesisOperators(t, dir); len(got) != 1 || got[0] != operatorOf(t, dir) {
		t.Fatalf("genesis operators %v", got)
	}
}

func TestInitSeedsRoles(t *testing.T) {
	dir := t.TempDir()
	mod := "0x00000000000000000000000000000000000000a1"
	args := []string{"init", "--data", dir, "--role", mod + "=forum_moderator", "--role", mod + "=event_organizer"}
	if err := Run(context.Background(), args, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(cometHome(dir), "config", "genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		AppState struct {
			Roles []roles.Grant `json:"roles"`
		} `json:"app_state"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	want := []roles.Grant{{Address: common.HexToAddress(mod), Role: roles.ForumModerator}, {Address: common.HexToAddress(mod), Role: roles.EventOrganizer}}
	if !slices.Equal(doc.AppState.Roles, want) {
		t.Fatalf("genesis roles %v, want %v", doc.AppState.Roles, want)
	}
	bad := []string{"init", "--data", t.TempDir(), "--role", mod + "=king"}
	if err := Run(context.Background(), bad, io.Discard); err == nil {
		t.Fatal("init accepted an unknown role")
	}
}
