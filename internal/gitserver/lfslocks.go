package gitserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/lfslock"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/usererr"
)

// The Git LFS locking API (git-lfs docs/api/locking.md) on the
// repository's LFS endpoint, {repo}.git/info/lfs:
//
//	POST locks               lock a path (201; 409 with the lock held)
//	GET  locks               list (path, id, cursor, limit)
//	POST locks/verify        the locks a push must respect: ours, theirs
//	POST locks/{id}/unlock   release (force: someone else's, admins only)
//
// Requests authenticate as the batch API's do; listing needs read, the
// rest write, so a read-only token gets 403 and a repository one may not
// read is 404 (anonymous: 401). The rules of a lock are lfslock's.

type lfsLockOwner struct {
	Name string `json:"name"`
}

type lfsLockJSON struct {
	ID       string       `json:"id"`
	Path     string       `json:"path"`
	LockedAt string       `json:"locked_at"`
	Owner    lfsLockOwner `json:"owner"`
}

type lfsRef struct {
	Name string `json:"name"`
}

func lockJSON(l lfslock.Lock) lfsLockJSON {
	return lfsLockJSON{ID: strconv.FormatInt(l.ID, 10), Path: l.Path, LockedAt: l.LockedAt.Format(time.RFC3339), Owner: lfsLockOwner{Name: l.Owner}}
}

func locksJSON(list []lfslock.Lock) []lfsLockJSON {
	out := make([]lfsLockJSON, len(list))
	for i, l := range list {
		out[i] = lockJSON(l)
	}
	return out
}

// serveLocks answers a request of the locking API.
func (s *Server) serveLocks(w http.ResponseWriter, r *http.Request, req lfsRequest) {
	if s.locks == nil {
		lfsError(w, http.StatusNotImplemented, "This node keeps no Git LFS locks.")
		return
	}
	list := req.action == "locks" && r.Method == http.MethodGet
	if !list && r.Method != http.MethodPost {
		allow := "POST"
		if req.action == "locks" {
			allow = "GET, POST"
		}
		w.Header().Set("Allow", allow)
		lfsError(w, http.StatusMethodNotAllowed, "Method not allowed here.")
		return
	}
	repo, user, ok := s.authorize(w, r, request{owner: req.owner, name: req.name}, !list)
	if !ok {
		return
	}
	ctx := r.Context()
	switch {
	case list:
		q := r.URL.Query()
		limit := 0
		if v := q.Get("limit"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				lfsError(w, http.StatusUnprocessableEntity, "The limit must be a number.")
				return
			}
			limit = n
		}
		locks, next, err := s.locks.List(ctx, repo, lfslock.Filter{Path: q.Get("path"), ID: q.Get("id"), Cursor: q.Get("cursor"), Limit: limit})
		if err != nil {
			s.lfsFailed(w, r, repo, err)
			return
		}
		writeLFS(w, http.StatusOK, map[string]any{"locks": locksJSON(locks), "next_cursor": next})

	case req.action == "locks":
		var in struct {
			Path string `json:"path"`
			Ref  lfsRef `json:"ref"`
		}
		if !decodeLFS(w, r, &in, false) {
			return
		}
		l, err := s.locks.Create(ctx, repo, user, in.Path)
		if ue, ok := usererr.As(err); ok && ue.Code == lfslock.CodeLocked {
			writeLFS(w, http.StatusConflict, map[string]any{"lock": lockJSON(l), "message": ue.Message})
			return
		}
		if err != nil {
			s.lfsFailed(w, r, repo, err)
			return
		}
		writeLFS(w, http.StatusCreated, map[string]any{"lock": lockJSON(l)})

	case req.action == "locks/verify":
		var in struct {
			Cursor string `json:"cursor"`
			Limit  int    `json:"limit"`
			Ref    lfsRef `json:"ref"`
		}
		if !decodeLFS(w, r, &in, true) {
			return
		}
		ours, theirs, next, err := s.locks.Verify(ctx, repo, user, in.Cursor, in.Limit)
		if err != nil {
			s.lfsFailed(w, r, repo, err)
			return
		}
		writeLFS(w, http.StatusOK, map[string]any{"ours": locksJSON(ours), "theirs": locksJSON(theirs), "next_cursor": next})

	default: // unlock
		var in struct {
			Force bool   `json:"force"`
			Ref   lfsRef `json:"ref"`
		}
		if !decodeLFS(w, r, &in, true) {
			return
		}
		level := repoaccess.Write
		if in.Force {
			level = s.repos.AccessLevel(ctx, user, repo)
		}
		l, err := s.locks.Unlock(ctx, repo, user, level, req.lockID, in.Force)
		if err != nil {
			s.lfsFailed(w, r, repo, err)
			return
		}
		writeLFS(w, http.StatusOK, map[string]any{"lock": lockJSON(l)})
	}
}

// decodeLFS reads the request's JSON body into v, answering 422 when it
// is not JSON; an empty body is {} when empty is true.
func decodeLFS(w http.ResponseWriter, r *http.Request, v any, empty bool) bool {
	err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(v)
	if err == nil || empty && errors.Is(err, io.EOF) {
		return true
	}
	lfsError(w, http.StatusUnprocessableEntity, "The request is not JSON: "+err.Error())
	return false
}

// checkLocks refuses a push whose new commits change a path someone else
// holds a lock on. git-lfs's pre-push hook makes the same check on the
// client; this one also holds for a client that skips it (git push
// --no-verify, or no git-lfs at all). It costs nothing while nobody else
// holds a lock in the repository.
func (s *Server) checkLocks(ctx context.Context, p *push, req hookRequest) error {
	if s.locks == nil {
		return nil
	}
	theirs, err := s.locks.HeldByOthers(ctx, p.repo, &p.user)
	if err != nil || len(theirs) == 0 {
		return err
	}
	// The paths the commits new to the repository change (a merge's own
	// changes are its parents').
	args := []string{"log", "--format=", "--name-only", "-z", "--no-renames"}
	tips := 0
	for _, u := range req.Updates {
		if !u.Deleted() {
			args = append(args, u.New)
			tips++
		}
	}
	if tips == 0 {
		return nil
	}
	cmd := gitstore.Command(ctx, p.repo.Path, append(args, "--not", "--all", "--")...)
	if req.Quarantine != "" {
		cmd.Env = append(cmd.Env, "GIT_OBJECT_DIRECTORY="+req.Quarantine, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+filepath.Join(p.repo.Path, "objects"))
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("list the pushed paths: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("list the pushed paths: %w", err)
	}
	var refused error
	rd := bufio.NewReader(out)
	for refused == nil {
		path, err := rd.ReadString(0)
		if l, held := theirs[strings.TrimPrefix(strings.TrimSuffix(path, "\x00"), "\n")]; held {
			refused = lfslock.Refusal(l)
			cmd.Process.Kill() // the rest need not be read
		}
		if err != nil {
			break
		}
	}
	if err := cmd.Wait(); refused == nil && err != nil {
		return fmt.Errorf("list the pushed paths: %w", err)
	}
	return refused
}
