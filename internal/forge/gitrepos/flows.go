package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/blocks"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// The flows that change a repository's record and its git data together:
// create, fork, delete, transfer, collaborators and settings.

// CreateOptions describe a new repository.
type CreateOptions struct {
	Name          string
	Description   string
	DefaultBranch string // chainforge.DefaultBranch when empty
	Private       bool
	// Org, when set, is the organization that owns the new repository;
	// its repositories are public.
	Org uint64
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
	if o.Org != 0 && o.Private {
		return index.Repo{}, usererr.BadFieldf("private", "an organization's repositories are public: they are on chain, and organizations have no node-local store")
	}
	// 2. The forge record: on chain, or in the private store.
	res, err := h.forge.Do(ctx, actor, chainforge.RepoCreate{
		Name: o.Name, Description: o.Description, DefaultBranch: o.DefaultBranch, Private: o.Private, Org: o.Org,
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
	return h.ForkInto(ctx, actor, src, name, 0)
}

// ForkInto is Fork into organization org (0: the actor's own).
func (h *Repos) ForkInto(ctx context.Context, actor common.Address, src index.Repo, name string, org uint64) (index.Repo, error) {
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
	if src.Private && org != 0 {
		return index.Repo{}, usererr.BadFieldf("organization", "a private repository cannot be forked into an organization: an organization's repositories are public")
	}
	res, err := h.forge.Do(ctx, actor, chainforge.RepoFork{Repo: src.ID, Name: name, Org: org})
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
	h.dropDrafts(ctx, r.ID)
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

// Transfer gives r to newOwner, or offers it to them: under the
// pending-transfers rules a transfer waits for its recipient unless the
// actor may create repositories where it goes (the forge module decides).
// pending says it was offered: r is unchanged until the recipient accepts.
// teams are teams of a receiving organization that get the repository.
func (h *Repos) Transfer(ctx context.Context, actor common.Address, r index.Repo, newOwnerName string, teams []uint64) (index.Repo, bool, error) {
	if err := h.ownerOnly(ctx, actor, r, "transfer it"); err != nil {
		return index.Repo{}, false, err
	}
	newOwner, err := h.Owner(ctx, strings.TrimSpace(newOwnerName))
	if err != nil || strings.TrimSpace(newOwnerName) == "" {
		return index.Repo{}, false, usererr.BadFieldf("new_owner", "new_owner must be an existing username or an address")
	}
	if err := h.privateStaysPersonal(ctx, r, newOwner, "new_owner"); err != nil {
		return index.Repo{}, false, err
	}
	res, err := h.forge.Do(ctx, actor, chainforge.RepoTransfer{Repo: r.ID, NewOwner: newOwner, Teams: teams})
	if err != nil {
		return index.Repo{}, false, fmt.Errorf("record the transfer: %w", err)
	}
	if t := res.Change.Transfer; t != nil && t.State == chainforge.TransferPending {
		offered, err := h.forge.Index().RepoByID(ctx, r.ID)
		if err != nil {
			return index.Repo{}, true, fmt.Errorf("read the offered repository: %w", err)
		}
		return offered, true, nil
	}
	moved, err := h.arrived(ctx, r, res.Change)
	return moved, false, err
}

// AcceptTransfer takes r, offered to the actor (or to an organization
// they may create repositories in), and moves its git data under its new
// owner.
func (h *Repos) AcceptTransfer(ctx context.Context, actor common.Address, r index.Repo) (index.Repo, error) {
	res, err := h.forge.Do(ctx, actor, chainforge.RepoTransferAccept{Repo: r.ID})
	if err != nil {
		return index.Repo{}, fmt.Errorf("record the acceptance: %w", err)
	}
	return h.arrived(ctx, r, res.Change)
}

// RejectTransfer ends r's pending transfer: the recipient rejects it, the
// repository's owners cancel it. Nothing moves.
func (h *Repos) RejectTransfer(ctx context.Context, actor common.Address, r index.Repo) (index.Repo, error) {
	if _, err := h.forge.Do(ctx, actor, chainforge.RepoTransferReject{Repo: r.ID}); err != nil {
		return index.Repo{}, fmt.Errorf("record the rejection: %w", err)
	}
	kept, err := h.forge.Index().RepoByID(ctx, r.ID)
	if err != nil {
		return index.Repo{}, fmt.Errorf("read the repository: %w", err)
	}
	return kept, nil
}

// arrived finishes a transfer the forge recorded: the former owner's
// revoked forks go, and r's git data moves under its new owner.
func (h *Repos) arrived(ctx context.Context, r index.Repo, c chainforge.Change) (index.Repo, error) {
	if err := h.dropDeleted(ctx, c); err != nil {
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

// privateStaysPersonal refuses to give a private repository to an
// organization. An organization's repositories are public (they are on
// chain; organizations and their teams live there too and have no place
// in a node's private store), so inside the private store an organization
// is no owner at all: nobody could be checked as its owner before the
// transfer, and its teams could grant nothing after it, nor could losing a
// team take anyone's forks away.
func (h *Repos) privateStaysPersonal(ctx context.Context, r index.Repo, newOwner common.Address, field string) error {
	if !r.Private {
		return nil
	}
	_, isOrg, err := h.forge.Index().OrgAt(ctx, newOwner)
	if err != nil {
		return fmt.Errorf("look up the new owner: %w", err)
	}
	if isOrg {
		return usererr.BadFieldf(field, "a private repository cannot be transferred to an organization: an organization's repositories are public")
	}
	return nil
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
