package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/ethereum/go-ethereum/crypto"
)

// TestLateNodeJoinsAndTakesWrites: a network of three validators runs and
// holds data; a node made later with `dforge join --peer URL` (no genesis
// change, nobody's permission) from one of them dials every validator,
// syncs and serves clones of what was pushed before it; a user who signs
// in there (delegating to that node's own key) opens an issue and pushes
// through it; the first node agrees on both.
func TestLateNodeJoinsAndTakesWrites(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	net := startProcNet(t, ctx, 3, 0)
	first := net.nodes[0]

	// 1. alice pushes demo to the first node.
	aliceKey, _ := crypto.GenerateKey()
	alice := crSignIn(t, ctx, first.url, aliceKey)
	crCreateRepo(t, ctx, first.url, alice, "demo")
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n"})
	if out, err := work.push(ctx, alice.remote(first.url, "demo"), "main"); err != nil {
		t.Fatalf("push to the first node: %v\n%s", err, out)
	}
	want := work.headRefs("main")

	// 2. A node joins from the first one's URL and serves demo.
	data := filepath.Join(t.TempDir(), "late")
	cmd := exec.Command(os.Args[0], "join", "--peer", first.url, "--data", data, "--", "--addr", "127.0.0.1:0",
		"--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0", "--ssh-addr", "", "--p2p-listen", "/ip4/127.0.0.1/tcp/0")
	cmd.Env = append(withoutDForgeEnv(os.Environ()), childEnv+"=1")
	if _, err := cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	late := startProc(t, ctx, "late", cmd)
	eventually(t, ctx, "the late node serves demo", 60*time.Second, func() (string, bool) {
		got, err := lsRemote(repoURL(late.url, alice.login, "demo"))
		return fmt.Sprintf("%q %v", got, err), err == nil && got == want
	})

	// It is connected to every validator, not only the one it joined
	// from: it learnt them all from that one's peers.
	ids := nodeIDs(t, ctx, net.nodes)
	eventually(t, ctx, "the late node is connected to every validator", 30*time.Second, func() (string, bool) {
		var peers struct{ Peers []string }
		if err := getJSON(ctx, late.url+"/api/v1/chain/peers", &peers); err != nil || len(peers.Peers) == 0 {
			return fmt.Sprint(err), false
		}
		missing := slices.DeleteFunc(slices.Clone(ids), func(id string) bool {
			return slices.ContainsFunc(peers.Peers[1:], func(p string) bool { return strings.HasPrefix(p, id+"@") })
		})
		return fmt.Sprintf("connected to %v, missing %v", peers.Peers[1:], missing), len(missing) == 0
	})

	// 3. Once it takes transactions (it has caught up with the chain), bob
	// signs in on the late node, opens an issue on demo and pushes a
	// repository of his own there.
	eventually(t, ctx, "the late node takes transactions", 60*time.Second, func() (string, bool) {
		stranger, _ := crypto.GenerateKey()
		env, err := tx.Sign(stranger, tx.KindTransfer, map[string]any{"from": crypto.PubkeyToAddress(stranger.PublicKey).Hex(),
			"to": crypto.PubkeyToAddress(aliceKey.PublicKey).Hex(), "amount": "1", "nonce": "0"}, app.DefaultParams().ChainID)
		if err != nil {
			t.Fatal(err)
		}
		res, body := crPost(t, ctx, late.url+"/api/v1/chain/txs", nil, "", env)
		return fmt.Sprintf("%d %s", res.StatusCode, body), res.StatusCode != http.StatusServiceUnavailable
	})
	bobKey, _ := crypto.GenerateKey()
	bob := crSignIn(t, ctx, late.url, bobKey)
	res, body := crTokenPost(t, ctx, late.url+"/api/v1/repos/"+alice.login+"/demo/issues", bob, map[string]any{"title": "from the late node"})
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("open an issue through the late node: %d %s", res.StatusCode, body)
	}
	crCreateRepo(t, ctx, late.url, bob, "fresh")
	mine := crGitWork(t)
	mine.commit(map[string]string{"a.txt": "a\n"})
	if out, err := mine.push(ctx, bob.remote(late.url, "fresh"), "main"); err != nil {
		t.Fatalf("push through the late node: %v\n%s", err, out)
	}

	// 4. The first node agrees.
	eventually(t, ctx, "the first node shows bob's issue", 30*time.Second, func() (string, bool) {
		var issues []struct{ Title string }
		err := getJSON(ctx, first.url+"/api/v1/repos/"+alice.login+"/demo/issues?state=all", &issues)
		b, _ := json.Marshal(issues)
		return string(b) + fmt.Sprint(err), err == nil && len(issues) == 1 && issues[0].Title == "from the late node"
	})
	eventually(t, ctx, "the first node serves bob's push", 45*time.Second, func() (string, bool) {
		got, err := lsRemote(repoURL(first.url, bob.login, "fresh"))
		return fmt.Sprintf("%q %v", got, err), err == nil && strings.TrimSpace(got) == mine.headRefs("main")
	})
}

// nodeIDs are the CometBFT node ids of nodes, from their RPC's status.
func nodeIDs(t *testing.T, ctx context.Context, nodes []*nodeProc) []string {
	t.Helper()
	var ids []string
	for _, n := range nodes {
		var status struct {
			NodeInfo struct {
				ID string `json:"id"`
			} `json:"node_info"`
		}
		if err := rpcResult(ctx, n.rpc, "/status", &status); err != nil || status.NodeInfo.ID == "" {
			t.Fatalf("status of %s: %+v %v", n.name, status, err)
		}
		ids = append(ids, status.NodeInfo.ID)
	}
	return ids
}
