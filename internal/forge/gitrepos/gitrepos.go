// Package gitrepos joins the forge's repositories to their git data: it is
// the git server's view of the forge (the repositories a path names, the
// access level of a person in one, protected branches, ref updates
// recorded as repo.push actions, all in repoaccess's terms, so the forge
// never imports the transport) and
// the flows that change both at once (create, fork, delete, transfer, a new
// default branch), so the forge record and the bare repository on disk
// never drift apart through the API.
//
// Git data is at gitstore's <root>/<owner address>/<id>.git. A transfer
// changes the owner, so the directory moves with it: Dir finds a
// repository wherever its id is and renames it under its current owner.
// Keying by id alone would have spared the move but broken the layout the
// git store, its tests and operators already rely on; a rename within one
// filesystem is atomic, and because Dir heals a move that a crash left
// undone, the chain can never point at a directory that is not found.
package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/privfiles"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// ErrGitData marks a failure to make or change a repository's git data
// after its forge record was written: the node's fault, never the user's.
var ErrGitData = errors.New("the repository's git data could not be written on this node")

// Repos is the forge's repositories with their git data.
type Repos struct {
	forge  *forge.Service
	git    *gitstore.Store
	blocks *blocks.Store // nil: no IPFS blocks are stored
	users  Users         // nil: owners resolve through the index alone
	// files keeps private repositories' assets and LFS objects (nil: none
	// are taken); filesMu orders recording one against removing its file.
	files   *privfiles.Store
	filesMu *sync.Mutex
	// drafts keeps draft releases until published (nil: none are taken).
	drafts *store.Store
	log    *slog.Logger
	moveMu *sync.Mutex // one directory move at a time
	// pushes are the repositories' push locks; unsettled the pushes whose
	// outcome waits for the chain (FollowUnsettled).
	pushes    *pushLocks
	unsettled *unsettled
}

// Users finds the people who signed in on this node (auth.Service). The
// index knows only the accounts the chain has touched, so someone whose
// only forge actions are private has a default name only this node knows.
type Users interface {
	UserByName(ctx context.Context, username string) (auth.User, error)
}

// New returns the bridge; bs may be nil.
func New(f *forge.Service, g *gitstore.Store, bs *blocks.Store, log *slog.Logger) *Repos {
	if log == nil {
		log = slog.Default()
	}
	return &Repos{forge: f, git: g, blocks: bs, log: log.With("component", "gitrepos"), moveMu: &sync.Mutex{}, filesMu: &sync.Mutex{},
		pushes: &pushLocks{m: map[uint64]*pushLock{}}, unsettled: &unsettled{ids: map[uint64]bool{}, added: make(chan struct{}, 1)}}
}

// WithUsers returns the bridge resolving owners through u as well.
func (h *Repos) WithUsers(u Users) *Repos {
	c := *h
	c.users = u
	return &c
}

// WithPrivateFiles returns the bridge keeping private repositories' release
// assets and LFS objects in fs, on this node only.
func (h *Repos) WithPrivateFiles(fs *privfiles.Store) *Repos {
	c := *h
	c.files = fs
	return &c
}

// Owner resolves an owner as a URL names it: a username the chain knows
// (claimed or default), the default name of someone who signed in here,
// or an address. Unknown owners are a not-found user error.
func (h *Repos) Owner(ctx context.Context, name string) (common.Address, error) {
	addr, err := h.forge.Owner(ctx, name)
	if _, notFound := usererr.As(err); !notFound || h.users == nil {
		return addr, err
	}
	if u, uerr := h.users.UserByName(ctx, name); uerr == nil {
		return u.Address, nil
	}
	return addr, err
}

// Repo finds owner/name as viewer sees it (forge.Service.Repo, with owners
// resolved by Owner).
func (h *Repos) Repo(ctx context.Context, viewer common.Address, owner, name string) (index.Repo, forge.Perm, error) {
	addr, err := h.Owner(ctx, owner)
	if err != nil {
		return index.Repo{}, forge.PermNone, usererr.Missingf("repository %s/%s does not exist", owner, name)
	}
	return h.forge.Repo(ctx, viewer, addr.Hex(), name)
}

// Forge is the forge service the bridge works through.
func (h *Repos) Forge() *forge.Service { return h.forge }

func ownerDir(addr string) string { return strings.ToLower(addr) }

func repoID(id uint64) string { return strconv.FormatUint(id, 10) }

// Dir is where r's bare repository is. It is under r's current owner; a
// repository left under a former owner (a transfer) is moved there first.
// The directory may not exist: a repository created on another node has no
// git data here.
func (h *Repos) Dir(r index.Repo) (string, error) {
	dir, _, err := h.locate(r)
	return dir, err
}

// locate is Dir, and whether r's git data is there (its HEAD), found with
// one stat when it is: a list shows many repositories.
func (h *Repos) locate(r index.Repo) (dir string, hasGit bool, err error) {
	want, err := h.git.Path(ownerDir(r.Owner.Address), repoID(r.ID))
	if err != nil {
		return "", false, fmt.Errorf("locate repository %d: %w", r.ID, err)
	}
	head := filepath.Join(want, "HEAD")
	if _, err := os.Stat(head); err == nil {
		return want, true, nil
	}
	if err := h.relocate(r, want); err != nil {
		return want, false, err
	}
	_, err = os.Stat(head)
	return want, err == nil, nil
}

// relocate moves r's directory from a former owner's folder to want.
func (h *Repos) relocate(r index.Repo, want string) error {
	h.moveMu.Lock()
	defer h.moveMu.Unlock()
	if _, err := os.Stat(filepath.Join(want, "HEAD")); err == nil {
		return nil // moved while we waited
	}
	found, err := filepath.Glob(filepath.Join(h.git.Root(), "*", repoID(r.ID)+".git"))
	if err != nil || len(found) == 0 {
		return nil // no git data here
	}
	if err := os.MkdirAll(filepath.Dir(want), 0o755); err != nil {
		return fmt.Errorf("move repository %d to its owner: %w", r.ID, err)
	}
	h.settleBlocks(r)
	if err := os.Rename(found[0], want); err != nil {
		return fmt.Errorf("move repository %d to its owner: %w", r.ID, err)
	}
	if h.blocks != nil {
		// The blockstore reads the repository's public objects from its
		// directory; a failure only costs their blocks until a push.
		if err := h.blocks.MoveRepository(found[0], want); err != nil {
			h.log.Error("move a repository in the blockstore's index", "repo", r.ID, "err", err)
		}
	}
	h.log.Info("moved repository to its new owner", "repo", r.ID, "from", found[0], "to", want)
	return nil
}

// HasGit reports whether r's git data is on this node.
func (h *Repos) HasGit(r index.Repo) bool {
	_, ok := h.GitDir(r)
	return ok
}

// GitDir is Dir when r's git data is on this node (ok).
func (h *Repos) GitDir(r index.Repo) (dir string, ok bool) {
	dir, hasGit, err := h.locate(r)
	return dir, hasGit && err == nil
}

// --- the git server's view (gitserver.Repos) ---

// Resolve finds owner/name: owner is a username (claimed or default) or an
// address. Whether the caller may see it is AccessLevel's question.
func (h *Repos) Resolve(ctx context.Context, owner, name string) (repoaccess.Repo, bool, error) {
	addr, err := h.Owner(ctx, owner)
	if _, ok := usererr.As(err); ok {
		return repoaccess.Repo{}, false, nil
	} else if err != nil {
		return repoaccess.Repo{}, false, fmt.Errorf("resolve owner %s: %w", owner, err)
	}
	r, err := h.forge.Index().RepoByName(ctx, addr, name)
	if _, ok := usererr.As(err); ok {
		return repoaccess.Repo{}, false, nil
	} else if err != nil {
		return repoaccess.Repo{}, false, fmt.Errorf("find repository %s/%s: %w", owner, name, err)
	}
	dir, err := h.Dir(r)
	if err != nil {
		return repoaccess.Repo{}, false, fmt.Errorf("locate repository %s/%s: %w", owner, name, err)
	}
	return repoaccess.Repo{
		ID: repoID(r.ID), Owner: r.Owner.Username, Name: r.Name, Path: dir, Private: r.Private, DefaultBranch: r.DefaultBranch,
	}, true, nil
}

// record reads the forge's current record of a resolved repository: the
// push may have begun before a change of permissions or branches.
func (h *Repos) record(ctx context.Context, r repoaccess.Repo) (index.Repo, error) {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil {
		return index.Repo{}, fmt.Errorf("repository id %q: %w", r.ID, err)
	}
	return h.forge.Index().RepoByID(ctx, id)
}

// AccessLevel is what u (nil: anonymous) may do in r, from the forge's
// current record: the owner is admin; collaborators with write or
// maintain may push, with read may fetch; anyone reads a public
// repository. A failure to read the record or the permission gives no
// access.
func (h *Repos) AccessLevel(ctx context.Context, u *auth.User, r repoaccess.Repo) repoaccess.Level {
	rec, err := h.record(ctx, r)
	if err != nil {
		return repoaccess.None
	}
	var who common.Address
	if u != nil {
		who = u.Address
	}
	p, err := h.forge.Permission(ctx, rec, who)
	if err != nil {
		h.log.ErrorContext(ctx, "read permission", "repo", r.ID, "err", err)
		return repoaccess.None
	}
	return Level(p, u != nil)
}

// Level maps a forge permission onto an access level. Only a signed-in
// person pushes, whatever the permission of the zero address.
func Level(p forge.Perm, signedIn bool) repoaccess.Level {
	switch {
	case p >= forge.PermOwner && signedIn:
		return repoaccess.Admin
	case p >= forge.PermWrite && signedIn:
		return repoaccess.Write
	case p >= forge.PermRead:
		return repoaccess.Read
	}
	return repoaccess.None
}

// CheckUpdate refuses, before git applies a push, what the forge module
// would refuse afterwards (the chain checks again, but by then git has
// moved the ref): deleting or force-pushing a protected branch, pushing to
// a branch whose protection rule disables pushing or keeps it to a
// whitelist, and ref names the module does not take.
func (h *Repos) CheckUpdate(ctx context.Context, u *auth.User, r repoaccess.Repo, up repoaccess.RefUpdate) error {
	rec, err := h.record(ctx, r)
	if err != nil {
		return fmt.Errorf("read repository %s: %w", r.ID, err)
	}
	if err := checkRef(up.Ref); err != nil {
		return err
	}
	if !Replicated(up.Ref) {
		return usererr.Deniedf("ref %s is refused: refs/pull/ and refs/dforge/ are kept by the node", up.Ref)
	}
	if err := h.checkClash(ctx, rec, up); err != nil {
		return err
	}
	branch, ok := strings.CutPrefix(up.Ref, "refs/heads/")
	if !ok {
		return nil
	}
	rule, ruled, err := h.forge.Index().RuleFor(ctx, rec.ID, branch)
	if err != nil {
		return fmt.Errorf("read the protection of %s: %w", branch, err)
	}
	if !ruled && !isProtected(rec, branch) {
		return nil
	}
	switch {
	case up.Deleted():
		return protectedErr("Branch %s is protected: it cannot be deleted.", branch)
	case up.Forced && !up.Created():
		return protectedErr("Branch %s is protected: force-pushes are refused. Pull, merge or rebase onto it, and push again.", branch)
	case ruled && !rule.EnablePush:
		return protectedErr("Branch %s is protected: pushing to it is disabled. Push another branch and open a pull request.", branch)
	case ruled && len(rule.PushWhitelist) > 0 && (u == nil || !rule.Whitelisted(u.Address)):
		return protectedErr("Branch %s is protected: you are not on its push whitelist.", branch)
	}
	return nil
}

// checkClash refuses a new ref that an existing one's name rules out
// (refs/heads/a beside refs/heads/a/b), which git would refuse only after
// the chain had recorded it.
func (h *Repos) checkClash(ctx context.Context, r index.Repo, up repoaccess.RefUpdate) error {
	if !up.Created() || !h.HasGit(r) {
		return nil
	}
	dir, err := h.Dir(r)
	if err != nil {
		return err
	}
	clash, err := gitstore.RefClash(ctx, dir, up.Ref)
	if err != nil {
		return err
	}
	if clash != "" {
		return usererr.Newf(usererr.Conflict, "ref_clash", "ref %s is refused: %s exists, and git cannot keep both names", up.Ref, clash)
	}
	return nil
}

func isProtected(r index.Repo, branch string) bool {
	for _, b := range r.ProtectedBranches {
		if b == branch {
			return true
		}
	}
	return false
}

func protectedErr(format string, args ...any) error {
	return usererr.Newf(usererr.Forbidden, "protected_branch", format, args...)
}

// checkRef applies the forge module's ref rules (git's own are mostly
// stricter): a full name under refs/ of at most MaxRef bytes.
func checkRef(ref string) error {
	rest, ok := strings.CutPrefix(ref, "refs/")
	if !ok || len(ref) > chainforge.MaxRef {
		return usererr.Newf(usererr.Unprocessable, usererr.CodeInvalidField, "ref %s is refused: refs are names under refs/ of at most %d bytes", ref, chainforge.MaxRef)
	}
	if err := chainforge.ValidateRefName("ref", rest); err != nil {
		return usererr.New(usererr.Unprocessable, usererr.CodeInvalidField, "ref "+ref+" is refused: "+err.Error())
	}
	return nil
}

// Commit records a push's ref updates as one repo.push action, before git
// moves the refs: on chain for a public repository (the chain orders
// pushes across nodes: each update applies only from the ref's value
// there), in the private store for a private one. The objects are
// reachable in the repository already (staged by the git server), so the
// commits a push brings to the default branch can be listed for rewards.
func (h *Repos) Commit(ctx context.Context, u *auth.User, r repoaccess.Repo, updates []repoaccess.RefUpdate) error {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil {
		return fmt.Errorf("repository id %q: %w", r.ID, err)
	}
	rec, err := h.record(ctx, r)
	if err != nil {
		return fmt.Errorf("read repository %s: %w", r.ID, err)
	}
	push := chainforge.RepoPush{Repo: id}
	for _, up := range updates {
		if up.Old == up.New {
			continue
		}
		push.Updates = append(push.Updates, chainforge.RefChange{Ref: up.Ref, Old: up.Old, New: up.New, Forced: up.Forced})
		if !rec.Private && up.Ref == "refs/heads/"+rec.DefaultBranch && !up.Deleted() {
			push.Commits = h.accountCommits(ctx, r.Path, up)
		}
	}
	return h.recordRefs(ctx, u.Address, push, "refs/heads/"+rec.DefaultBranch)
}

// recordRefs applies push, split into actions of at most MaxPushRefs
// updates (so a push of more refs is atomic per part), the commits going
// with the default branch's update. A committed action whose index is
// stalled is recorded all the same.
func (h *Repos) recordRefs(ctx context.Context, actor common.Address, push chainforge.RepoPush, defaultRef string) error {
	all := push.Updates
	for len(all) > 0 {
		part := push
		part.Updates, all = all[:min(len(all), chainforge.MaxPushRefs)], all[min(len(all), chainforge.MaxPushRefs):]
		if !slices.ContainsFunc(part.Updates, func(u chainforge.RefChange) bool { return u.Ref == defaultRef }) {
			part.Commits = nil
		}
		if _, err := h.forge.Do(ctx, actor, part); err != nil {
			if ue, ok := usererr.As(err); ok && ue.Code == "index_stalled" {
				continue // on chain: the index shows it once it catches up
			}
			return fmt.Errorf("record the push: %w", err)
		}
	}
	return nil
}

// accountCommits lists the commits an update brings to the default branch
// whose author email names a dForge account: an address as its local part
// (0xabc...@users.dforge, the form the node suggests). Profile emails are
// private to the node, so they never link a commit to an account on chain.
// A failure to list costs the rewards, never the push.
func (h *Repos) accountCommits(ctx context.Context, dir string, up repoaccess.RefUpdate) []chainforge.PushCommit {
	list, err := gitstore.CommitAuthors(ctx, dir, up.Old, up.New, chainforge.MaxPushCommits)
	if err != nil {
		h.log.WarnContext(ctx, "list pushed commits for rewards", "dir", dir, "err", err)
		return nil
	}
	var out []chainforge.PushCommit
	for _, c := range list {
		local, _, _ := strings.Cut(c[1], "@")
		if common.IsHexAddress(local) && strings.HasPrefix(local, "0x") && len(local) == 42 {
			out = append(out, chainforge.PushCommit{SHA: c[0], Author: common.HexToAddress(local)})
		}
	}
	return out
}

// --- flows that change the forge record and the git data together ---
