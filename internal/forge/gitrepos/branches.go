package gitrepos

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Branches made, deleted and renamed through the API are pushes like any
// other: recorded first as one repo.push (compare-and-swap, checked by the
// chain or the private store against the branch's protection), and only
// then moved here, by compare-and-swap too. A refused record moves
// nothing.

// CreateBranch creates branch name at from (a branch, tag or commit; the
// default branch when empty) and returns its commit.
func (h *Repos) CreateBranch(ctx context.Context, actor common.Address, r index.Repo, name, from string) (string, error) {
	if err := CheckBranch("new_branch_name", name); err != nil {
		return "", err
	}
	dir, err := h.Dir(r)
	if err != nil {
		return "", err
	}
	if from == "" {
		from = r.DefaultBranch
	}
	sha, err := gitstore.Resolve(ctx, dir, from)
	if errors.Is(err, gitstore.ErrRefNotFound) || errors.Is(err, gitstore.ErrInvalidRef) {
		return "", usererr.Missingf("there is no branch, tag or commit %q to branch from", from)
	} else if err != nil {
		return "", fmt.Errorf("resolve %s: %w", from, err)
	}
	if _, err := gitstore.ResolveBranch(ctx, dir, name); err == nil {
		return "", usererr.Clashf("conflict", "branch %s already exists", name)
	}
	ref := "refs/heads/" + name
	if err := h.recordRefs(ctx, actor, chainforge.RepoPush{Repo: r.ID, Updates: []chainforge.RefChange{{Ref: ref, Old: chainforge.ZeroSHA, New: sha}}}, ""); err != nil {
		return "", err
	}
	if err := gitstore.MoveRef(ctx, dir, ref, sha, chainforge.ZeroSHA); err != nil {
		return "", fmt.Errorf("create %s after its record: %w", ref, err)
	}
	return sha, nil
}

// DeleteBranch deletes branch name. The default branch and protected
// branches stay (403), as in Gitea.
func (h *Repos) DeleteBranch(ctx context.Context, actor common.Address, r index.Repo, name string) error {
	dir, sha, err := h.existingBranch(ctx, r, name)
	if err != nil {
		return err
	}
	if err := h.checkMovable(ctx, r, name, "deleted"); err != nil {
		return err
	}
	ref := "refs/heads/" + name
	if err := h.recordRefs(ctx, actor, chainforge.RepoPush{Repo: r.ID, Updates: []chainforge.RefChange{{Ref: ref, Old: sha, New: chainforge.ZeroSHA}}}, ""); err != nil {
		return err
	}
	if err := gitstore.DeleteRefAt(ctx, dir, ref, sha); err != nil {
		return fmt.Errorf("delete %s after its record: %w", ref, err)
	}
	return nil
}

// RenameBranch renames branch from to to: one push deleting the one and
// creating the other, so the record has both or neither.
func (h *Repos) RenameBranch(ctx context.Context, actor common.Address, r index.Repo, from, to string) error {
	if err := CheckBranch("name", to); err != nil {
		return err
	}
	dir, sha, err := h.existingBranch(ctx, r, from)
	if err != nil {
		return err
	}
	if err := h.checkMovable(ctx, r, from, "renamed"); err != nil {
		return err
	}
	if _, err := gitstore.ResolveBranch(ctx, dir, to); err == nil {
		return usererr.Clashf("conflict", "branch %s already exists", to)
	}
	oldRef, newRef := "refs/heads/"+from, "refs/heads/"+to
	push := chainforge.RepoPush{Repo: r.ID, Updates: []chainforge.RefChange{
		{Ref: newRef, Old: chainforge.ZeroSHA, New: sha}, {Ref: oldRef, Old: sha, New: chainforge.ZeroSHA}}}
	if err := h.recordRefs(ctx, actor, push, ""); err != nil {
		return err
	}
	if err := gitstore.MoveRef(ctx, dir, newRef, sha, chainforge.ZeroSHA); err != nil {
		return fmt.Errorf("create %s after its record: %w", newRef, err)
	}
	if err := gitstore.DeleteRefAt(ctx, dir, oldRef, sha); err != nil {
		return fmt.Errorf("delete %s after its record: %w", oldRef, err)
	}
	return nil
}

// existingBranch is r's git directory and the commit of branch name (404
// when there is no such branch).
func (h *Repos) existingBranch(ctx context.Context, r index.Repo, name string) (string, string, error) {
	dir, err := h.Dir(r)
	if err != nil {
		return "", "", err
	}
	sha, err := gitstore.ResolveBranch(ctx, dir, name)
	if errors.Is(err, gitstore.ErrRefNotFound) || errors.Is(err, gitstore.ErrInvalidRef) {
		return "", "", usererr.Missingf("branch %s does not exist", name)
	} else if err != nil {
		return "", "", fmt.Errorf("resolve branch %s: %w", name, err)
	}
	return dir, sha, nil
}

// checkMovable refuses deleting or renaming the default branch or a
// protected one (the chain refuses it too; this says why first).
func (h *Repos) checkMovable(ctx context.Context, r index.Repo, name, what string) error {
	if name == r.DefaultBranch {
		return protectedErr("Branch %s is the default branch and cannot be %s.", name, what)
	}
	protected, err := h.Protected(ctx, r, name)
	if err != nil {
		return err
	}
	if protected {
		return protectedErr("Branch %s is protected and cannot be %s.", name, what)
	}
	return nil
}

// Protected reports whether branch is protected: listed on the repository
// or with a protection rule.
func (h *Repos) Protected(ctx context.Context, r index.Repo, branch string) (bool, error) {
	if isProtected(r, branch) {
		return true, nil
	}
	_, ok, err := h.forge.Index().RuleFor(ctx, r.ID, branch)
	if err != nil {
		return false, fmt.Errorf("read the protection of %s: %w", branch, err)
	}
	return ok, nil
}
