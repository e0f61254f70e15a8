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
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/blocks"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/repoaccess"
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
	return &Repos{forge: f, git: g, blocks: bs, log: log.With("component", "gitrepos"), moveMu: &sync.Mutex{},
		pushes: &pushLocks{m: map[uint64]*pushLock{}}, unsettled: &unsettled{ids: map[uint64]bool{}, added: make(chan struct{}, 1)}}
}

// WithUsers returns the bridge resolving owners through u as well.
func (h *Repos) WithUsers(u Users) *Repos {
	c := *h
	c.users = u
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
	want, err := h.git.Path(ownerDir(r.Owner.Address), repoID(r.ID))
	if err != nil {
		return "", fmt.Errorf("locate repository %d: %w", r.ID, err)
	}
	if _, err := os.Stat(filepath.Join(want, "HEAD")); err == nil {
		return want, nil
	}
	return want, h.relocate(r, want)
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
	h.log.Info("moved repository to its new owner", "repo", r.ID, "from", found[0], "to", want)
	return nil
}

// HasGit reports whether r's git data is on this node.
func (h *Repos) HasGit(r index.Repo) bool {
	dir, err := h.Dir(r)
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(dir, "HEAD"))
	return err == nil
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
// moved the ref): deleting or force-pushing a protected branch, and ref
// names the module does not take.
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
	branch, ok := strings.CutPrefix(up.Ref, "refs/heads/")
	if !ok || !isProtected(rec, branch) {
		return nil
	}
	switch {
	case up.Deleted():
		return protectedErr("Branch %s is protected: it cannot be deleted.", branch)
	case up.Forced && !up.Created():
		return protectedErr("Branch %s is protected: force-pushes are refused. Pull, merge or rebase onto it, and push again.", branch)
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
// manifest (its big objects' UnixFS files) goes with every part.
func (h *Repos) Commit(ctx context.Context, u *auth.User, r repoaccess.Repo, updates []repoaccess.RefUpdate, manifest string) error {
	id, err := strconv.ParseUint(r.ID, 10, 64)
	if err != nil {
		return fmt.Errorf("repository id %q: %w", r.ID, err)
	}
	rec, err := h.record(ctx, r)
	if err != nil {
		return fmt.Errorf("read repository %s: %w", r.ID, err)
	}
	push := chainforge.RepoPush{Repo: id, Manifest: manifest}
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

// CreateOptions describe a new repository.
type CreateOptions struct {
	Name          string
	Description   string
	DefaultBranch string // chainforge.DefaultBranch when empty
	Private       bool
	// README, when set, is the first commit's README.md, by Author.
	README []byte
	Author gitstore.Signature
}

// CheckName refuses a repository name the forge would refuse, before
// anything is written.
func CheckName(name string) error {
	if err := chainforge.ValidateRepoName(name); err != nil {
		return usererr.New(usererr.Unprocessable, "invalid_name", chainMessage(err)).On("name")
	}
	return nil
}

// CheckBranch refuses a default branch name that either the forge or the
// git store would refuse.
func CheckBranch(field, name string) error {
	if err := chainforge.ValidateBranch(field, name); err != nil {
		return usererr.New(usererr.Unprocessable, usererr.CodeInvalidField, chainMessage(err)).On(field)
	}
	if err := gitstore.CheckBranchName(name); err != nil {
		return usererr.BadFieldf(field, "%s %q is not a branch name this node takes: use letters, digits, '.', '_', '-' and '/'", field, name)
	}
	return nil
}

func chainMessage(err error) string {
	var te *tx.Error
	if errors.As(err, &te) {
		return te.Message
	}
	return err.Error()
}

// Create records a repository for actor and makes its git data (with a
// first commit when README is set; for a public repository, its objects as
// blocks). Names are checked first, so only a node failure can leave a
// record without git data; that comes back wrapping ErrGitData.
func (h *Repos) Create(ctx context.Context, actor common.Address, o CreateOptions) (index.Repo, error) {
	// 1. Check what the user chose.
	if err := CheckName(o.Name); err != nil {
		return index.Repo{}, err
	}
	if o.DefaultBranch == "" {
		o.DefaultBranch = chainforge.DefaultBranch
	}
	if err := CheckBranch("default_branch", o.DefaultBranch); err != nil {
		return index.Repo{}, err
	}
	// 2. The forge record: on chain, or in the private store.
	res, err := h.forge.Do(ctx, actor, chainforge.RepoCreate{
		Name: o.Name, Description: o.Description, DefaultBranch: o.DefaultBranch, Private: o.Private,
	})
	if err != nil {
		return index.Repo{}, fmt.Errorf("record the repository: %w", err)
	}
	r, err := h.created(ctx, res)
	if err != nil {
		return index.Repo{}, fmt.Errorf("read the new repository: %w", err)
	}
	// 3. The git data, then its first commit on chain (other nodes
	// replicate it) and in the blockstore.
	opts := gitstore.CreateOptions{DefaultBranch: o.DefaultBranch, README: o.README, Author: o.Author}
	dir, err := h.git.Create(ctx, ownerDir(r.Owner.Address), repoID(r.ID), opts)
	if err != nil {
		h.log.ErrorContext(ctx, "create git repository for a recorded repository", "repo", r.ID, "err", err)
		return r, fmt.Errorf("%w: repository %d: %v", ErrGitData, r.ID, err)
	}
	if o.README != nil {
		if err := h.recordNewRefs(ctx, actor, r, dir); err != nil {
			return r, err
		}
	}
	return r, nil
}

// created reads back the repository an action made.
func (h *Repos) created(ctx context.Context, res forge.Result) (index.Repo, error) {
	if len(res.Change.Repos) == 0 {
		return index.Repo{}, fmt.Errorf("the forge applied %s without a repository", res.Change.Action)
	}
	return h.forge.Index().RepoByID(ctx, res.Change.Repos[0].ID)
}

// settleBlocks lets the pushes queued for the blockstore be stored before
// r's directory moves: their jobs name the old path. A queue that takes
// longer only costs those objects' blocks, never the move.
func (h *Repos) settleBlocks(r index.Repo) {
	if r.Private || h.blocks == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.blocks.Settle(ctx); err != nil {
		h.log.Warn("move a repository with pushes still queued for the blockstore", "repo", r.ID, "err", err)
	}
}

// recordNewRefs records the refs a new repository's git data starts with
// (a first commit; a fork's branches and tags) as a push from nothing, as
// a push's are, so other nodes replicate them, and queues their objects
// for the blockstore. A node that dies before the record took them finds
// at start refs the chain lacks, and removes them (Reconcile).
func (h *Repos) recordNewRefs(ctx context.Context, actor common.Address, r index.Repo, dir string) error {
	refs, err := gitstore.Refs(ctx, dir)
	if err != nil {
		return fmt.Errorf("%w: repository %d: %v", ErrGitData, r.ID, err)
	}
	push := chainforge.RepoPush{Repo: r.ID}
	var tips []string
	for _, ref := range refs {
		if !Replicated(ref.Name) {
			continue
		}
		push.Updates = append(push.Updates, chainforge.RefChange{Ref: ref.Name, Old: gitstore.ZeroID, New: ref.ID})
		tips = append(tips, ref.ID)
	}
	if err := h.recordRefs(ctx, actor, push, ""); err != nil {
		h.log.ErrorContext(ctx, "record the refs of a new repository", "repo", r.ID, "err", err)
		return fmt.Errorf("%w: record the refs of repository %d: %v", ErrGitData, r.ID, err)
	}
	h.queueBlocks(ctx, r, dir, tips, nil)
	return nil
}

// Replicated reports whether ref is one the chain records and every node
// holds: not the node's own refs/pull/ (each node keeps a pull request's
// head from its record) and refs/dforge/.
func Replicated(ref string) bool {
	return strings.HasPrefix(ref, "refs/") && !strings.HasPrefix(ref, "refs/pull/") && !strings.HasPrefix(ref, "refs/dforge/")
}

// queueBlocks journals a public repository's objects reachable from
// include and not from exclude for the blockstore. A failure is logged:
// the start queues what is missing (Reconcile).
func (h *Repos) queueBlocks(ctx context.Context, r index.Repo, dir string, include, exclude []string) {
	if r.Private || h.blocks == nil || len(include) == 0 {
		return
	}
	if err := h.blocks.Enqueue(blocks.Job{Dir: dir, Include: include, Exclude: exclude}); err != nil {
		h.log.ErrorContext(ctx, "queue a repository's objects for the blockstore", "repo", r.ID, "err", err)
	}
}

// Fork forks src for actor under name (src's name when empty).
func (h *Repos) Fork(ctx context.Context, actor common.Address, src index.Repo, name string) (index.Repo, error) {
	if name != "" {
		if err := CheckName(name); err != nil {
			return index.Repo{}, err
		}
	}
	srcDir, err := h.Dir(src)
	if err != nil {
		return index.Repo{}, fmt.Errorf("locate repository %d: %w", src.ID, err)
	}
	if _, err := os.Stat(filepath.Join(srcDir, "HEAD")); err != nil {
		return index.Repo{}, usererr.Clashf("no_git_data", "the git data of %s/%s is not on this node, so it cannot be forked here", src.Owner.Username, src.Name)
	}
	res, err := h.forge.Do(ctx, actor, chainforge.RepoFork{Repo: src.ID, Name: name})
	if err != nil {
		return index.Repo{}, fmt.Errorf("record the fork: %w", err)
	}
	r, err := h.created(ctx, res)
	if err != nil {
		return index.Repo{}, fmt.Errorf("read the new fork: %w", err)
	}
	dir, err := h.git.Fork(ctx, srcDir, ownerDir(r.Owner.Address), repoID(r.ID))
	if err != nil {
		h.log.ErrorContext(ctx, "fork git repository for a recorded fork", "repo", r.ID, "source", src.ID, "err", err)
		return r, fmt.Errorf("%w: fork %d of %d: %v", ErrGitData, r.ID, src.ID, err)
	}
	if err := h.recordNewRefs(ctx, actor, r, dir); err != nil {
		return r, err
	}
	return r, nil
}

// Delete deletes r (the forge checks actor owns it), then its git data.
func (h *Repos) Delete(ctx context.Context, actor common.Address, r index.Repo) error {
	if err := h.ownerOnly(ctx, actor, r, "delete it"); err != nil {
		return err
	}
	dir, _ := h.Dir(r) // before the record goes: it knows the owner
	if _, err := h.forge.Do(ctx, actor, chainforge.RepoDelete{Repo: r.ID}); err != nil {
		return fmt.Errorf("record the deletion: %w", err)
	}
	err := h.git.Delete(ctx, ownerDir(r.Owner.Address), repoID(r.ID))
	if errors.Is(err, gitstore.ErrNotFound) {
		return nil
	}
	if err != nil {
		h.log.ErrorContext(ctx, "delete the git data of a deleted repository", "repo", r.ID, "dir", dir, "err", err)
		return fmt.Errorf("%w: delete repository %d: %v", ErrGitData, r.ID, err)
	}
	return nil
}

// Transfer gives r to newOwner and moves its git data under them. The
// former owner's forks of a private repository go, with their git data.
func (h *Repos) Transfer(ctx context.Context, actor common.Address, r index.Repo, newOwnerName string) (index.Repo, error) {
	if err := h.ownerOnly(ctx, actor, r, "transfer it"); err != nil {
		return index.Repo{}, err
	}
	newOwner, err := h.Owner(ctx, strings.TrimSpace(newOwnerName))
	if err != nil || strings.TrimSpace(newOwnerName) == "" {
		return index.Repo{}, usererr.BadFieldf("new_owner", "new_owner must be an existing username or an address")
	}
	res, err := h.forge.Do(ctx, actor, chainforge.RepoTransfer{Repo: r.ID, NewOwner: newOwner})
	if err != nil {
		return index.Repo{}, fmt.Errorf("record the transfer: %w", err)
	}
	if err := h.dropDeleted(ctx, res.Change); err != nil {
		return index.Repo{}, err
	}
	moved, err := h.forge.Index().RepoByID(ctx, r.ID)
	if err != nil {
		return index.Repo{}, fmt.Errorf("read the transferred repository: %w", err)
	}
	if _, err := h.Dir(moved); err != nil {
		h.log.ErrorContext(ctx, "move a transferred repository", "repo", r.ID, "err", err)
		return moved, fmt.Errorf("%w: %v", ErrGitData, err)
	}
	return moved, nil
}

// SetCollaborator gives user permission on r ("none" removes them). Who
// can no longer read a private repository loses their forks of it (the
// forge module deletes them), and this deletes their git data.
func (h *Repos) SetCollaborator(ctx context.Context, actor common.Address, r index.Repo, user common.Address, perm string) error {
	if err := h.ownerOnly(ctx, actor, r, "manage its collaborators"); err != nil {
		return err
	}
	res, err := h.forge.Do(ctx, actor, chainforge.CollaboratorSet{Repo: r.ID, User: user, Permission: perm})
	if err != nil {
		return fmt.Errorf("record the collaborator: %w", err)
	}
	return h.dropDeleted(ctx, res.Change)
}

// dropDeleted deletes the git data of the repositories an action deleted
// besides the one it named (the forks that went with a loss of access).
// Their records are gone already, so nobody reaches them through git;
// this frees the disk.
func (h *Repos) dropDeleted(ctx context.Context, c chainforge.Change) error {
	var failed []string
	for _, r := range c.Repos {
		if !r.Deleted {
			continue
		}
		if err := h.deleteGit(ctx, r.ID, r.Owner); err != nil {
			h.log.ErrorContext(ctx, "delete the git data of a revoked fork", "repo", r.ID, "err", err)
			failed = append(failed, repoID(r.ID))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%w: delete repositories %s", ErrGitData, strings.Join(failed, ", "))
	}
	return nil
}

// deleteGit deletes repository id's git data, under owner or, when a
// transfer left it there, under a former owner.
func (h *Repos) deleteGit(ctx context.Context, id uint64, owner common.Address) error {
	err := h.git.Delete(ctx, ownerDir(owner.Hex()), repoID(id))
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, gitstore.ErrNotFound):
		return fmt.Errorf("delete the git data of repository %d: %w", id, err)
	}
	found, _ := filepath.Glob(filepath.Join(h.git.Root(), "*", repoID(id)+".git"))
	for _, dir := range found {
		err := h.git.Delete(ctx, filepath.Base(filepath.Dir(dir)), repoID(id))
		if err != nil && !errors.Is(err, gitstore.ErrNotFound) {
			return fmt.Errorf("delete the git data of repository %d under %s: %w", id, filepath.Base(filepath.Dir(dir)), err)
		}
	}
	return nil
}

// Update changes r's settings; a new default branch also becomes the git
// repository's HEAD, so clones check it out.
func (h *Repos) Update(ctx context.Context, actor common.Address, r index.Repo, up chainforge.RepoUpdate) (index.Repo, error) {
	up.Repo = r.ID
	if up.Name != nil {
		if err := CheckName(*up.Name); err != nil {
			return index.Repo{}, err
		}
	}
	dir, err := h.Dir(r)
	if err != nil {
		return index.Repo{}, fmt.Errorf("locate repository %d: %w", r.ID, err)
	}
	if up.DefaultBranch != nil && *up.DefaultBranch != r.DefaultBranch {
		if err := CheckBranch("default_branch", *up.DefaultBranch); err != nil {
			return index.Repo{}, err
		}
		// A repository with branches must have this one; an empty one may
		// name the branch its first push will create.
		if h.HasGit(r) && !gitstore.IsEmpty(dir) {
			if _, err := gitstore.ResolveBranch(ctx, dir, *up.DefaultBranch); err != nil {
				return index.Repo{}, usererr.BadFieldf("default_branch", "there is no branch %s to make the default", *up.DefaultBranch)
			}
		}
	}
	if _, err := h.forge.Do(ctx, actor, up); err != nil {
		return index.Repo{}, fmt.Errorf("record the settings: %w", err)
	}
	updated, err := h.forge.Index().RepoByID(ctx, r.ID)
	if err != nil {
		return index.Repo{}, fmt.Errorf("read the updated repository: %w", err)
	}
	if up.DefaultBranch != nil && h.HasGit(updated) {
		if err := gitstore.SetHead(ctx, dir, updated.DefaultBranch); err != nil {
			h.log.ErrorContext(ctx, "point HEAD at the new default branch", "repo", r.ID, "err", err)
			return updated, fmt.Errorf("%w: %v", ErrGitData, err)
		}
	}
	return updated, nil
}

// ownerOnly refuses, before anything is written, what only the owner may
// do, with a message that says so; the forge module checks again.
func (h *Repos) ownerOnly(ctx context.Context, actor common.Address, r index.Repo, what string) error {
	perm, err := h.forge.Permission(ctx, r, actor)
	if err != nil {
		return fmt.Errorf("permission on repository %d: %w", r.ID, err)
	}
	if perm < forge.PermOwner {
		return usererr.Deniedf("only the repository's owner may %s", what)
	}
	return nil
}
