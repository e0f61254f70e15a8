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
	"strings"
	"sync"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// The hooks of a push call back into the node over HTTP on loopback: the
// git server starts receive-pack with the endpoint's URL and a one-time
// token for this push in its environment (DFORGE_HOOK_URL,
// DFORGE_HOOK_TOKEN), the hooks inherit them, and the token tells the node
// which user pushes to which repository. A token is good for one
// pre-receive and one post-receive call, and only while its receive-pack
// runs.

// push is one receive-pack run.
type push struct {
	user auth.User
	repo Repo
	mu   sync.Mutex
	used map[string]bool // hook names already called
}

// hookRequest is what `dforge hook` sends; hookResponse what it gets back.
type hookRequest struct {
	Updates []RefUpdate `json:"updates"`
}

type hookResponse struct {
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"`
}

// startPush opens a push session for user on repo and returns its token
// and the function that ends it.
func (s *Server) startPush(user auth.User, repo Repo) (string, func(), error) {
	s.hooks.once.Do(func() { s.hooks.err = s.listenHooks() })
	if s.hooks.err != nil {
		return "", nil, s.hooks.err
	}
	b := make([]byte, 32)
	rand.Read(b)
	token := hex.EncodeToString(b)
	s.hooks.mu.Lock()
	s.hooks.pushes[token] = &push{user: user, repo: repo, used: map[string]bool{}}
	s.hooks.mu.Unlock()
	return token, func() {
		s.hooks.mu.Lock()
		delete(s.hooks.pushes, token)
		s.hooks.mu.Unlock()
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
	mux.HandleFunc("POST /"+gitstore.PostReceive, s.hookHandler(gitstore.PostReceive, s.postReceive))
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
func (s *Server) hookHandler(hook string, handle func(context.Context, *push, []RefUpdate) hookResponse) http.HandlerFunc {
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
		json.NewEncoder(w).Encode(handle(r.Context(), p, req.Updates))
	}
}

// preReceive asks Repos about every update; one refusal rejects the push.
func (s *Server) preReceive(ctx context.Context, p *push, updates []RefUpdate) hookResponse {
	for _, u := range updates {
		if err := s.repos.CheckUpdate(ctx, &p.user, p.repo, u); err != nil {
			if ue, ok := usererr.As(err); ok {
				return hookResponse{Message: ue.Message}
			}
			s.log.ErrorContext(ctx, "check ref update", "repo", p.repo.ID, "ref", u.Ref, "err", err)
			return hookResponse{Message: "The node could not check this push; please try again."}
		}
	}
	return hookResponse{OK: true}
}

// postReceive queues the new objects of a public repository for the
// blockstore, then records the push. The objects are stored after the push
// returns (blocks/queue.go): copying them would double a large push's time.
func (s *Server) postReceive(ctx context.Context, p *push, updates []RefUpdate) hookResponse {
	if !p.repo.Private && s.blocks != nil {
		if err := s.queueBlocks(ctx, p.repo, updates); err != nil {
			s.log.ErrorContext(ctx, "queue pushed objects for the blockstore", "repo", p.repo.ID, "err", err)
			return hookResponse{Message: "The push was received, but its objects could not be queued for storage as IPFS blocks; the node operator has been told."}
		}
	}
	if err := s.repos.Pushed(ctx, &p.user, p.repo, updates); err != nil {
		if ue, ok := usererr.As(err); ok {
			return hookResponse{Message: ue.Message}
		}
		s.log.ErrorContext(ctx, "record push", "repo", p.repo.ID, "err", err)
		return hookResponse{Message: "The push was received, but the node could not record it; the node operator has been told."}
	}
	return hookResponse{OK: true}
}

// queueBlocks queues every object the push brought for the blockstore: all
// that the new tips reach and neither the old tips nor the refs the push
// left alone do (their objects were queued when they were pushed).
func (s *Server) queueBlocks(ctx context.Context, repo Repo, updates []RefUpdate) error {
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
		return nil
	}
	refs, err := gitstore.Refs(ctx, repo.Path)
	if err != nil {
		return err
	}
	for _, r := range refs {
		if !pushed[r.Name] {
			exclude = append(exclude, r.ID)
		}
	}
	return s.blocks.Enqueue(blocks.Job{Dir: repo.Path, Include: include, Exclude: exclude})
}
