// Package lfslock owns Git LFS file locks (git-lfs docs/api/locking.md):
// a person who may push to a repository locks a path so that others know
// not to change it; git-lfs's pre-push hook refuses to push changes to a
// path someone else holds. Locks are node-local state (SQL, migration
// 00070), as the repository's LFS endpoint is this node's.
//
// Who may reach a repository at all (read to list, write for the rest) is
// the git server's check, the same as for LFS objects; this package
// decides what only a lock's rules decide: a path is held by one person,
// and only they, or a repository admin who forces it, release it.
package lfslock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Stable codes of the refusals.
const (
	CodeLocked      = "lock_exists"   // 409: the path is locked already
	CodeNotOwner    = "lock_not_ours" // 403: someone else's lock, not forced
	CodeInvalidPath = "invalid_path"  // 422
	CodePushLocked  = "path_locked"   // a push changing someone else's locked path
)

// Limits of a page of locks and of a path.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
	MaxPath      = 4096
)

// Lock is one lock as the API shows it.
type Lock struct {
	ID       int64
	Path     string
	LockedAt time.Time
	Owner    string // the name shown
	Address  string // the holder's address, lower-case hex
}

// Service keeps locks in the store.
type Service struct {
	store *store.Store
	now   func() time.Time
}

// New returns the lock service over st.
func New(st *store.Store) *Service {
	return &Service{store: st, now: time.Now}
}

// Filter selects locks to list: by path or id, from Cursor on, at most
// Limit (0: DefaultLimit).
type Filter struct {
	Path   string
	ID     string
	Cursor string
	Limit  int
}

// Create locks path of repo for user. When the path is locked already it
// returns the lock held and a Conflict error (CodeLocked).
func (s *Service) Create(ctx context.Context, repo repoaccess.Repo, user *auth.User, path string) (Lock, error) {
	if err := checkPath(path); err != nil {
		return Lock{}, err
	}
	l, err := s.store.AddLFSLock(ctx, store.LFSLock{
		RepoID: repo.ID, Path: path, OwnerAddress: addressOf(user), OwnerName: nameOf(user), LockedAt: s.now().UTC(),
	})
	if errors.Is(err, store.ErrDuplicate) {
		return lockOf(l), usererr.Clashf(CodeLocked, "%s is locked already.", path)
	}
	if err != nil {
		return Lock{}, fmt.Errorf("create lock: %w", err)
	}
	return lockOf(l), nil
}

// List is a page of repo's locks and the cursor of the next page ("": the
// last page).
func (s *Service) List(ctx context.Context, repo repoaccess.Repo, f Filter) ([]Lock, string, error) {
	limit, err := checkLimit(f.Limit)
	if err != nil {
		return nil, "", err
	}
	sf := store.LFSLockFilter{RepoID: repo.ID, Path: f.Path, Limit: limit + 1}
	if f.ID != "" {
		if sf.ID, err = parseID(f.ID); err != nil {
			return []Lock{}, "", nil // no lock has that id
		}
	}
	if f.Cursor != "" {
		if sf.After, err = parseID(f.Cursor); err != nil {
			return nil, "", usererr.BadFieldf("cursor", "The cursor %q is not one this node gave.", f.Cursor)
		}
	}
	rows, err := s.store.LFSLocks(ctx, sf)
	if err != nil {
		return nil, "", fmt.Errorf("list locks: %w", err)
	}
	next := ""
	if len(rows) > limit {
		next = fmt.Sprint(rows[limit].ID)
		rows = rows[:limit]
	}
	out := make([]Lock, len(rows))
	for i, r := range rows {
		out[i] = lockOf(r)
	}
	return out, next, nil
}

// Verify is a page of repo's locks split into user's and everyone
// else's, for git-lfs's check before a push.
func (s *Service) Verify(ctx context.Context, repo repoaccess.Repo, user *auth.User, cursor string, limit int) (ours, theirs []Lock, next string, err error) {
	page, next, err := s.List(ctx, repo, Filter{Cursor: cursor, Limit: limit})
	if err != nil {
		return nil, nil, "", err
	}
	ours, theirs = []Lock{}, []Lock{}
	for _, l := range page {
		if l.Address == addressOf(user) {
			ours = append(ours, l)
		} else {
			theirs = append(theirs, l)
		}
	}
	return ours, theirs, next, nil
}

// HeldByOthers are repo's locks held by anyone but user, by path.
func (s *Service) HeldByOthers(ctx context.Context, repo repoaccess.Repo, user *auth.User) (map[string]Lock, error) {
	out := map[string]Lock{}
	for after := int64(0); ; {
		rows, err := s.store.LFSLocks(ctx, store.LFSLockFilter{RepoID: repo.ID, After: after, Limit: MaxLimit})
		if err != nil {
			return nil, fmt.Errorf("list locks: %w", err)
		}
		for _, r := range rows {
			if r.OwnerAddress != addressOf(user) {
				out[r.Path] = lockOf(r)
			}
		}
		if len(rows) < MaxLimit {
			return out, nil
		}
		after = rows[len(rows)-1].ID + 1
	}
}

// Refusal is why a push that changes locked's path is refused.
func Refusal(locked Lock) error {
	return usererr.New(usererr.Forbidden, CodePushLocked, fmt.Sprintf("%s is locked by %s: they may unlock it (git lfs unlock), or an admin of the repository with --force.", locked.Path, locked.Owner))
}

// Unlock releases lock id of repo for user, whose access there is level.
// Someone else's lock needs force, and force needs a repository admin.
func (s *Service) Unlock(ctx context.Context, repo repoaccess.Repo, user *auth.User, level repoaccess.Level, id string, force bool) (Lock, error) {
	n, err := parseID(id)
	if err != nil {
		return Lock{}, usererr.Missingf("There is no lock %s.", id)
	}
	row, ok, err := s.store.LFSLock(ctx, repo.ID, n)
	if err != nil {
		return Lock{}, fmt.Errorf("unlock: %w", err)
	}
	if !ok {
		return Lock{}, usererr.Missingf("There is no lock %s.", id)
	}
	l := lockOf(row)
	if l.Address != addressOf(user) {
		switch {
		case !force:
			return Lock{}, usererr.New(usererr.Forbidden, CodeNotOwner, fmt.Sprintf("%s is locked by %s; only they may unlock it, or an admin of the repository with --force.", l.Path, l.Owner))
		case level < repoaccess.Admin:
			return Lock{}, usererr.New(usererr.Forbidden, CodeNotOwner, fmt.Sprintf("%s is locked by %s; only an admin of the repository may force the unlock.", l.Path, l.Owner))
		}
	}
	if _, err := s.store.DeleteLFSLock(ctx, repo.ID, n); err != nil {
		return Lock{}, fmt.Errorf("unlock: %w", err)
	}
	return l, nil
}

// checkPath takes a path as git-lfs sends it: relative to the work tree's
// root, with forward slashes.
func checkPath(p string) error {
	switch {
	case p == "":
		return usererr.Unprocessablef("path", CodeInvalidPath, "Name the path to lock.")
	case len(p) > MaxPath || !utf8.ValidString(p) || strings.ContainsRune(p, 0) || strings.HasPrefix(p, "/"):
		return usererr.Unprocessablef("path", CodeInvalidPath, "The path must be a file's path in the repository, relative to its root, of at most %d bytes.", MaxPath)
	}
	return nil
}

func checkLimit(limit int) (int, error) {
	switch {
	case limit == 0:
		return DefaultLimit, nil
	case limit < 0 || limit > MaxLimit:
		return 0, usererr.BadFieldf("limit", "The limit must be from 1 to %d.", MaxLimit)
	}
	return limit, nil
}

func parseID(s string) (int64, error) {
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 || fmt.Sprint(n) != s {
		return 0, errors.New("not an id")
	}
	return n, nil
}

func lockOf(l store.LFSLock) Lock {
	return Lock{ID: l.ID, Path: l.Path, LockedAt: l.LockedAt, Owner: l.OwnerName, Address: l.OwnerAddress}
}

func addressOf(u *auth.User) string { return strings.ToLower(u.Address.Hex()) }

// nameOf is the name a lock shows: the username, else the address.
func nameOf(u *auth.User) string {
	if u.Username != "" {
		return u.Username
	}
	return u.Address.Hex()
}
