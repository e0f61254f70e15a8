package gitrepos

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/usererr"
)

// A push whose record's outcome is unknown (the git server's NotCommitted: the
// network stopped committing while it waited for a block) keeps its
// objects staged, because its transaction may still commit. The git
// server reports it (Unsettled); FollowUnsettled then reconciles that
// repository each time the index's height moves, as Reconcile does at
// start, until no staging is left undecided: its refs forward if the
// chain took the push, its staged files dropped once no transaction of
// this node waits any more. The repository's push lock keeps the
// settling and its pushes apart.

// pushLocks are the push locks of the repositories in use.
type pushLocks struct {
	mu sync.Mutex
	m  map[uint64]*pushLock
}

type pushLock struct {
	sync.RWMutex
	users int
}

// hold takes repository id's lock, shared or alone, and returns its
// release.
func (l *pushLocks) hold(id uint64, alone bool) func() {
	l.mu.Lock()
	pl := l.m[id]
	if pl == nil {
		pl = &pushLock{}
		l.m[id] = pl
	}
	pl.users++
	l.mu.Unlock()
	if alone {
		pl.Lock()
	} else {
		pl.RLock()
	}
	return func() {
		if alone {
			pl.Unlock()
		} else {
			pl.RUnlock()
		}
		l.mu.Lock()
		if pl.users--; pl.users == 0 {
			delete(l.m, id)
		}
		l.mu.Unlock()
	}
}

// unsettled are the repositories with a push whose outcome is unknown.
type unsettled struct {
	mu    sync.Mutex
	ids   map[uint64]bool
	added chan struct{}
}

func (u *unsettled) list() []uint64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]uint64, 0, len(u.ids))
	for id := range u.ids {
		out = append(out, id)
	}
	return out
}

// LockPush holds r's push lock, shared with its other pushes, until the
// returned release (the git server's Settler).
func (h *Repos) LockPush(r repoaccess.Repo) func() {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil {
		return func() {}
	}
	return h.pushes.hold(id, false)
}

// Unsettled remembers r for FollowUnsettled (the git server's Settler).
func (h *Repos) Unsettled(r repoaccess.Repo) {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil {
		return
	}
	h.log.Info("a push's outcome is unknown: its objects stay staged until the chain decides", "repo", id)
	h.unsettled.mu.Lock()
	h.unsettled.ids[id] = true
	h.unsettled.mu.Unlock()
	select {
	case h.unsettled.added <- struct{}{}:
	default:
	}
}

// FollowUnsettled settles the repositories Unsettled names, at once and
// then each time the index's height moves, until ctx ends. A repository
// is forgotten once nothing of it waits for the chain; a restart forgets
// them all, and Reconcile settles them instead.
func (h *Repos) FollowUnsettled(ctx context.Context) {
	ix := h.forge.Index()
	for ctx.Err() == nil {
		ids := h.unsettled.list()
		if len(ids) == 0 {
			select {
			case <-ctx.Done():
			case <-h.unsettled.added:
			}
			continue
		}
		height := ix.Height()
		for _, id := range ids {
			settled, err := h.settleUnsettled(ctx, id)
			if err != nil {
				h.log.WarnContext(ctx, "settle a push whose outcome was unknown", "repo", id, "err", err)
				continue
			}
			if settled {
				h.unsettled.mu.Lock()
				delete(h.unsettled.ids, id)
				h.unsettled.mu.Unlock()
			}
		}
		if err := ix.WaitFor(ctx, height+1); err != nil {
			// A stalled index answers at once; do not spin on it.
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

// settleUnsettled reconciles repository id with the chain, alone (its
// push lock), and reports whether no staging of it waits any more.
func (h *Repos) settleUnsettled(ctx context.Context, id uint64) (bool, error) {
	release := h.pushes.hold(id, true)
	defer release()
	r, err := h.forge.Index().RepoByID(ctx, id)
	if _, gone := usererr.As(err); gone {
		return true, nil // deleted: its git data went with it
	}
	if err != nil {
		return false, fmt.Errorf("read repository %d: %w", id, err)
	}
	dir, err := h.Dir(r)
	if err != nil {
		return false, err
	}
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		return true, nil
	}
	waiting, err := h.forge.Relaying()
	if err != nil {
		return false, fmt.Errorf("read the relayed actions: %w", err)
	}
	kept, err := h.follow(ctx, id, dir, false, r.Private || !waiting)
	if err != nil {
		return false, fmt.Errorf("follow the chain: %w", err)
	}
	return kept == 0, nil
}
