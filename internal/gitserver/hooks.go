package gitserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/crash"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/usererr"
)

// The hook of a push calls back into the node over HTTP on loopback: the
// git server starts receive-pack with the endpoint's URL and a one-time
// token for this push in its environment (DFORGE_HOOK_URL,
// DFORGE_HOOK_TOKEN), the hook inherits them, and the token tells the node
// which user pushes to which repository. A token is good for one
// pre-receive call, and only while its receive-pack runs.
//
// A push, step by step (the chain orders ref updates; internal/gitserver/README.md):
//  1. receive-pack writes the pack to its quarantine (always a pack:
//     receive.unpackLimit=1) and runs pre-receive, which calls the node.
//  2. The node checks each update (Repos.CheckUpdate), links the
//     quarantine's files into the repository and syncs them
//     (gitstore.StagePush), and records the updates (Repos.Commit: one
//     repo.push on chain, compare-and-swap, waited for). A refusal, a
//     lost race included, drops the staged files and declines the push.
//  3. It journals the new objects for the blockstore (held) and says yes;
//     git moves the refs and reports to the client: the push is
//     acknowledged. The job that stores them later records the manifest
//     of its objects over 1 MiB on chain (blocks: record.go), so hashing
//     them is not on the push's path.
//  4. When receive-pack ends, the node checks that git moved every ref the
//     chain took (moving any it did not), forgets the staging and lets the
//     queue store the blocks.
// A crash anywhere is repaired at start (gitrepos.Repos.Reconcile). A push
// whose record's outcome is unknown (NotCommitted) keeps its staging, and
// is settled once the chain decides it (Settler), or else at the start.

// push is one receive-pack run.
type push struct {
	user auth.User
	repo repoaccess.Repo
	mu   sync.Mutex
	used map[string]bool // hook names already called
	// Set by pre-receive once the chain has the updates:
	staged    *gitstore.Staged
	committed []repoaccess.RefUpdate
	keep      bool   // the record's outcome is unknown: leave the staging until the chain decides
	release   func() // lets the worker store the push's blocks
}

// hookRequest is what `dforge hook` sends; hookResponse what it gets back.
type hookRequest struct {
	Updates []repoaccess.RefUpdate `json:"updates"`
	// Quarantine is receive-pack's GIT_QUARANTINE_PATH: where the pushed
	// objects wait until git accepts the push.
	Quarantine string `json:"quarantine,omitempty"`
	// Options are the push's options (`git push -o key=value`), as git
	// hands them to the hook (GIT_PUSH_OPTION_n).
	Options []string `json:"options,omitempty"`
}

type hookResponse struct {
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"`
}

// startPush opens a push session for user on repo and returns its token
// and the function that ends it.
func (s *Server) startPush(user auth.User, repo repoaccess.Repo) (string, func(), error) {
	s.hooks.once.Do(func() { s.hooks.err = s.listenHooks() })
	if s.hooks.err != nil {
		return "", nil, s.hooks.err
	}
	// The repository's push lock, so that the settling of an earlier
	// push's unknown outcome never reads this one's staging or refs half-made.
	unlock := func() {}
	settler, _ := s.repos.(Settler)
	if settler != nil {
		unlock = settler.LockPush(repo)
	}
	b := make([]byte, 32)
	rand.Read(b)
	token := hex.EncodeToString(b)
	s.hooks.mu.Lock()
	p := &push{user: user, repo: repo, used: map[string]bool{}}
	s.hooks.pushes[token] = p
	s.hooks.mu.Unlock()
	return token, func() {
		defer unlock()
		s.hooks.mu.Lock()
		delete(s.hooks.pushes, token)
		s.hooks.mu.Unlock()
		if keep := s.settle(p); keep && settler != nil {
			settler.Unsettled(repo)
		}
	}, nil
}

// listenHooks starts the loopback endpoint.
func (s *Server) listenHooks() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listen for hooks: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /"+gitstore.PreReceive, s.hookHandler(gitstore.PreReceive, s.preReceive))
	s.hooks.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	s.hooks.url = "http://" + ln.Addr().String()
	go s.hooks.srv.Serve(ln)
	return nil
}

func (h *hookServer) close() error {
	h.once.Do(func() {}) // no endpoint starts after Close
	if h.srv == nil {
		return nil
	}
	return h.srv.Close()
}

// claim returns the push a token belongs to, once per hook name.
func (h *hookServer) claim(token, hook string) (*push, bool) {
	h.mu.Lock()
	p, ok := h.pushes[token]
	h.mu.Unlock()
	if !ok {
		return nil, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.used[hook] {
		return nil, false
	}
	p.used[hook] = true
	return p, true
}

var objectID = regexp.MustCompile(`^[0-9a-f]{40}$`)

// hookHandler authenticates a hook call by its token, checks its updates
// and answers with what handle says.
func (s *Server) hookHandler(hook string, handle func(context.Context, *push, hookRequest) hookResponse) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		p, ok := s.hooks.claim(token, hook)
		if !ok {
			http.Error(w, "unknown or used hook token", http.StatusUnauthorized)
			return
		}
		var req hookRequest
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20)).Decode(&req); err != nil {
			http.Error(w, "bad hook request: "+err.Error(), http.StatusBadRequest)
			return
		}
		for _, u := range req.Updates {
			if !objectID.MatchString(u.Old) || !objectID.MatchString(u.New) || !strings.HasPrefix(u.Ref, "refs/") {
				http.Error(w, fmt.Sprintf("bad ref update %+v", u), http.StatusBadRequest)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(handle(r.Context(), p, req))
	}
}

// preReceive carries out steps 2 and 3 of a push (above): checked,
// staged, on chain, journaled for the blockstore.
func (s *Server) preReceive(ctx context.Context, p *push, req hookRequest) hookResponse {
	crash.Point(crash.BeforeHooks)
	// The push goes on whatever the client does: the chain may take it.
	ctx = context.WithoutCancel(ctx)
	updates := req.Updates
	for _, u := range updates {
		if err := s.repos.CheckUpdate(ctx, &p.user, p.repo, u); err != nil {
			return s.refusal(ctx, p, "check ref update", err)
		}
	}
	if err := s.checkLocks(ctx, p, req); err != nil {
		return s.refusal(ctx, p, "check lfs locks", err)
	}
	note := pushOptionsNote(req.Options)
	if len(req.Options) > 0 {
		s.log.InfoContext(ctx, "push options", "repo", p.repo.ID, "options", req.Options)
	}
	if len(updates) == 0 {
		return hookResponse{OK: true, Message: note}
	}
	// 2. The objects on disk for good, then the updates on chain.
	var staged *gitstore.Staged
	if req.Quarantine != "" {
		refs := make([]gitstore.StagedRef, len(updates))
		for i, u := range updates {
			refs[i] = gitstore.StagedRef{Ref: u.Ref, Old: u.Old, New: u.New}
		}
		var err error
		if staged, err = gitstore.StagePush(p.repo.Path, req.Quarantine, refs); err != nil {
			s.log.ErrorContext(ctx, "stage pushed objects", "repo", p.repo.ID, "err", err)
			if staged != nil {
				staged.Drop()
			}
			return hookResponse{Message: "The node could not store the pushed objects; please try again."}
		}
	}
	crash.Point(crash.PreReceive)
	if err := s.repos.Commit(ctx, &p.user, p.repo, updates); err != nil {
		if ue, known := usererr.As(err); known && ue.Code != NotCommitted && staged != nil {
			staged.Drop() // refused: git drops the quarantine, and nothing names these objects
		}
		p.mu.Lock()
		p.keep = staged != nil // the outcome is unknown: the start decides
		p.mu.Unlock()
		return s.refusal(ctx, p, "record ref updates", err)
	}
	crash.Point(crash.ChainCommitted)
	p.mu.Lock()
	p.staged, p.committed = staged, updates
	p.mu.Unlock()
	// 3. The new objects of a public repository, for the blockstore,
	// stored once git is done with the push.
	if !p.repo.Private && s.blocks != nil {
		release, err := s.queueBlocks(ctx, p.repo, p.user.Address.Hex(), updates)
		if err != nil {
			// The push stands; the start queues what is missing.
			s.log.ErrorContext(ctx, "queue pushed objects for the blockstore", "repo", p.repo.ID, "err", err)
		}
		p.mu.Lock()
		p.release = release
		p.mu.Unlock()
	}
	return hookResponse{OK: true, Message: note}
}

// pushOptionsNote is what the pusher is told about the push's options.
// Like Gitea, a push takes any option and ignores those it does not know
// (ci.skip, say). Gitea's repo.private and repo.template act on
// push-to-create, which dForge does not have (a repository is created
// first), and a repository's visibility is fixed when it is created
// (PATCH /repos refuses to change it), so they are ignored too, but said
// to be.
func pushOptionsNote(options []string) string {
	var ignored []string
	for _, o := range options {
		key, _, _ := strings.Cut(o, "=")
		if key == "repo.private" || key == "repo.template" {
			ignored = append(ignored, key)
		}
	}
	if len(ignored) == 0 {
		return ""
	}
	return "dForge ignores the push option " + strings.Join(ignored, ", ") +
		": there is no push-to-create, and a repository's visibility is fixed when it is created."
}

// refusal is the answer to a push that is declined: a user error's
// message (a lost race worded as git words a non-fast-forward), else a
// logged failure.
func (s *Server) refusal(ctx context.Context, p *push, what string, err error) hookResponse {
	ue, ok := usererr.As(err)
	switch {
	case ok && ue.Code == StaleRef:
		// git's own words for a non-fast-forward its client detects.
		return hookResponse{Message: "! [rejected] non-fast-forward (fetch first): " + ue.Message + "\n" +
			"hint: Updates were rejected because the remote contains work that you do\n" +
			"hint: not have locally: another push reached the chain first. You may want\n" +
			"hint: to first integrate the remote changes (e.g., 'git pull ...') before\n" +
			"hint: pushing again."}
	case ok:
		return hookResponse{Message: ue.Message}
	}
	s.log.ErrorContext(ctx, what, "repo", p.repo.ID, "err", err)
	return hookResponse{Message: "The node could not record this push; please try again."}
}

// StaleRef is the code of Repos.Commit's refusal of an update whose old
// value is not the ref's current one.
const StaleRef = "stale_ref"

// NotCommitted is the code of Repos.Commit's answer when the network
// stopped committing while the updates waited for a block: they may still
// apply, so the staged objects stay until the chain decides (Settler).
const NotCommitted = "not_committed"

// settle is step 4, once receive-pack has ended: every ref the chain took
// is where the chain says (git may fail to lock a ref after the chain took
// its update), and the staging is forgotten. It reports whether the
// push's outcome is unknown, its staging kept for the chain to decide.
func (s *Server) settle(p *push) bool {
	p.mu.Lock()
	staged, committed, keep, release := p.staged, p.committed, p.keep, p.release
	p.mu.Unlock()
	if release != nil {
		defer release()
	}
	if keep || len(committed) == 0 {
		return keep
	}
	ctx := context.Background()
	var moves []gitstore.RefMove
	for _, u := range committed {
		id, found, err := gitstore.RefValue(ctx, p.repo.Path, u.Ref)
		if err != nil {
			s.log.ErrorContext(ctx, "read a pushed ref", "repo", p.repo.ID, "ref", u.Ref, "err", err)
			return false // the start puts it right
		}
		if !found {
			id = gitstore.ZeroID
		}
		// Only a ref git left at its old value: one moved since belongs
		// to a later push.
		if id == u.Old && id != u.New {
			moves = append(moves, gitstore.RefMove{Ref: u.Ref, Old: id, New: u.New})
		}
	}
	if len(moves) > 0 {
		s.log.WarnContext(ctx, "git did not move refs the chain took; moving them", "repo", p.repo.ID, "refs", moves)
		if err := gitstore.UpdateRefs(ctx, p.repo.Path, moves); err != nil {
			s.log.ErrorContext(ctx, "move pushed refs to the chain's values", "repo", p.repo.ID, "err", err)
			return false
		}
	}
	if staged != nil {
		if err := staged.Done(); err != nil {
			s.log.ErrorContext(ctx, "forget a push's staging", "repo", p.repo.ID, "err", err)
		}
	}
	return false
}

// queueBlocks queues every object the push brought for the blockstore: all
// that the new tips reach and neither the old tips nor the refs the push
// left alone do (their objects were queued when they were pushed).
func (s *Server) queueBlocks(ctx context.Context, repo repoaccess.Repo, pusher string, updates []repoaccess.RefUpdate) (release func(), err error) {
	var include, exclude []string
	pushed := map[string]bool{}
	for _, u := range updates {
		pushed[u.Ref] = true
		if !u.Deleted() {
			include = append(include, u.New)
		}
		if !u.Created() {
			exclude = append(exclude, u.Old)
		}
	}
	if len(include) == 0 {
		return nil, nil
	}
	refs, err := gitstore.Refs(ctx, repo.Path)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if !pushed[r.Name] {
			exclude = append(exclude, r.ID)
		}
	}
	id, _ := strconv.ParseUint(repo.ID, 10, 64) // not a number: no manifest is recorded
	return s.blocks.EnqueueHeld(blocks.Job{Dir: repo.Path, Include: include, Exclude: exclude, Repo: id, Pusher: pusher})
}
