package gitrepos_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/forgetest"
	"github.com/dforge/dforge/internal/gitstore"
)

func TestMain(m *testing.M) { forgetest.Main(m) }

// Reconcile brings a repository's refs to the chain's values and clears
// what a crash leaves; the first time, it records the refs the chain has
// never seen instead of deleting them.
func TestReconcileFollowsTheChain(t *testing.T) {
	n := forgetest.Start(t)
	ctx := context.Background()
	alice := n.NewUser()
	r, err := n.Repos.Create(ctx, alice.Address, gitrepos.CreateOptions{
		Name: "demo", README: []byte("# demo\n"), Author: gitstore.Signature{Name: "alice", Email: "alice@example.org", When: time.Unix(1700000000, 0)},
	})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := n.Repos.Dir(r)
	if err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		out, err := gitstore.Command(ctx, dir, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	chainRefs := func() map[string]string {
		t.Helper()
		refs, err := n.Forge.Refs(r.ID)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, ref := range refs {
			out[ref.Name] = ref.ID
		}
		return out
	}
	first := chainRefs()["refs/heads/main"]
	if first == "" || git("rev-parse", "refs/heads/main") != first {
		t.Fatalf("the first commit is not on chain: %v", chainRefs())
	}
	// A commit git has and the chain does not.
	tree := git("rev-parse", first+"^{tree}")
	cmd := gitstore.Command(ctx, dir, "commit-tree", tree, "-p", first, "-m", "local only")
	cmd.Env = append(cmd.Env, "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	local := strings.TrimSpace(string(out))

	// 1. As a node from before refs went on chain: main moved by git alone
	// goes back, a branch the chain never saw is recorded, debris goes.
	git("update-ref", "refs/heads/main", local, first)
	git("update-ref", "refs/heads/old", local)
	git("update-ref", "refs/pull/1/head", local) // the node's own
	debris := []string{
		filepath.Join(dir, "objects", "tmp_objdir-incoming-x1", "pack"), filepath.Join(filepath.Dir(dir), ".new-9-abc"),
	}
	for _, d := range debris {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lock := filepath.Join(dir, "refs", "heads", "main.lock") // would refuse every update of main
	if err := os.WriteFile(lock, []byte(local+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	debris = append(debris, lock)
	os.Remove(filepath.Join(n.Dir, "git", ".refs-on-chain"))
	if err := n.Repos.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	if got := chainRefs(); got["refs/heads/main"] != first || got["refs/heads/old"] != local || len(got) != 2 {
		t.Fatalf("chain refs after the first reconcile: %v", got)
	}
	if git("rev-parse", "refs/heads/main") != first || git("rev-parse", "refs/heads/old") != local || git("rev-parse", "refs/pull/1/head") != local {
		t.Fatal("local refs do not follow the chain")
	}
	for _, d := range debris {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("debris left: %s", d)
		}
	}

	// 2. From then on: a ref the chain lacks goes, a ref the chain moved
	// (the objects being here) follows it.
	if _, err := n.Forge.Do(ctx, alice.Address, chainforge.RepoPush{Repo: r.ID, Updates: []chainforge.RefChange{
		{Ref: "refs/heads/main", Old: first, New: local},
		{Ref: "refs/tags/v1", Old: chainforge.ZeroSHA, New: first},
	}}); err != nil {
		t.Fatal(err)
	}
	git("update-ref", "refs/heads/stray", first)
	if err := n.Repos.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	refs, err := gitstore.Refs(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, ref := range refs {
		got[ref.Name] = ref.ID
	}
	want := map[string]string{"refs/heads/main": local, "refs/heads/old": local, "refs/tags/v1": first, "refs/pull/1/head": local}
	if len(got) != len(want) {
		t.Fatalf("refs %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("refs %v, want %v", got, want)
		}
	}
	// Every chain ref's objects end up as blocks.
	settle, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := n.Blocks.Settle(settle); err != nil {
		t.Fatal(err)
	}
	for _, id := range strings.Fields(git("rev-list", "--objects", "--no-object-names", local, first)) {
		if !n.Blocks.HasGitObject(id) {
			t.Fatalf("object %s of a chain ref is not a block", id)
		}
	}
}
