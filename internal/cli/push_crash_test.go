package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/blocks"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/crash"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/gitstore"
)

// TestPushSurvivesAKillAtEachStep kills a node (dforge serve, built with
// go build, and every git process it started) with SIGKILL at each step
// of a push: before the hooks, in pre-receive once the objects are
// staged, once the chain has committed the ref updates, and while the
// objects become blocks. After each restart nothing acknowledged is lost,
// the repository's refs are the chain's, every object they reach is in
// the blockstore, git's fsck is clean and nothing of the crash is left.
func TestPushSurvivesAKillAtEachStep(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	forgetest.Long(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("this test needs the git binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "dforge")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/dforge/dforge/cmd/dforge").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := t.TempDir()

	// A public repository with a first push.
	n := startCrashNode(t, ctx, bin, data, "")
	key, _ := crypto.GenerateKey()
	alice := crSignIn(t, ctx, n.url, key)
	id := crCreateRepo(t, ctx, n.url, alice, "demo")
	repoDir := filepath.Join(data, "git", strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex()), fmt.Sprint(id)+".git")
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n"})
	if out, err := work.push(ctx, alice.remote(n.url, "demo"), "main"); err != nil {
		t.Fatalf("first push: %v\n%s", err, out)
	}
	n.stop(t)

	for i, step := range []string{crash.BeforeHooks, crash.PreReceive, crash.ChainCommitted, crash.BlockStorage} {
		t.Run(step, func(t *testing.T) {
			// 1. A push that kills the node at step.
			n := startCrashNode(t, ctx, bin, data, step)
			files := map[string]string{fmt.Sprintf("src/step%d.go", i): fmt.Sprintf("package src\n\n// %s\nconst Step = %d\n", step, i)}
			for j := range 20 { // enough objects for the block worker to be caught storing them
				files[fmt.Sprintf("data/%s/%d.txt", step, j)] = strings.Repeat(fmt.Sprintf("%s %d\n", step, j), 50+j)
			}
			tip := work.commit(files)
			branch := "topic-" + step
			work.run("branch", "-f", branch)
			out, pushErr := work.push(ctx, alice.remote(n.url, "demo"), "main", branch)
			select {
			case <-n.done:
			case <-time.After(30 * time.Second):
				t.Fatalf("the node did not die at %s; push: %v\n%s", step, pushErr, out)
			}
			var left []string
			for _, pattern := range []string{"git/*/*.git/objects/tmp_objdir-*", "git/*/*.git/dforge-push-*", "blocks/.queue/*.json"} {
				found, _ := filepath.Glob(filepath.Join(data, pattern))
				for _, f := range found {
					left = append(left, strings.TrimPrefix(f, data+"/"))
				}
			}
			t.Logf("push killed at %s: acknowledged %v; main here %s; left %v", step, pushErr == nil, crLocalRefs(t, repoDir)["refs/heads/main"], left)

			// 2. Restarted, it settles its queue and stops.
			n = startCrashNode(t, ctx, bin, data, "")
			eventually(t, ctx, "the block queue to empty", time.Minute, func() (string, bool) {
				jobs, _ := filepath.Glob(filepath.Join(data, "blocks", ".queue", "*.json"))
				return fmt.Sprint(jobs), len(jobs) == 0
			})
			n.stop(t)

			// 3. The chain and git agree; what was acknowledged is there.
			chain := crChainRefs(t, data, id)
			local := crLocalRefs(t, repoDir)
			if fmt.Sprint(chain) != fmt.Sprint(local) {
				t.Fatalf("after a kill at %s the refs differ:\nchain %v\ngit   %v", step, chain, local)
			}
			if pushErr == nil && (chain["refs/heads/main"] != tip || chain["refs/heads/"+branch] != tip) {
				t.Fatalf("an acknowledged push is lost: chain %v, pushed %s", chain, tip)
			}
			if took := chain["refs/heads/main"] == tip; took != (step == crash.ChainCommitted || step == crash.BlockStorage) {
				t.Fatalf("after a kill at %s the chain has the push: %v (%v)", step, took, chain)
			}
			// 4. Every object of the chain's refs is a block (served from
			// git through the blockstore's index, checked against its id).
			var tips []string
			for _, v := range chain {
				tips = append(tips, v)
			}
			objects := strings.Fields(crGit(t, repoDir, append([]string{"rev-list", "--objects", "--no-object-names"}, tips...)...))
			bs, err := blocks.Open(filepath.Join(data, "blocks"), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range objects {
				if !bs.HasGitObject(o) {
					bs.Close()
					t.Fatalf("object %s of the chain's refs is not in the blockstore", o)
				}
			}
			bs.Close()
			// 5. git is sound and nothing of the crash is left.
			crGit(t, repoDir, "fsck", "--strict", "--no-dangling")
			for _, pattern := range []string{
				"git/*/*.git/objects/tmp_objdir-*", "git/*/*.git/dforge-push-*", "git/*/*.git/*.lock", "git/*/*.git/refs/heads/*.lock",
				"git/*/*.git/objects/pack/*.keep", "git/*/.new-*", "blocks/.queue/.new-*", "blocks/??/.put-*",
			} {
				if left, _ := filepath.Glob(filepath.Join(data, pattern)); len(left) > 0 {
					t.Errorf("left after a kill at %s: %v", step, left)
				}
			}
		})
		if t.Failed() {
			return
		}
	}
}

// startCrashNode runs `dforge serve` (the binary bin) on data, crashing
// at crashAt if that is set. The node leads its own process group, so
// that a crash point takes the git processes it started down with it.
func startCrashNode(t *testing.T, ctx context.Context, bin, data, crashAt string) *nodeProc {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--data", data, "--addr", "127.0.0.1:0",
		"--rpc-addr", "tcp://127.0.0.1:0", "--p2p-addr", "tcp://127.0.0.1:0", "--p2p-listen", "/ip4/127.0.0.1/tcp/0")
	cmd.Env = withoutDForgeEnv(os.Environ())
	if crashAt != "" {
		cmd.Env = append(cmd.Env, crash.Env+"="+crashAt)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return startProc(t, ctx, "node", cmd)
}

// crChainRefs reads the repository's refs from the stopped node's chain
// state.
func crChainRefs(t *testing.T, data string, repo uint64) map[string]string {
	t.Helper()
	st, err := state.Open(filepath.Join(data, "chain", "app"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	refs, err := chainforge.Refs(st, repo)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range refs {
		out[r.Name] = r.ID
	}
	return out
}

func crLocalRefs(t *testing.T, dir string) map[string]string {
	t.Helper()
	refs, err := gitstore.Refs(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range refs {
		out[r.Name] = r.ID
	}
	return out
}

func crGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := gitstore.Command(context.Background(), dir, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
