package cli

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/node"
)

// TestReplicationAcrossTwoNodes runs a two-validator testnet as processes:
// a repository pushed to node0 with the git binary clones from node1
// within seconds, with the same refs and a clean fsck; a second push
// follows; a private repository never reaches node1; node1's code search
// finds what the public ones hold.
func TestReplicationAcrossTwoNodes(t *testing.T) {
	t.Parallel() // beside the heal test's outage (partition_proc_test.go)
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("this test needs the git binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "net")
	if err := Run(ctx, []string{"testnet", "--validators", "2", "--out", dir}, io.Discard); err != nil {
		t.Fatal(err)
	}
	nodes := make([]*nodeProc, 2)
	started := make(chan struct{})
	go func() { // both must run for blocks to commit
		defer close(started)
		nodes[1] = startNodeProc(t, ctx, node.TestnetHome(dir, 1), "node1")
	}()
	nodes[0] = startNodeProc(t, ctx, node.TestnetHome(dir, 0), "node0")
	<-started
	if nodes[1] == nil {
		t.FailNow()
	}
	eventually(t, ctx, "2 validators connected", time.Minute, func() (string, bool) { return connected(ctx, nodes, 1) })

	// 1. Alice signs in on node0, creates demo and pushes two branches.
	key, _ := crypto.GenerateKey()
	alice := crSignIn(t, ctx, nodes[0].url, key)
	crCreateRepo(t, ctx, nodes[0].url, alice, "demo")
	work := crGitWork(t)
	work.commit(map[string]string{"README.md": "# demo\n"})
	work.run("branch", "dev")
	work.commit(map[string]string{"main.go": "package main\n"})
	work.run("push", "--quiet", alice.remote(nodes[0].url, "demo"), "main", "dev")
	want := work.refs("main", "dev")

	// 2. node1 serves it soon after, as pushed.
	start := time.Now()
	anon := repoURL(nodes[1].url, alice.login, "demo")
	eventually(t, ctx, "node1 serves demo", 30*time.Second, func() (string, bool) {
		got, err := lsRemote(anon)
		return got + fmt.Sprint(err), err == nil && got == want
	})
	t.Logf("replicated to node1 %v after the push", time.Since(start))
	clone := filepath.Join(t.TempDir(), "clone")
	work.run("clone", "--quiet", "--mirror", anon, clone)
	work.runIn(clone, "fsck", "--strict", "--no-dangling")

	// 3. A second push follows.
	tip := work.commit(map[string]string{"main.go": "package main\n\nfunc main() { millstone() }\n\nfunc millstone() {}\n"})
	work.run("push", "--quiet", alice.remote(nodes[0].url, "demo"), "main")
	want = work.refs("main", "dev")
	eventually(t, ctx, "node1 has the second push", 30*time.Second, func() (string, bool) {
		got, err := lsRemote(anon)
		return got + fmt.Sprint(err), err == nil && got == want
	})
	work.runIn(clone, "fetch", "--quiet")
	if got := work.runIn(clone, "rev-parse", "main"); got != tip {
		t.Fatalf("node1's main is %s, want %s", got, tip)
	}
	work.runIn(clone, "fsck", "--strict", "--no-dangling")

	// 4. A private repository stays on node0: node1 has no git data for it
	// once it has replicated a public one created after it.
	crNewRepo(t, ctx, nodes[0].url, alice, "secret", true)
	work.run("push", "--quiet", alice.remote(nodes[0].url, "secret"), "main")
	crCreateRepo(t, ctx, nodes[0].url, alice, "later")
	work.run("push", "--quiet", alice.remote(nodes[0].url, "later"), "main")
	eventually(t, ctx, "node1 serves later", 30*time.Second, func() (string, bool) {
		got, err := lsRemote(repoURL(nodes[1].url, alice.login, "later"))
		return got + fmt.Sprint(err), err == nil && got != ""
	})
	repos, _ := filepath.Glob(filepath.Join(node.TestnetHome(dir, 1), "git", "*", "*.git"))
	if len(repos) != 2 {
		t.Fatalf("node1 holds %d repositories, want demo and later: %v", len(repos), repos)
	}
	if out, err := lsRemote(alice.remote(nodes[1].url, "secret")); err == nil {
		t.Fatalf("node1 serves the private repository: %s", out)
	}

	// 5. node1 indexes the public default branches it replicated for code
	// search, the second push included, and never the private one.
	want5 := []string{alice.login + "/demo:main.go", alice.login + "/later:main.go"}
	eventually(t, ctx, "node1's code search finds millstone", 30*time.Second, func() (string, bool) {
		got, err := codeHits(ctx, nodes[1].url, "millstone")
		return fmt.Sprint(got, err), err == nil && slices.Equal(got, want5)
	})
}

// codeHits are the files (owner/name:path, sorted) an anonymous code
// search for q finds on the node at base.
func codeHits(ctx context.Context, base, q string) ([]string, error) {
	var res struct {
		Items []struct {
			Repository struct {
				FullName string `json:"full_name"`
			} `json:"repository"`
			Path string `json:"path"`
		} `json:"items"`
	}
	if err := getJSON(ctx, base+"/api/v1/search/code?q="+url.QueryEscape(q), &res); err != nil {
		return nil, err
	}
	var out []string
	for _, h := range res.Items {
		out = append(out, h.Repository.FullName+":"+h.Path)
	}
	slices.Sort(out)
	return out, nil
}
