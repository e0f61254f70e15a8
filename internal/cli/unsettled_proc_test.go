package cli

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dforge/dforge/internal/chain/node"
)

// TestPushSettlesWhenTheChainComesBack: of two validators one freezes
// (SIGSTOP: its peer stays connected, so node0 relays the push and waits
// for a block that cannot come). The push is answered not_committed, its
// objects staged on node0 and its branch unmoved. Once the frozen node
// resumes, the chain commits the waiting transaction, and node0's branch
// moves to it within seconds, without a restart, with nothing staged left.
func TestPushSettlesWhenTheChainComesBack(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	net := startProcNet(t, ctx, 2, 0)
	alice := newWallet(t)
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n"})
	url := net.createRepo(t, ctx, 0, alice, "demo")
	net.push(t, ctx, 0, alice, work, "demo", "main")
	before := work.headRefs("main")
	net.waitServes(t, ctx, 1, url, before)

	// 1. node1 freezes; a push to node0 waits for a block, then is
	// answered with its outcome unknown.
	frozen := net.nodes[1].cmd.Process.Pid
	if err := syscall.Kill(frozen, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(frozen, syscall.SIGCONT)
	work.commit(map[string]string{"README.md": "# demo\n\nwhile node1 froze\n"})
	start := time.Now()
	out, err := work.push(ctx, alice.users[0].remote(net.nodes[0].url, "demo"), "main")
	if err == nil || !strings.Contains(out, "applied if the network commits it later") {
		t.Fatalf("a push while node1 is frozen: %v (want not_committed)\n%s", err, out)
	}
	t.Logf("push answered in %v:\n%s", time.Since(start), out)
	if got, err := lsRemote(net.nodes[0].url + url); err != nil || got != before {
		t.Fatalf("node0's refs while the push waits: %s %v, want %s", got, err, before)
	}
	staged := filepath.Join(node.TestnetHome(net.dir, 0), "git", "*", "*.git", "dforge-push-*")
	if left, _ := filepath.Glob(staged); len(left) == 0 {
		t.Fatal("the waiting push left nothing staged on node0")
	}

	// 2. node1 resumes: the chain commits the push, and node0's git
	// follows without a restart.
	if err := syscall.Kill(frozen, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	want := work.headRefs("main")
	eventually(t, ctx, "node0 to serve the push the chain took", 20*time.Second, func() (string, bool) {
		got, err := lsRemote(net.nodes[0].url + url)
		left, _ := filepath.Glob(staged)
		return strings.Join(append([]string{got}, left...), " "), err == nil && got == want && len(left) == 0
	})
	t.Logf("node0 moved its branch to the chain's value %v after node1 resumed", time.Since(start))
	cloneFsck(t, net.nodes[0].url+url)
	net.waitServes(t, ctx, 1, url, want)
}
