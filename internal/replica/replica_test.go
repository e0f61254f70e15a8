package replica

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

var (
	alice = common.HexToAddress("0x00000000000000000000000000000000000A11CE")
	node0 = common.HexToAddress("0x0000000000000000000000000000000000000A00") // the relaying node
	node1 = common.HexToAddress("0x0000000000000000000000000000000000000A01") // this node
	other = common.HexToAddress("0x0000000000000000000000000000000000000A02")
)

// fakeChain is the projection as the replicator reads it, set by the test.
type fakeChain struct {
	mu        sync.Mutex
	height    int64
	repos     map[uint64]index.PublicRepo
	refs      map[uint64]map[string]index.ChainRef
	update    uint64
	advanced  chan struct{}
	manifests map[uint64][]string // newest first
}

func newChain() *fakeChain {
	return &fakeChain{repos: map[uint64]index.PublicRepo{}, refs: map[uint64]map[string]index.ChainRef{}, advanced: make(chan struct{})}
}

// block applies fn as the next block.
func (c *fakeChain) block(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.height++
	fn()
	close(c.advanced)
	c.advanced = make(chan struct{})
}

func (c *fakeChain) addRepo(id uint64, name string, relayer common.Address) {
	c.block(func() {
		c.repos[id] = index.PublicRepo{Repo: index.Repo{ID: id, Owner: index.User{Address: alice.Hex(), Username: "alice"},
			Name: name, DefaultBranch: "main", UpdatedHeight: c.height}, Relayer: relayer}
		c.refs[id] = map[string]index.ChainRef{}
	})
}

// push records ref = sha in repo id, relayed by relayer.
func (c *fakeChain) push(id uint64, relayer common.Address, refs map[string]string) {
	c.block(func() {
		r := c.repos[id]
		r.UpdatedHeight = c.height
		c.repos[id] = r
		for ref, sha := range refs {
			c.update++
			c.refs[id][ref] = index.ChainRef{Ref: ref, SHA: sha, Relayer: relayer, Update: c.update, Height: c.height}
		}
	})
}

func (c *fakeChain) Height() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.height
}

func (c *fakeChain) WaitFor(ctx context.Context, h int64) error {
	for {
		c.mu.Lock()
		cur, advanced := c.height, c.advanced
		c.mu.Unlock()
		if cur >= h {
			return nil
		}
		select {
		case <-advanced:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (c *fakeChain) PublicRepos(_ context.Context, after int64) ([]index.PublicRepo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []index.PublicRepo
	for _, r := range c.repos {
		if r.UpdatedHeight > after {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (c *fakeChain) ChainRefs(_ context.Context, id uint64) ([]index.ChainRef, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []index.ChainRef
	for _, r := range c.refs[id] {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out, nil
}

func (c *fakeChain) Manifests(_ context.Context, id uint64) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.manifests[id], nil
}

// addManifest records a push's manifest of big objects in repo id.
func (c *fakeChain) addManifest(id uint64, manifest string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.manifests == nil {
		c.manifests = map[uint64][]string{}
	}
	c.manifests[id] = append([]string{manifest}, c.manifests[id]...)
}

func (c *fakeChain) repo(id uint64) index.PublicRepo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.repos[id]
}

// run runs git, failing the test on error.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(gitstore.CleanEnv(os.Environ()), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Tester", "GIT_AUTHOR_EMAIL=tester@example.org", "GIT_COMMITTER_NAME=Tester", "GIT_COMMITTER_EMAIL=tester@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// work is a working repository to make commits in.
type work struct {
	t   *testing.T
	dir string
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

func newWork(t *testing.T) *work {
	dir := t.TempDir()
	run(t, dir, "init", "--quiet", "--initial-branch=main")
	return &work{t: t, dir: dir}
}

// commit commits a file and returns the commit id.
func (w *work) commit(name, content string) string {
	w.t.Helper()
	if err := writeFile(filepath.Join(w.dir, name), content); err != nil {
		w.t.Fatal(err)
	}
	run(w.t, w.dir, "add", "-A")
	run(w.t, w.dir, "commit", "--quiet", "-m", "change "+name)
	return run(w.t, w.dir, "rev-parse", "HEAD")
}

// peer is a dForge node's git data as a directory: <root>/<owner>/<name>.git,
// the path the replicator asks a peer for.
type peer struct {
	Peer
	t *testing.T
}

func newPeer(t *testing.T, operator common.Address) *peer {
	return &peer{Peer: Peer{Operator: operator, URL: t.TempDir()}, t: t}
}

func (p *peer) dir(name string) string { return filepath.Join(p.URL, alice.Hex(), name+".git") }

// push pushes refspecs of w to the peer's copy of name.
func (p *peer) push(w *work, name string, refspecs ...string) {
	p.t.Helper()
	if _, err := os.Stat(p.dir(name)); err != nil {
		run(p.t, "", "init", "--quiet", "--bare", p.dir(name))
	}
	run(p.t, w.dir, append([]string{"push", "--quiet", "--force", p.dir(name)}, refspecs...)...)
}

// node is the replicating node: its git store and replicator.
func newReplicator(t *testing.T, chain *fakeChain, peers ...Peer) (*Replicator, *gitstore.Store) {
	t.Helper()
	git, err := gitstore.Open(filepath.Join(t.TempDir(), "git"))
	if err != nil {
		t.Fatal(err)
	}
	r := New(Config{Chain: chain, Git: git, Peers: StaticPeers(peers), Self: node1, Policy: SeedAll, Protocols: "file", Log: quiet})
	return r, git
}

func localDir(t *testing.T, git *gitstore.Store, id uint64) string {
	dir, err := git.Path(strings.ToLower(alice.Hex()), strconv.FormatUint(id, 10))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func refsOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	refs, err := gitstore.Refs(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		out[r.Name] = r.ID
	}
	return out
}

func assertRefs(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	got := refsOf(t, dir)
	if len(got) != len(want) {
		t.Fatalf("refs = %v, want %v", got, want)
	}
	for ref, sha := range want {
		if got[ref] != sha {
			t.Fatalf("refs = %v, want %v", got, want)
		}
	}
	run(t, dir, "fsck", "--strict", "--no-dangling")
}

func TestReplicatesARepositoryFromItsPeer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	chain := newChain()
	w := newWork(t)
	c1 := w.commit("README.md", "# demo\n")
	run(t, w.dir, "branch", "dev")
	c2 := w.commit("main.go", "package main\n")
	p := newPeer(t, node0)
	p.push(w, "demo", "main", "dev")
	chain.addRepo(1, "demo", node0)
	chain.push(1, node0, map[string]string{"refs/heads/main": c2, "refs/heads/dev": c1})

	r, git := newReplicator(t, chain, p.Peer)
	if err := r.sync(ctx, chain.repo(1)); err != nil {
		t.Fatal(err)
	}
	dir := localDir(t, git, 1)
	assertRefs(t, dir, map[string]string{"refs/heads/main": c2, "refs/heads/dev": c1})
	if head := run(t, dir, "symbolic-ref", "HEAD"); head != "refs/heads/main" {
		t.Errorf("HEAD = %s", head)
	}
	// Hooks and settings are the git store's, as for a repository made here.
	if hooks := run(t, dir, "config", "core.hooksPath"); hooks != git.HooksDir() {
		t.Errorf("core.hooksPath = %q", hooks)
	}
	if s, _ := r.Status(1); s.State != "" { // sync alone records only for seeded (scheduled) repositories
		t.Errorf("status %+v", s)
	}

	// A second push, a new branch and a deleted one.
	c3 := w.commit("main.go", "package main\n\nfunc main() {}\n")
	run(t, w.dir, "tag", "v1")
	p.push(w, "demo", "main", "refs/tags/v1", ":dev")
	chain.push(1, node0, map[string]string{"refs/heads/main": c3, "refs/tags/v1": c3, "refs/heads/dev": gitstore.ZeroID})
	if err := r.sync(ctx, chain.repo(1)); err != nil {
		t.Fatal(err)
	}
	assertRefs(t, dir, map[string]string{"refs/heads/main": c3, "refs/tags/v1": c3})
}

// The verify step: a peer that cannot give the chain's value is refused,
// and nothing moves; the next peer that can is used.
func TestAPeerWithAnotherRefValueIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	chain := newChain()
	w := newWork(t)
	base := w.commit("README.md", "# demo\n")
	right := w.commit("a.txt", "the chain's\n")
	wrong := newPeer(t, node0) // relayed the update, yet serves another history
	forged := newWork(t)
	forged.commit("README.md", "# forged\n")
	wrong.push(forged, "demo", "main")
	chain.addRepo(1, "demo", node0)
	chain.push(1, node0, map[string]string{"refs/heads/main": right})

	r, git := newReplicator(t, chain, wrong.Peer)
	err := r.sync(ctx, chain.repo(1))
	if err == nil {
		t.Fatal("a peer without the chain's value was accepted")
	}
	if _, statErr := os.Stat(localDir(t, git, 1)); !os.IsNotExist(statErr) {
		t.Fatalf("a refused replication left a repository: %v", statErr)
	}
	// A shallow copy has the commit but not its history: refused too.
	shallow := newPeer(t, node0)
	shallowDir := shallow.dir("demo")
	p := newPeer(t, other)
	p.push(w, "demo", "main")
	run(t, "", "clone", "--quiet", "--bare", "--depth=1", "--branch=main", "file://"+p.dir("demo"), shallowDir)
	r, git = newReplicator(t, chain, wrong.Peer, shallow.Peer)
	if err := r.sync(ctx, chain.repo(1)); err == nil {
		t.Fatal("a shallow peer's incomplete history was accepted")
	}
	if _, statErr := os.Stat(localDir(t, git, 1)); !os.IsNotExist(statErr) {
		t.Fatalf("a refused replication left a repository: %v", statErr)
	}
	// With a peer that has it, tried after those, the refused ones leave
	// nothing behind.
	r, git = newReplicator(t, chain, wrong.Peer, shallow.Peer, p.Peer)
	if err := r.sync(ctx, chain.repo(1)); err != nil {
		t.Fatal(err)
	}
	assertRefs(t, localDir(t, git, 1), map[string]string{"refs/heads/main": right})
	if run(t, localDir(t, git, 1), "rev-parse", "main~1") != base {
		t.Fatal("the history is not the chain's")
	}
}

// verify refuses a ref value whose objects are not all here, and leaves
// what it refused out of the repository.
func TestVerifyRefusesIncompleteObjects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWork(t)
	c1 := w.commit("README.md", "# demo\n")
	dir := filepath.Join(t.TempDir(), "repo.git")
	run(t, "", "clone", "--quiet", "--bare", w.dir, dir)
	if err := verify(ctx, dir, nil, []string{c1}, nil); err != nil {
		t.Fatalf("a complete commit: %v", err)
	}
	// A commit whose tree and parent are nowhere.
	missingTree := strings.Repeat("1", 40)
	body := "tree " + missingTree + "\nparent " + c1 + "\nauthor A <a@b> 0 +0000\ncommitter A <a@b> 0 +0000\n\nforged\n"
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--literally", "--stdin")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(body)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	forged := strings.TrimSpace(string(out))
	if err := verify(ctx, dir, nil, []string{forged}, nil); err == nil {
		t.Fatal("a commit without its tree passed")
	}
	if err := verify(ctx, dir, nil, []string{strings.Repeat("2", 40)}, nil); err == nil {
		t.Fatal("an absent commit passed")
	}
}

// Refs this node relayed are moved by its own push path, never by the
// replicator, and a repository it created is made by its own flow.
func TestOwnRelaysAreLeftAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	chain := newChain()
	w := newWork(t)
	c1 := w.commit("README.md", "# demo\n")
	c2 := w.commit("a.txt", "a\n")
	p := newPeer(t, node0)
	p.push(w, "demo", "main", "main:dev")
	chain.addRepo(1, "mine", node1)
	chain.push(1, node1, map[string]string{"refs/heads/main": c1})
	r, git := newReplicator(t, chain, p.Peer)
	if err := r.sync(ctx, chain.repo(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(localDir(t, git, 1)); !os.IsNotExist(err) {
		t.Fatalf("the replicator made a repository this node created: %v", err)
	}

	chain.addRepo(2, "demo", node0)
	chain.push(2, node0, map[string]string{"refs/heads/dev": c2})
	chain.push(2, node1, map[string]string{"refs/heads/main": c2}) // pushed here, not yet moved by git here
	if err := r.sync(ctx, chain.repo(2)); err != nil {
		t.Fatal(err)
	}
	assertRefs(t, localDir(t, git, 2), map[string]string{"refs/heads/dev": c2})
}

func TestOrderPeers(t *testing.T) {
	t.Parallel()
	peers := []Peer{{Operator: other, URL: "http://other"}, {Operator: node1, URL: "http://self"}, {URL: "http://static"},
		{Operator: node0, URL: "http://node0/"}, {Operator: node0, URL: "http://node0"}}
	todo := []index.ChainRef{{Relayer: other, Update: 1}, {Relayer: node0, Update: 2}}
	var got []string
	for _, p := range orderPeers(peers, todo, node1) {
		got = append(got, p.URL)
	}
	if want := "http://node0/ http://other http://static"; strings.Join(got, " ") != want {
		t.Fatalf("order = %v, want %s", got, want)
	}
}

func TestRepoURLRefusesOtherSchemes(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"ext::sh -c evil", "-upload-pack=evil", "file:///tmp/x", "ssh://host/x", "relative/path"} {
		if got, err := repoURL(u, alice.Hex(), "demo", "http:https"); err == nil {
			t.Errorf("%q was accepted as %q", u, got)
		}
	}
	got, err := repoURL("https://user:pw@forge.example.org/base/?q=1", alice.Hex(), "demo", "http:https")
	if err != nil || got != "https://forge.example.org/base/"+alice.Hex()+"/demo.git" {
		t.Fatalf("repoURL = %q, %v", got, err)
	}
}

// Run follows the chain: a repository created, then pushed to, on another
// node is here soon after each block; a failure is retried.
func TestRunFollowsTheChain(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	chain := newChain()
	p := newPeer(t, node0)
	r, git := newReplicator(t, chain, p.Peer)
	r.cfg.Policy, _ = ParsePolicy("!repo:alice/skipped")
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()

	// An empty repository exists at once.
	chain.addRepo(1, "demo", node0)
	dir := localDir(t, git, 1)
	waitStatus(t, r, 1, Ready)
	assertRefs(t, dir, nil)

	// A push whose objects the peer does not have yet fails, and is
	// retried until it has them.
	w := newWork(t)
	c1 := w.commit("README.md", "# demo\n")
	chain.push(1, node0, map[string]string{"refs/heads/main": c1})
	waitStatus(t, r, 1, Failed)
	p.push(w, "demo", "main")
	waitStatus(t, r, 1, Ready)
	assertRefs(t, dir, map[string]string{"refs/heads/main": c1})

	// A repository the policy does not seed has no status.
	chain.addRepo(2, "skipped", node0)
	chain.addRepo(3, "seeded", node0)
	waitStatus(t, r, 3, Ready)
	if s, ok := r.Status(2); ok {
		t.Fatalf("an unseeded repository has status %+v", s)
	}
}

func waitStatus(t *testing.T, r *Replicator, id uint64, state string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s, _ := r.Status(id)
		if s.State == state {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("repository %d: status %+v, want %s", id, s, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
