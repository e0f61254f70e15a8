package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/repoaccess"
	"github.com/dforge/dforge/internal/usererr"
)

// FilesChange is a commit the contents API writes: changes on Branch, or
// on a new branch NewBranch started from Branch.
type FilesChange struct {
	Branch    string
	NewBranch string
	Changes   []gitstore.FileWrite
	Message   string
	Author    gitstore.Signature
	Committer gitstore.Signature
}

// FilesResult is the commit written and the branch it is on.
type FilesResult struct {
	Commit string
	Branch string
}

// WriteFiles commits ch for u the way a push of that commit would go:
//  1. u must be able to push (404 when u cannot read the repository);
//  2. the commit is built with plumbing (gitstore.WriteFiles) on the
//     branch's tip, its objects in the repository but on no ref;
//  3. the ref update is checked and recorded (CheckUpdate, Commit: one
//     repo.push, compare-and-swap on chain, so a push another node made
//     first refuses it as stale);
//  4. the branch moves here, compare-and-swap, and the new objects of a
//     public repository are queued for the blockstore, as after a push.
func (h *Repos) WriteFiles(ctx context.Context, u *auth.User, rec index.Repo, ch FilesChange) (FilesResult, error) {
	// 1. Who may write.
	perm, err := h.forge.Permission(ctx, rec, u.Address)
	if err != nil {
		return FilesResult{}, fmt.Errorf("read permission: %w", err)
	}
	if perm < forge.PermRead {
		return FilesResult{}, usererr.Missingf("repository %s/%s does not exist", rec.Owner.Username, rec.Name)
	}
	if perm < forge.PermWrite {
		return FilesResult{}, usererr.Deniedf("writing files needs write permission on %s; you have %s", rec.Name, perm)
	}
	dir, err := h.Dir(rec)
	if err != nil {
		return FilesResult{}, err
	}
	release := h.pushes.hold(rec.ID, false)
	defer release()
	// 2. The commit, on the branch's tip.
	parent, target, err := h.writeBase(ctx, dir, rec, ch)
	if err != nil {
		return FilesResult{}, err
	}
	tip, err := gitstore.WriteFiles(ctx, dir, gitstore.WriteOptions{
		Parent: parent, Changes: ch.Changes, Message: ch.Message, Author: ch.Author, Committer: ch.Committer,
	})
	if err != nil {
		return FilesResult{}, fileError(err)
	}
	// 3. Checked and recorded like a push.
	old := parent
	if target != ch.Branch || old == "" {
		old = chainforge.ZeroSHA
	}
	up := repoaccess.RefUpdate{Ref: "refs/heads/" + target, Old: old, New: tip}
	ra := repoaccess.Repo{ID: repoID(rec.ID), Owner: rec.Owner.Username, Name: rec.Name, Path: dir, Private: rec.Private, DefaultBranch: rec.DefaultBranch}
	if err := h.CheckUpdate(ctx, u, ra, up); err != nil {
		return FilesResult{}, err
	}
	if err := h.Commit(ctx, u, ra, []repoaccess.RefUpdate{up}); err != nil {
		if ue, ok := usererr.As(err); ok && ue.Code == "stale_ref" {
			return FilesResult{}, usererr.Clashf("stale_ref", "branch %s moved while the files were being written (another push reached the chain first); reload and try again", target)
		}
		return FilesResult{}, err
	}
	// 4. The branch moves here, as the chain has it.
	if err := gitstore.MoveRef(ctx, dir, up.Ref, tip, old); err != nil {
		// The chain took it: the start's reconcile moves the ref if this fails.
		h.log.ErrorContext(ctx, "move a branch after writing files", "repo", rec.ID, "ref", up.Ref, "err", err)
	}
	var exclude []string
	if parent != "" {
		exclude = []string{parent}
	}
	h.queueBlocks(ctx, rec, dir, []string{tip}, exclude)
	return FilesResult{Commit: tip, Branch: target}, nil
}

// writeBase is the commit the change goes on ("" for a first commit of an
// empty repository) and the branch it goes to.
func (h *Repos) writeBase(ctx context.Context, dir string, rec index.Repo, ch FilesChange) (string, string, error) {
	parent, ok, err := gitstore.CommitOf(ctx, dir, "refs/heads/"+ch.Branch)
	if err != nil {
		return "", "", fmt.Errorf("read branch %s: %w", ch.Branch, err)
	}
	if !ok && !(gitstore.IsEmpty(dir) && ch.Branch == rec.DefaultBranch) {
		return "", "", usererr.New(usererr.NotFound, "branch_not_found", "branch "+ch.Branch+" does not exist")
	}
	if ch.NewBranch == "" || ch.NewBranch == ch.Branch {
		return parent, ch.Branch, nil
	}
	if err := CheckBranch("new_branch", ch.NewBranch); err != nil {
		return "", "", err
	}
	_, exists, err := gitstore.CommitOf(ctx, dir, "refs/heads/"+ch.NewBranch)
	if err != nil {
		return "", "", fmt.Errorf("read branch %s: %w", ch.NewBranch, err)
	}
	if exists {
		return "", "", usererr.Unprocessablef("new_branch", "branch_exists", "branch %s already exists", ch.NewBranch)
	}
	return parent, ch.NewBranch, nil
}

// fileError maps a change refused for a file's state onto Gitea's
// answers: 404 for a file that is not there, 422 for one that is, or
// that changed since the writer read it.
func fileError(err error) error {
	var fe *gitstore.FileError
	if !errors.As(err, &fe) {
		return fmt.Errorf("write the commit: %w", err)
	}
	switch {
	case errors.Is(fe.Err, gitstore.ErrFileMissing):
		return usererr.New(usererr.NotFound, "file_not_found", fmt.Sprintf("%s: %v", fe.Path, fe.Err)).On("path")
	case errors.Is(fe.Err, gitstore.ErrFileExists):
		return usererr.Unprocessablef("path", "file_exists", "%s: %v", fe.Path, fe.Err)
	}
	return usererr.Unprocessablef("sha", "sha_mismatch", "%s: %v; read it again and retry", fe.Path, fe.Err)
}

// AccountEmail is the commit email that names an account: its address at
// users.dforge, the form accountCommits links to the account on chain.
func AccountEmail(addr common.Address) string {
	return strings.ToLower(addr.Hex()) + "@users.dforge"
}
