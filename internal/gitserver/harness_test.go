package gitserver_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	stdlog "log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/routes"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitserver"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/logtest"
	"github.com/dforge/dforge/internal/longtest"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/dforge/dforge/internal/web"
)

// TestMain lets the test binary stand in for the dforge binary in the
// hooks: the git server runs its own executable as `<exe> hook <name>`.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "hook" && os.Getenv("DFORGE_HOOK_TOKEN") != "" {
		if err := gitserver.RunHook(context.Background(), os.Args[2], os.Stdin, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "dforge:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// harness is the node's real HTTP handler (web.NewHandler with the auth
// middleware, the git server and the IPFS gateway) over a temp data dir
// and SQLite, with fakeRepos standing in for the forge.
type harness struct {
	t      *testing.T
	srv    *httptest.Server
	logs   *logtest.Buffer // the node's log, as text
	panics *logtest.Buffer // the HTTP server's own log: panics it recovered
	git    *gitstore.Store
	blocks *blocks.Store
	repos  *fakeRepos
	jobs   *fakeJobs // running jobs' tokens and the repository each reads
	auth   *auth.Service
	st     *store.Store
	home   string // HOME of the git client
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	longtest.Mark(t, "runs a git server with real git clients")
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, filepath.Join(dir, "node.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs, panics := &logtest.Buffer{}, &logtest.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	svc := auth.New(st, auth.Config{ChainID: 1, Log: log})
	gs, err := gitstore.Open(filepath.Join(dir, "git"))
	if err != nil {
		t.Fatal(err)
	}
	bs, err := blocks.Open(filepath.Join(dir, "blocks"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bs.Close() })
	repos := &fakeRepos{repos: map[string]*fakeRepo{}}
	jobs := &fakeJobs{repo: map[string]uint64{}}
	gitSrv := gitserver.New(gitserver.Config{Repos: repos, Store: gs, Blocks: bs, Log: log, Jobs: jobs})
	t.Cleanup(func() { gitSrv.Close() })
	h, err := web.NewHandler(web.Deps{
		Log: log, API: routes.New(log, api.Services{Auth: svc}, "test"), DB: st, Version: "test",
		Dist: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>dForge</title>")}},
		Auth: svc, Git: gitSrv, IPFS: bs.Gateway(log),
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = stdlog.New(panics, "", 0)
	srv.Start()
	// No request may panic the server, whatever the test sent.
	t.Cleanup(func() {
		if strings.Contains(panics.String(), "panic") {
			t.Errorf("the HTTP server recovered a panic:\n%s", panics)
		}
	})
	t.Cleanup(srv.Close)
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o755)
	return &harness{t: t, srv: srv, logs: logs, panics: panics, git: gs, blocks: bs, repos: repos, jobs: jobs, auth: svc, st: st, home: home}
}

// settleBlocks waits until the objects of every push so far are stored as
// blocks (or dropped).
func (h *harness) settleBlocks() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.blocks.Settle(ctx); err != nil {
		h.t.Fatal(err)
	}
}

// tester is a signed-up user with an access token.
type tester struct {
	addr  common.Address
	token string
}

func (h *harness) user(scopes ...string) *tester {
	h.t.Helper()
	if len(scopes) == 0 {
		scopes = []string{"write"}
	}
	key, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	ctx := context.Background()
	su, err := h.st.EnsureUser(ctx, strings.ToLower(addr.Hex()), time.Now())
	if err != nil {
		h.t.Fatal(err)
	}
	tok, err := h.auth.CreateToken(ctx, auth.User{ID: su.ID, Address: addr}, "git", scopes)
	if err != nil {
		h.t.Fatal(err)
	}
	return &tester{addr: addr, token: tok.Secret}
}

// repo makes a repository of owner, shown as ownerName/name, with a first
// commit unless empty.
func (h *harness) repo(owner *tester, ownerName, name string, private, empty bool) repoaccess.Repo {
	h.t.Helper()
	id := fmt.Sprintf("%d", h.repos.next())
	opts := gitstore.CreateOptions{DefaultBranch: "main"}
	if !empty {
		opts.README = []byte("# " + name + "\n")
		opts.Author = gitstore.Signature{Name: "owner", Email: "owner@example.org", When: time.Unix(1700000000, 0)}
	}
	path, err := h.git.Create(context.Background(), strings.ToLower(owner.addr.Hex()), id, opts)
	if err != nil {
		h.t.Fatal(err)
	}
	r := repoaccess.Repo{ID: id, Owner: ownerName, Name: name, Path: path, Private: private, DefaultBranch: "main"}
	h.repos.add(r, owner.addr)
	if !private && !empty {
		if _, err := h.blocks.ImportRepository(context.Background(), path); err != nil {
			h.t.Fatal(err)
		}
	}
	return r
}

// remote is the repository's URL, with u's token as the password.
func (h *harness) remote(u *tester, owner, name string) string {
	base, _ := url.Parse(h.srv.URL)
	base.Path = "/" + owner + "/" + name + ".git"
	if u != nil {
		base.User = url.UserPassword("git", u.token)
	}
	return base.String()
}

// gitEnv is a git client's environment: no user or system config, no
// prompts, a fixed identity.
func (h *harness) gitEnv() []string {
	return append(gitstore.CleanEnv(os.Environ()),
		"HOME="+h.home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=",
		"GIT_AUTHOR_NAME=Tester", "GIT_AUTHOR_EMAIL=tester@example.org",
		"GIT_COMMITTER_NAME=Tester", "GIT_COMMITTER_EMAIL=tester@example.org")
}

// run runs git in dir and returns its combined output, failing the test
// on error.
func (h *harness) run(dir string, args ...string) string {
	h.t.Helper()
	out, err := h.try(dir, args...)
	if err != nil {
		h.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// gitCmd is git in dir with the client's environment.
func (h *harness) gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = h.gitEnv()
	return cmd
}

// try runs git in dir and returns its combined output and error.
func (h *harness) try(dir string, args ...string) (string, error) {
	cmd := h.gitCmd(dir, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// clone clones into a fresh directory and returns it.
func (h *harness) clone(remote string, args ...string) string {
	h.t.Helper()
	dir := filepath.Join(h.t.TempDir(), "clone")
	h.run("", append(append([]string{"clone", "--quiet"}, args...), remote, dir)...)
	return dir
}

// commit writes files in a work tree and commits them.
func (h *harness) commit(dir, msg string, files map[string]string) string {
	h.t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
	h.run(dir, "add", "-A")
	h.run(dir, "commit", "--quiet", "-m", msg)
	return strings.TrimSpace(h.run(dir, "rev-parse", "HEAD"))
}

// refOf reads a ref in the server's bare repository.
func (h *harness) refOf(r repoaccess.Repo, ref string) string {
	out, err := h.try(r.Path, "rev-parse", "--verify", "--quiet", ref)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// get sends a GET with optional headers.
func (h *harness) get(path string, header map[string]string) (*http.Response, []byte) {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

func basic(u *tester) map[string]string {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth("git", u.token)
	return map[string]string{"Authorization": req.Header.Get("Authorization")}
}

// fakeRepos is the forge as far as git is concerned: owners and
// collaborators write, private repositories are theirs alone, and the
// default branch is protected against force-pushes and deletion.
type fakeRepos struct {
	mu       sync.Mutex
	repos    map[string]*fakeRepo
	n        int
	resolved []string
	pushes   []pushRecord
	// chain is the refs the "chain" holds, by repository id and ref: a
	// push applies only from them (refs it has not seen apply from any).
	chain map[string]map[string]string
}

type fakeRepo struct {
	repo    repoaccess.Repo
	writers map[common.Address]bool
}

type pushRecord struct {
	user    common.Address
	repo    string
	updates []repoaccess.RefUpdate
}

func (f *fakeRepos) next() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	return f.n
}

func (f *fakeRepos) resolvedNames() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.resolved...)
}

func (f *fakeRepos) add(r repoaccess.Repo, owner common.Address) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.repos[strings.ToLower(r.Owner+"/"+r.Name)] = &fakeRepo{repo: r, writers: map[common.Address]bool{owner: true}}
}

func (f *fakeRepos) addWriter(r repoaccess.Repo, u *tester) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.repos[strings.ToLower(r.Owner+"/"+r.Name)].writers[u.addr] = true
}

func (f *fakeRepos) Resolve(_ context.Context, owner, name string) (repoaccess.Repo, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resolved = append(f.resolved, owner+"/"+name)
	r, ok := f.repos[strings.ToLower(owner+"/"+name)]
	if !ok {
		return repoaccess.Repo{}, false, nil
	}
	return r.repo, true, nil
}

func (f *fakeRepos) writer(u *auth.User, r repoaccess.Repo) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return u != nil && f.repos[strings.ToLower(r.Owner+"/"+r.Name)].writers[u.Address]
}

// AccessLevel: writers may push; anyone reads a public repository.
func (f *fakeRepos) AccessLevel(_ context.Context, u *auth.User, r repoaccess.Repo) repoaccess.Level {
	switch {
	case f.writer(u, r):
		return repoaccess.Write
	case !r.Private:
		return repoaccess.Read
	}
	return repoaccess.None
}

func (f *fakeRepos) CheckUpdate(_ context.Context, _ *auth.User, r repoaccess.Repo, u repoaccess.RefUpdate) error {
	if u.Ref == "refs/heads/"+r.DefaultBranch && u.Forced {
		return usererr.Newf(usererr.Forbidden, "protected_branch", "Force-pushing to or deleting %s is not allowed: it is a protected branch.", r.DefaultBranch)
	}
	return nil
}

func (f *fakeRepos) Commit(_ context.Context, u *auth.User, r repoaccess.Repo, updates []repoaccess.RefUpdate) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.chain == nil {
		f.chain = map[string]map[string]string{}
	}
	refs := f.chain[r.ID]
	if refs == nil {
		refs = map[string]string{}
		f.chain[r.ID] = refs
	}
	for _, up := range updates {
		if cur, ok := refs[up.Ref]; ok && cur != up.Old {
			return usererr.Clashf(gitserver.StaleRef, "%s is at %s, not %s", up.Ref, cur, up.Old)
		}
	}
	for _, up := range updates {
		refs[up.Ref] = up.New
	}
	f.pushes = append(f.pushes, pushRecord{user: u.Address, repo: r.ID, updates: updates})
	return nil
}

// moveOnChain moves a ref on the fake chain, as another node's push would.
func (f *fakeRepos) moveOnChain(r repoaccess.Repo, ref, id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.chain == nil {
		f.chain = map[string]map[string]string{}
	}
	if f.chain[r.ID] == nil {
		f.chain[r.ID] = map[string]string{}
	}
	f.chain[r.ID][ref] = id
}

func (f *fakeRepos) pushesTo(r repoaccess.Repo) []pushRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []pushRecord
	for _, p := range f.pushes {
		if p.repo == r.ID {
			out = append(out, p)
		}
	}
	return out
}
