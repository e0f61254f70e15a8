package cli

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/node"
	"github.com/dforge/dforge/internal/forgetest"
)

// The replication tests run testnets as processes (each node its own data
// dir, loopback only), push and clone with the git binary, and kill nodes
// with SIGKILL. CometBFT commits while more than 2/3 of the voting power
// is online: 3 of 4 equal validators go on, 1 of 2 cannot.

// TestReplicationLosingAFullNode: on three validators and a full node, a
// push to the full node clones from a validator within seconds, with the
// same refs and a clean fsck. With the full node killed the validators
// still serve the repository and take a push, which the full node gets
// once it is back. Then two nodes take different commits for one branch
// at the same moment: one push wins, the other is git's non-fast-forward
// refusal, and both nodes end on the winner.
func TestReplicationLosingAFullNode(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	net := startProcNet(t, ctx, 3, 1)
	full := 3
	alice := newWallet(t)

	// 1. A push to the full node.
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n", "src/main.go": "package main\n"})
	url := net.createRepo(t, ctx, full, alice, "demo")
	net.push(t, ctx, full, alice, work, "demo", "main")
	want := work.headRefs("main")

	// 2. A validator serves it within seconds, as pushed.
	start := time.Now()
	net.waitServes(t, ctx, 1, url, want)
	t.Logf("a validator serves the full node's push %v after it", time.Since(start))
	cloneFsck(t, net.nodes[1].url+url)

	// 3. The full node dies: the validators serve clones and take a push.
	for i := range 3 {
		net.waitServes(t, ctx, i, url, want)
	}
	net.nodes[full].kill()
	for i := range 3 {
		cloneFsck(t, net.nodes[i].url+url)
	}
	work.commit(map[string]string{"src/main.go": "package main\n\nfunc main() {}\n"})
	net.push(t, ctx, 0, alice, work, "demo", "main")
	want = work.headRefs("main")
	net.waitServes(t, ctx, 2, url, want)

	// 4. The full node comes back and gets that push.
	start = time.Now()
	net.restart(t, ctx, full)
	net.waitServes(t, ctx, full, url, want)
	t.Logf("the restarted full node serves the push it missed %v after its start", time.Since(start))
	cloneFsck(t, net.nodes[full].url+url)

	// 5. Two nodes take different commits for main at once.
	racePushes(t, ctx, net, alice, work, "demo", 0, full)
}

// racePushes pushes two different commits on top of work's main, to
// nodes a and b at the same moment: exactly one is accepted, the other is
// refused as non-fast-forward, and both nodes serve the winner.
func racePushes(t *testing.T, ctx context.Context, net *procNet, owner *wallet, base *crWork, repo string, a, b int) {
	t.Helper()
	url := "/" + owner.login(t, ctx, net, a) + "/" + repo + ".git"
	owner.login(t, ctx, net, b)
	works := []*crWork{crGitWork(t), crGitWork(t)}
	tips := make([]string, 2)
	for i, w := range works {
		w.run("fetch", "--quiet", base.dir, "main")
		w.run("checkout", "--quiet", "-B", "main", "FETCH_HEAD")
		tips[i] = w.commit(map[string]string{fmt.Sprintf("race-%d.txt", i): fmt.Sprintf("pushed to node%d\n", []int{a, b}[i])})
	}
	outs := make([]string, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	release := make(chan struct{})
	for i, n := range []int{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-release
			outs[i], errs[i] = works[i].push(ctx, owner.users[n].remote(net.nodes[n].url, repo), "main")
		}()
	}
	close(release)
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("two pushes of main at once: want one accepted and one refused, got %v / %v\n%s\n%s", errs[0], errs[1], outs[0], outs[1])
	}
	winner, loser := 0, 1
	if errs[0] != nil {
		winner, loser = 1, 0
	}
	if !strings.Contains(outs[loser], "non-fast-forward") {
		t.Fatalf("the losing push is not refused as non-fast-forward:\n%s", outs[loser])
	}
	t.Logf("node%d's push won; node%d's said:\n%s", []int{a, b}[winner], []int{a, b}[loser], outs[loser])
	want := tips[winner] + "\trefs/heads/main"
	for _, n := range []int{a, b} {
		net.waitServes(t, ctx, n, url, want)
	}
}

// TestReplicationLosingAValidator: of four validators, the one that took a
// push is killed. The other three serve the repository, go on committing
// and take a push; the lost one comes back, catches up and serves it.
func TestReplicationLosingAValidator(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	net := startProcNet(t, ctx, 4, 0)
	lost := 3
	alice := newWallet(t)

	// 1. A push to node3, which every validator then serves.
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n"})
	url := net.createRepo(t, ctx, lost, alice, "demo")
	net.push(t, ctx, lost, alice, work, "demo", "main")
	want := work.headRefs("main")
	for i := range 3 {
		net.waitServes(t, ctx, i, url, want)
	}

	// 2. node3 dies: the others serve it, commit blocks and take a push.
	net.nodes[lost].kill()
	alive := net.nodes[:3]
	before := waitSameState(t, ctx, alive, 0)
	for i := range 3 {
		cloneFsck(t, net.nodes[i].url+url)
	}
	work.commit(map[string]string{"CHANGES.md": "- survived a validator\n"})
	net.push(t, ctx, 1, alice, work, "demo", "main")
	want = work.headRefs("main")
	for i := range 3 {
		net.waitServes(t, ctx, i, url, want)
	}
	after := waitSameState(t, ctx, alive, before.height+1)
	t.Logf("three validators went on from %v to %v", before, after)

	// 3. node3 comes back, catches up and serves the push it missed.
	start := time.Now()
	net.restart(t, ctx, lost)
	waitSameState(t, ctx, net.nodes, after.height)
	net.waitServes(t, ctx, lost, url, want)
	t.Logf("node3 caught up and serves the push it missed %v after its start", time.Since(start))
	cloneFsck(t, net.nodes[lost].url+url)

	// 4. Two of four down: node0 and node1 still see each other, but no
	// block comes. Once node0 has made none for a while, a push to it is
	// refused, saying why, and changes nothing.
	net.nodes[2].kill()
	net.nodes[3].kill()
	stalled := net.nodes[:2]
	last := waitSameState(t, ctx, stalled, 0)
	start = time.Now()
	eventually(t, ctx, "node0 to make no block for 7 s", 30*time.Second, func() (string, bool) {
		now := waitSameState(t, ctx, stalled, 0)
		if now.height != last.height {
			last, start = now, time.Now()
		}
		return now.String(), time.Since(start) > 7*time.Second
	})
	work.commit(map[string]string{"CHANGES.md": "- refused: two validators down\n"})
	alice.login(t, ctx, net, 0)
	start = time.Now()
	out, err := work.push(ctx, alice.users[0].remote(net.nodes[0].url, "demo"), "main")
	if err == nil || !strings.Contains(out, "cannot commit now") {
		t.Fatalf("a push to a stalled network: %v\n%s", err, out)
	}
	t.Logf("with two validators of four down, a push was refused in %v:\n%s", time.Since(start), out)
	for i := range 2 {
		if got, err := lsRemote(net.nodes[i].url + url); err != nil || got != want {
			t.Fatalf("node%d's refs after a refused push: %s %v, want %s", i, got, err, want)
		}
	}
}

// TestReplicationWithoutQuorum: of two validators one dies. The survivor
// serves clones and its pages, and refuses a push at once, saying the
// network cannot commit now, with nothing applied: its refs are unchanged
// and nothing of the push is left on its disk. With both back, pushes go
// through again and the refused one never appears.
func TestReplicationWithoutQuorum(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	net := startProcNet(t, ctx, 2, 0)
	alice := newWallet(t)
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n"})
	url := net.createRepo(t, ctx, 0, alice, "demo")
	net.push(t, ctx, 0, alice, work, "demo", "main")
	want := work.headRefs("main")
	net.waitServes(t, ctx, 1, url, want)
	login := alice.login(t, ctx, net, 0)

	// 1. node1 dies; node0 sees it gone.
	net.nodes[1].kill()
	eventually(t, ctx, "node0 to lose its peer", 30*time.Second, func() (string, bool) {
		var info struct {
			NPeers int `json:"n_peers,string"`
		}
		err := rpcResult(ctx, net.nodes[0].rpc, "/net_info", &info)
		return fmt.Sprint(info.NPeers, err), err == nil && info.NPeers == 0
	})

	// 2. It serves clones and every read.
	cloneFsck(t, net.nodes[0].url+url)
	api := net.nodes[0].url + "/api/v1"
	repoAPI := api + "/repos/" + login + "/demo"
	for _, path := range []string{
		"/", "/" + login + "/demo", api + "/chain/status", api + "/chain/blocks", api + "/nodes", api + "/users/" + login,
		api + "/repos/search?q=demo", repoAPI, repoAPI + "/contents", repoAPI + "/contents/README.md", repoAPI + "/raw/README.md",
		repoAPI + "/git/refs", repoAPI + "/commits", repoAPI + "/branches", repoAPI + "/readme", repoAPI + "/issues",
		repoAPI + "/replication",
	} {
		if !strings.HasPrefix(path, "http") {
			path = net.nodes[0].url + path
		}
		if code, body := get(ctx, path); code != http.StatusOK {
			t.Errorf("GET %s on the survivor: %d %.200s", path, code, body)
		}
	}

	// 3. A push is refused within seconds, saying why, and changes nothing.
	refused := work.commit(map[string]string{"README.md": "# demo\n\nrefused\n"})
	start := time.Now()
	out, err := work.push(ctx, alice.users[0].remote(net.nodes[0].url, "demo"), "main")
	took := time.Since(start)
	if err == nil {
		t.Fatalf("a push without quorum was accepted:\n%s", out)
	}
	if !strings.Contains(out, "cannot commit now") {
		t.Fatalf("the refusal does not say the network cannot commit now:\n%s", out)
	}
	t.Logf("push refused in %v:\n%s", took, out)
	if took > 20*time.Second {
		t.Fatalf("the refusal took %v", took)
	}
	if got, err := lsRemote(net.nodes[0].url + url); err != nil || got != want {
		t.Fatalf("the survivor's refs after a refused push: %s %v, want %s", got, err, want)
	}
	home := node.TestnetHome(net.dir, 0)
	repos, _ := filepath.Glob(filepath.Join(home, "git", "*", "*.git"))
	if len(repos) != 1 {
		t.Fatalf("node0 holds %v", repos)
	}
	if err := exec.Command("git", "-C", repos[0], "cat-file", "-e", refused).Run(); err == nil {
		t.Errorf("the refused commit %s is in the survivor's repository", refused)
	}
	for _, pattern := range []string{
		"git/*/*.git/objects/tmp_objdir-*", "git/*/*.git/dforge-push-*", "git/*/*.git/*.lock", "git/*/*.git/refs/heads/*.lock",
		"git/*/*.git/objects/pack/*.keep", "git/*/.new-*", "blocks/.queue/*.json",
	} {
		if left, _ := filepath.Glob(filepath.Join(home, pattern)); len(left) > 0 {
			t.Errorf("a refused push left %v", left)
		}
	}
	gitIn(t, repos[0], "fsck", "--strict", "--no-dangling")

	// An API write is refused the same way (503 no_quorum).
	req, _ := http.NewRequestWithContext(ctx, "POST", repoAPI+"/issues", strings.NewReader(`{"title":"while node1 is down"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "token "+alice.users[0].token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"no_quorum"`) {
		t.Fatalf("an issue without quorum: %d %s", res.StatusCode, body)
	}

	// 4. Both back: the refused push never lands, and a new one does.
	net.restart(t, ctx, 1)
	eventually(t, ctx, "2 validators connected", time.Minute, func() (string, bool) { return connected(ctx, net.nodes, 1) })
	height := waitSameState(t, ctx, net.nodes, 0).height
	waitSameState(t, ctx, net.nodes, height+2)
	for i := range 2 {
		if got, err := lsRemote(net.nodes[i].url + url); err != nil || got != want {
			t.Fatalf("node%d's refs once both are back: %s %v, want %s", i, got, err, want)
		}
	}
	work.commit(map[string]string{"README.md": "# demo\n\naccepted\n"})
	net.push(t, ctx, 0, alice, work, "demo", "main")
	net.waitServes(t, ctx, 1, url, work.headRefs("main"))
}

// procNet is a testnet whose nodes run as processes.
type procNet struct {
	dir   string
	nodes []*nodeProc
	args  [][]string // more serve flags, by node
}

// startProcNet writes a testnet of validators and full nodes that makes
// an empty block every half second, starts every node (node i with the
// serve flags nodeArgs[i], when given) and waits until each is connected
// to all the others.
func startProcNet(t *testing.T, ctx context.Context, validators, fullNodes int, nodeArgs ...[]string) *procNet {
	t.Helper()
	forgetest.Long(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("this test needs the git binary")
	}
	n := &procNet{dir: filepath.Join(t.TempDir(), "net"), nodes: make([]*nodeProc, validators+fullNodes), args: make([][]string, validators+fullNodes)}
	copy(n.args, nodeArgs)
	args := []string{"testnet", "--validators", fmt.Sprint(validators), "--full-nodes", fmt.Sprint(fullNodes), "--out", n.dir, "--empty-blocks", "500ms"}
	if err := Run(ctx, args, io.Discard); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n.nodes {
		wg.Add(1)
		go func() { // validators start together: blocks need 2/3 of them
			defer wg.Done()
			n.nodes[i] = startNodeProc(t, ctx, node.TestnetHome(n.dir, i), fmt.Sprintf("node%d", i), n.args[i]...)
		}()
	}
	wg.Wait()
	for _, p := range n.nodes {
		if p == nil {
			t.FailNow()
		}
	}
	eventually(t, ctx, "every node connected", time.Minute, func() (string, bool) { return connected(ctx, n.nodes, len(n.nodes)-1) })
	t.Logf("%d validators and %d full nodes up in %v", validators, fullNodes, time.Since(start))
	return n
}

// restart starts node i again from its dir, as after a crash.
func (n *procNet) restart(t *testing.T, ctx context.Context, i int) {
	t.Helper()
	n.nodes[i] = startNodeProc(t, ctx, node.TestnetHome(n.dir, i), fmt.Sprintf("node%d-restarted", i), n.args[i]...)
}

// wallet is one person's key, signed in on some of the nodes (a session
// and a write token are a node's own).
type wallet struct {
	key   *ecdsa.PrivateKey
	users map[int]crUser
}

func newWallet(t *testing.T) *wallet {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return &wallet{key: key, users: map[int]crUser{}}
}

// login signs the wallet in on node i, once, and returns its login.
func (w *wallet) login(t *testing.T, ctx context.Context, net *procNet, i int) string {
	t.Helper()
	if _, ok := w.users[i]; !ok {
		w.users[i] = crSignIn(t, ctx, net.nodes[i].url, w.key)
	}
	return w.users[i].login
}

// createRepo creates a public repository on node i and returns its path
// (/owner/name.git).
func (n *procNet) createRepo(t *testing.T, ctx context.Context, i int, owner *wallet, name string) string {
	t.Helper()
	login := owner.login(t, ctx, n, i)
	crCreateRepo(t, ctx, n.nodes[i].url, owner.users[i], name)
	return "/" + login + "/" + name + ".git"
}

// push pushes refs of work to repo on node i, which must accept it.
func (n *procNet) push(t *testing.T, ctx context.Context, i int, owner *wallet, work *crWork, repo string, refs ...string) {
	t.Helper()
	owner.login(t, ctx, n, i)
	start := time.Now()
	if out, err := work.push(ctx, owner.users[i].remote(n.nodes[i].url, repo), refs...); err != nil {
		t.Fatalf("push to node%d: %v\n%s", i, err, out)
	}
	t.Logf("push to node%d acknowledged in %v", i, time.Since(start))
}

// waitServes waits until node i lists want (as ls-remote --heads prints
// it) for the repository at path.
func (n *procNet) waitServes(t *testing.T, ctx context.Context, i int, path, want string) {
	t.Helper()
	eventually(t, ctx, fmt.Sprintf("node%d serves %s", i, path), 45*time.Second, func() (string, bool) {
		got, err := lsRemote(n.nodes[i].url + path)
		return fmt.Sprintf("%q %v", got, err), err == nil && got == want
	})
}

// headRefs lists branches of w as ls-remote --heads prints them.
func (w *crWork) headRefs(branches ...string) string {
	var lines []string
	for _, b := range branches { // in order: callers pass them sorted
		lines = append(lines, w.run("rev-parse", b)+"\trefs/heads/"+b)
	}
	return strings.Join(lines, "\n")
}

// cloneFsck mirrors url anonymously and checks the copy with git fsck.
func cloneFsck(t *testing.T, url string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone.git")
	gitIn(t, "", "clone", "--quiet", "--mirror", url, dir)
	gitIn(t, dir, "fsck", "--strict", "--no-dangling")
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = dir, gitEnv(os.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// get fetches url and returns its status and the start of its body.
func get(ctx context.Context, url string) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<10))
	return res.StatusCode, string(body)
}
