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
	"slices"
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

func TestTestnetRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"non-empty dir":     {"--out", dir},
		"no validators":     {"--validators", "0", "--out", filepath.Join(dir, "a")},
		"65 validators":     {"--validators", "65", "--out", filepath.Join(dir, "b")},
		"ports past 65535":  {"--base-port", "65530", "--out", filepath.Join(dir, "c")},
		"malformed --alloc": {"--alloc", "0x12=5", "--out", filepath.Join(dir, "d")},
		"stray argument":    {"--out", filepath.Join(dir, "e"), "extra"},
	}
	for name, args := range cases {
		if err := Run(context.Background(), append([]string{"testnet"}, args...), io.Discard); err == nil {
			t.Errorf("%s: testnet %v succeeded", name, args)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("refused runs left files behind: %v", entries)
	}
}

// TestServeHomeSettings checks `serve --home` takes the data dir and the
// node's stored address, leaves the chain addresses to config.toml, and that
// flags and the environment still win.
func TestServeHomeSettings(t *testing.T) {
	for _, k := range []string{"DFORGE_ADDR", "DFORGE_DATA", "DFORGE_DB", "DFORGE_RPC_ADDR", "DFORGE_P2P_ADDR", "DFORGE_P2P_LISTEN"} {
		t.Setenv(k, "")
	}
	dir := filepath.Join(t.TempDir(), "net")
	if err := Run(context.Background(), []string{"testnet", "--validators", "2", "--out", dir, "--base-port", "40000"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	home := node.TestnetHome(dir, 1)
	cfg, err := parseServe([]string{"--home", home})
	if err != nil {
		t.Fatal(err)
	}
	want := ServeConfig{Addr: "127.0.0.1:40006", DataDir: home, DB: filepath.Join(home, "dforge.db"), IPFSListen: []string{"/ip4/127.0.0.1/tcp/40007"}}
	if cfg.Addr != want.Addr || cfg.DataDir != want.DataDir || cfg.DB != want.DB || cfg.RPCAddr != "" || cfg.P2PAddr != "" || !slices.Equal(cfg.IPFSListen, want.IPFSListen) {
		t.Fatalf("serve --home = %+v, want %+v (no chain addresses: config.toml's)", cfg, want)
	}
	if rpc, p2p, err := node.ListenAddrs(cometHome(home)); err != nil || rpc != "tcp://127.0.0.1:40005" || p2p != "tcp://127.0.0.1:40004" {
		t.Fatalf("node1 chain addresses = %s %s %v", rpc, p2p, err)
	}
	cfg, _ = parseServe([]string{"--home", home, "--addr", "127.0.0.1:1"})
	t.Setenv("DFORGE_RPC_ADDR", "tcp://127.0.0.1:2")
	cfg2, _ := parseServe([]string{"--home", home})
	if cfg.Addr != "127.0.0.1:1" || cfg2.RPCAddr != "tcp://127.0.0.1:2" || cfg2.Addr != want.Addr {
		t.Fatalf("flags and env must win over dforge.env: %+v %+v", cfg, cfg2)
	}
	if _, err := parseServe([]string{"--home", home, "--data", home}); err == nil {
		t.Fatal("--home with --data must be refused")
	}
	if err := os.WriteFile(filepath.Join(home, homeSettingsFile), []byte("DFORGE_ADRR=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parseServe([]string{"--home", home}); err == nil || !strings.Contains(err.Error(), "DFORGE_ADRR") {
		t.Fatalf("a misspelt setting must be refused, got %v", err)
	}
}

// TestTestnetFourValidatorsSurviveAKill writes a 4-validator testnet, runs
// each node as its own process, commits transfers through the HTTP API,
// SIGKILLs one validator, commits more with the other three, restarts it
// with `serve --home`, and checks it catches up to the same app hash.
func TestTestnetFourValidatorsSurviveAKill(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	began := time.Now()
	key, _ := crypto.GenerateKey()
	alice := crypto.PubkeyToAddress(key.PublicKey)
	bob := common.HexToAddress("0x0000000000000000000000000000000000000B0b")
	dir := filepath.Join(t.TempDir(), "net")
	if err := Run(ctx, []string{"testnet", "--validators", "4", "--out", dir, "--alloc", alice.Hex() + "=1000000"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	nodes := make([]*nodeProc, 4)
	for i := range nodes {
		nodes[i] = startNodeProc(t, ctx, node.TestnetHome(dir, i), fmt.Sprintf("node%d", i))
	}
	// 1. Every validator is connected to the three others and done syncing
	// (a syncing node drops the transactions gossiped to it).
	start := time.Now()
	eventually(t, ctx, "4 validators connected", time.Minute, func() (string, bool) { return connected(ctx, nodes, 3) })
	t.Logf("4 validators connected in %v", time.Since(start))

	// 2. A transfer commits through node0's API and all four apply it.
	send := transferSender(t, ctx, key, alice, bob)
	height := send(nodes[0], 0)
	waitSameState(t, ctx, nodes, height)

	// 3. node3 dies; the other three hold 3/4 of the power and go on.
	nodes[3].kill()
	for nonce := uint64(1); nonce <= 3; nonce++ {
		height = send(nodes[nonce%3], nonce)
	}

	// 4. node3 restarts from its dir alone, catches up, and agrees.
	start = time.Now()
	nodes[3] = startNodeProc(t, ctx, node.TestnetHome(dir, 3), "node3-restarted")
	final := waitSameState(t, ctx, nodes, height)
	t.Logf("node3 caught up in %v: %s", time.Since(start), final)
	assertSameBlock(t, ctx, nodes, final)

	// 5. It serves what it missed, and the idle chain made empty blocks
	// only at its interval: each of the 4 transfers takes its block plus
	// one committing its app hash, and the rest are one per interval.
	eventually(t, ctx, "node3 shows the transfers", 30*time.Second, func() (string, bool) {
		acct := account(ctx, nodes[3], alice)
		return acct, acct == "balance 999600 nonce 4"
	})
	if most := 2*4 + 2 + 2*int64(time.Since(began)/node.DefaultEmptyBlockInterval+1); final.height > most {
		t.Fatalf("height %d after 4 transfers in %s: empty blocks are made faster than one per %s", final.height, time.Since(began), node.DefaultEmptyBlockInterval)
	}
}

// transferSender returns a function that relays a signed transfer of 100
// from alice to bob through a node's API and returns its block height.
func transferSender(t *testing.T, ctx context.Context, key *ecdsa.PrivateKey, alice, bob common.Address) func(*nodeProc, uint64) int64 {
	return func(n *nodeProc, nonce uint64) int64 {
		t.Helper()
		env, err := tx.Sign(key, tx.KindTransfer, map[string]any{
			"from": alice.Hex(), "to": bob.Hex(), "amount": "100", "nonce": strconv.FormatUint(nonce, 10),
		}, app.DefaultParams().ChainID)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(env)
		req, _ := http.NewRequestWithContext(ctx, "POST", n.url+"/api/v1/chain/txs", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("relay through %s: %v", n.name, err)
		}
		defer res.Body.Close()
		var got struct {
			Height int64
			Code   uint32
			Log    string
		}
		raw, _ := io.ReadAll(res.Body)
		if err := json.Unmarshal(raw, &got); err != nil || res.StatusCode != 200 || got.Code != 0 {
			t.Fatalf("transfer %d through %s: %d %s", nonce, n.name, res.StatusCode, raw)
		}
		return got.Height
	}
}

// chainState is what a node's application reports as its last block.
type chainState struct {
	height  int64
	appHash string
}

func (s chainState) String() string { return fmt.Sprintf("%d/%s", s.height, s.appHash) }

// waitSameState waits until all nodes report the same last height and app
// hash, at minHeight or above, and returns it.
func waitSameState(t *testing.T, ctx context.Context, nodes []*nodeProc, minHeight int64) chainState {
	t.Helper()
	var same chainState
	eventually(t, ctx, "nodes at the same height and app hash", time.Minute, func() (string, bool) {
		states := make([]string, len(nodes))
		ok := true
		for i, n := range nodes {
			var info struct {
				Response struct {
					LastBlockHeight  int64  `json:"last_block_height,string"`
					LastBlockAppHash []byte `json:"last_block_app_hash"`
				}
			}
			if err := rpcResult(ctx, n.rpc, "/abci_info", &info); err != nil {
				states[i], ok = err.Error(), false
				continue
			}
			st := chainState{info.Response.LastBlockHeight, fmt.Sprintf("%X", info.Response.LastBlockAppHash)}
			states[i] = n.name + " " + st.String()
			ok = ok && st.height >= minHeight && (i == 0 || st == same)
			same = st
		}
		return strings.Join(states, ", "), ok
	})
	return same
}

// assertSameBlock checks every node stores the same block at s.height.
func assertSameBlock(t *testing.T, ctx context.Context, nodes []*nodeProc, s chainState) {
	t.Helper()
	var first string
	for _, n := range nodes {
		var block struct {
			BlockID struct{ Hash string } `json:"block_id"`
		}
		if err := rpcResult(ctx, n.rpc, "/block?height="+strconv.FormatInt(s.height, 10), &block); err != nil {
			t.Fatalf("%s: %v", n.name, err)
		}
		if first == "" {
			first = block.BlockID.Hash
		}
		if block.BlockID.Hash == "" || block.BlockID.Hash != first {
			t.Fatalf("%s has block %q at height %d, node0 %q", n.name, block.BlockID.Hash, s.height, first)
		}
	}
}

// connected reports whether every node is past block sync and connected
// to the given number of peers.
func connected(ctx context.Context, nodes []*nodeProc, peers int) (string, bool) {
	states := make([]string, len(nodes))
	ok := true
	for i, n := range nodes {
		var status struct {
			SyncInfo struct {
				CatchingUp bool `json:"catching_up"`
			} `json:"sync_info"`
		}
		var netInfo struct {
			NPeers int `json:"n_peers,string"`
		}
		err := rpcResult(ctx, n.rpc, "/status", &status)
		if err == nil {
			err = rpcResult(ctx, n.rpc, "/net_info", &netInfo)
		}
		if err != nil {
			states[i], ok = err.Error(), false
			continue
		}
		states[i] = fmt.Sprintf("%s catching up %t, %d peers", n.name, status.SyncInfo.CatchingUp, netInfo.NPeers)
		ok = ok && !status.SyncInfo.CatchingUp && netInfo.NPeers == peers
	}
	return strings.Join(states, "; "), ok
}

// account reads an account through a node's API as "balance B nonce N".
func account(ctx context.Context, n *nodeProc, addr common.Address) string {
	var acct struct{ Balance, Nonce uint64 }
	if err := getJSON(ctx, n.url+"/api/v1/accounts/"+addr.Hex(), &acct); err != nil {
		return err.Error()
	}
	return fmt.Sprintf("balance %d nonce %d", acct.Balance, acct.Nonce)
}
