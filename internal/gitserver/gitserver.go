// Package gitserver serves git's Smart HTTP protocol at
// /{owner}/{repo}.git/info/refs, /git-upload-pack and /git-receive-pack,
// through the git binary (`upload-pack` / `receive-pack --stateless-rpc`).
// Both directions are streamed: request bodies (gunzipped on the fly) are
// piped into git and git's output is copied to the client with a flush per
// write, so no pack is ever held in memory. Protocol v2 passes through
// (Git-Protocol header -> GIT_PROTOCOL).
//
// Which repository a path names and who may do what is decided by Repos,
// which the forge model implements in the terms of internal/repoaccess:
// one AccessLevel per request, as soft-serve's backend answers. Anyone who
// may not read a repository gets 404, exactly as for one that does not
// exist; an anonymous request is challenged (401) instead, the same way
// for both, so git can offer its credentials without the answer revealing
// anything.
//
// Pushes run the node's pre-receive hook (see hooks.go): Repos checks
// every ref update and records them (on chain, for a public repository)
// before git moves the refs; the pushed objects of public repositories are
// then stored in the blockstore.
package gitserver

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/lfslock"
	"github.com/dforge/dforge/internal/repoaccess"
)

// Repos finds repositories and decides access; the forge model implements
// it. A nil user is an anonymous request.
type Repos interface {
	// Resolve finds the repository called name of owner (false: none).
	Resolve(ctx context.Context, owner, name string) (repoaccess.Repo, bool, error)
	// AccessLevel is what user (nil: anonymous) may do in r: below
	// Read it does not exist for them, Write lets them push.
	AccessLevel(ctx context.Context, user *auth.User, r repoaccess.Repo) repoaccess.Level
	// CheckUpdate refuses a ref update of a push (a force-push to a
	// protected branch, say). Return a *usererr.Error: its message is
	// shown to the pusher. Any refusal rejects the whole push.
	CheckUpdate(ctx context.Context, user *auth.User, r repoaccess.Repo, u repoaccess.RefUpdate) error
	// Commit records a push's ref updates before git applies them: on
	// chain for a public repository, compare-and-swap, all or none, and
	// returns once they are committed (git then moves the refs). An
	// update whose Old is not the ref's recorded value is refused with a
	// *usererr.Error of code StaleRef; any error declines the push. (The
	// manifest of the push's objects over 1 MiB follows on chain once its
	// blocks are stored: blocks.ManifestRecorder.)
	Commit(ctx context.Context, user *auth.User, r repoaccess.Repo, updates []repoaccess.RefUpdate) error
}

// Pending is implemented by Repos whose git data may still be on its way
// to this node (replicated from the node that received the push). For a
// repository found but not on disk, Pending says why and whether to come
// back: the request is answered 503 with Retry-After and the message,
// which git shows, instead of 404.
type Pending interface {
	Pending(ctx context.Context, r repoaccess.Repo) (message string, retry bool)
}

// Settler is implemented by Repos that settle, while the node runs, a
// push whose record's outcome was unknown when it ended (NotCommitted: its
// transaction may still commit): its objects stay staged until the chain
// decides, then its refs follow the chain (gitrepos.Repos.FollowUnsettled).
type Settler interface {
	// LockPush is held by a push from before receive-pack starts until
	// the push is settled, and returns its release: pushes share it, the
	// settling of an unknown outcome takes it alone.
	LockPush(r repoaccess.Repo) (unlock func())
	// Unsettled remembers r: a push to it ended with its outcome unknown.
	Unsettled(r repoaccess.Repo)
}

// Config is what a Server is built with.
type Config struct {
	Repos  Repos           // nil: every repository answers 404
	Store  *gitstore.Store // for the shared hooks dir
	Blocks *blocks.Store   // nil: pushed objects are not stored as blocks
	// HookBin is the program the hooks run as `HookBin hook <name>`; empty
	// means this process's own executable (the dforge binary).
	HookBin string
	Log     *slog.Logger
	// Writers refuses pushes by accounts this node does not write for
	// (its moderators' suspensions); nil refuses none.
	Writers Writers
	// Locks keeps Git LFS file locks; nil answers the locking API 501.
	Locks *lfslock.Service
	// Jobs checks the tokens of running Actions jobs (jobtoken.go); nil
	// takes none.
	Jobs JobTokens
}

// Writers decides whether the node relays an account's writes; a refusal
// is a *usererr.Error whose code and message the pusher is shown.
type Writers interface {
	CheckWriter(ctx context.Context, addr common.Address) error
}

// Server is the Smart HTTP handler.
type Server struct {
	repos   Repos
	store   *gitstore.Store
	blocks  *blocks.Store
	hookBin string
	log     *slog.Logger
	hooks   hookServer
	writers Writers
	locks   *lfslock.Service
	tickets tickets // the LFS credentials git-lfs-authenticate gives
	jobs    JobTokens
}

// New returns the git server.
func New(cfg Config) *Server {
	s := &Server{repos: cfg.Repos, store: cfg.Store, blocks: cfg.Blocks, hookBin: cfg.HookBin, log: cfg.Log, writers: cfg.Writers, locks: cfg.Locks, jobs: cfg.Jobs}
	s.tickets = newTickets()
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.hookBin == "" {
		if exe, err := os.Executable(); err == nil {
			s.hookBin = exe
		}
	}
	s.hooks.pushes = map[string]*push{}
	return s
}

// Close stops the loopback endpoint the hooks call.
func (s *Server) Close() error { return s.hooks.close() }

const (
	uploadPack  = "git-upload-pack"
	receivePack = "git-receive-pack"
)

// request is a parsed git path.
type request struct {
	owner, name string
	action      string // "info/refs", uploadPack or receivePack
}

// nameRule is Gitea's rule for owner and repository names in URLs. Names
// never need escaping, so a path with a '%' is refused before decoding.
var nameRule = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}$`)

// IsGitPath reports whether an (escaped) URL path is meant for the git
// server: /{owner}/{repo}/info/refs, /git-upload-pack or /git-receive-pack,
// with or without .git on the repository name.
func IsGitPath(escapedPath string) bool {
	parts := strings.Split(escapedPath, "/")
	switch {
	case len(parts) == 5 && parts[0] == "" && parts[3] == "info" && parts[4] == "refs":
		return true
	case len(parts) == 4 && parts[0] == "" && (parts[3] == uploadPack || parts[3] == receivePack):
		return true
	}
	_, lfs := parseLFSPath(escapedPath)
	return lfs
}

// parsePath splits a git path, refusing names that are not plain names
// (`..`, encoded characters, empty segments).
func parsePath(escapedPath string) (request, bool) {
	if !IsGitPath(escapedPath) {
		return request{}, false
	}
	parts := strings.Split(escapedPath, "/")
	req := request{owner: parts[1], name: strings.TrimSuffix(parts[2], ".git"), action: parts[3]}
	if len(parts) == 5 {
		req.action = "info/refs"
	}
	for _, n := range []string{req.owner, req.name} {
		if !nameRule.MatchString(n) || n == "." || n == ".." {
			return request{}, false
		}
	}
	return req, true
}

// hookServer is the loopback endpoint of the hooks and its push sessions.
type hookServer struct {
	once   sync.Once
	url    string
	err    error
	srv    *http.Server
	mu     sync.Mutex
	pushes map[string]*push // by one-time token
}
