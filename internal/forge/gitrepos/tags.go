package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Tags made and deleted through the API, Gitea's: a tag is lightweight
// when it has no message and annotated (a tag object signed by the
// signed-in user) otherwise. Each is a push like any other, recorded on
// chain first (a refused record moves nothing), then moved here by
// compare-and-swap.

// NewTag is a tag to create.
type NewTag struct {
	Name    string
	Target  string // a branch, tag or commit; the default branch when empty
	Message string // empty: a lightweight tag
	Tagger  gitstore.Signature
}

// CreateTag creates t and returns it as listed.
func (h *Repos) CreateTag(ctx context.Context, actor common.Address, r index.Repo, t NewTag) (gitstore.Tag, error) {
	if err := CheckBranch("tag_name", t.Name); err != nil {
		return gitstore.Tag{}, err
	}
	if strings.ContainsRune(t.Message, 0) {
		return gitstore.Tag{}, usererr.BadFieldf("message", "the message may not hold a NUL character")
	}
	dir, err := h.gitDir(r)
	if err != nil {
		return gitstore.Tag{}, err
	}
	release := h.pushes.hold(r.ID, false)
	defer release()
	if _, ok, err := gitstore.TagNamed(ctx, dir, t.Name); err != nil {
		return gitstore.Tag{}, err
	} else if ok {
		return gitstore.Tag{}, usererr.Clashf("conflict", "tag %s already exists", t.Name)
	}
	target := t.Target
	if target == "" {
		target = r.DefaultBranch
	}
	commit, err := gitstore.Resolve(ctx, dir, target)
	if errors.Is(err, gitstore.ErrRefNotFound) || errors.Is(err, gitstore.ErrInvalidRef) {
		return gitstore.Tag{}, usererr.Missingf("there is no branch, tag or commit %q to tag", target)
	} else if err != nil {
		return gitstore.Tag{}, fmt.Errorf("resolve %s: %w", target, err)
	}
	id := commit
	if strings.TrimSpace(t.Message) != "" {
		if id, err = gitstore.WriteTagObject(ctx, dir, t.Name, commit, t.Tagger, t.Message); err != nil {
			return gitstore.Tag{}, err
		}
	}
	ref := "refs/tags/" + t.Name
	if err := h.recordRefs(ctx, actor, chainforge.RepoPush{Repo: r.ID, Updates: []chainforge.RefChange{{Ref: ref, Old: chainforge.ZeroSHA, New: id}}}, ""); err != nil {
		return gitstore.Tag{}, err
	}
	if err := gitstore.MoveRef(ctx, dir, ref, id, chainforge.ZeroSHA); err != nil {
		return gitstore.Tag{}, fmt.Errorf("create %s after its record: %w", ref, err)
	}
	tag, _, err := gitstore.TagNamed(ctx, dir, t.Name)
	return tag, err
}

// DeleteTag deletes tag name. A tag a release is made of stays (409), as
// in Gitea: delete the release instead.
func (h *Repos) DeleteTag(ctx context.Context, actor common.Address, r index.Repo, name string) error {
	dir, err := h.gitDir(r)
	if err != nil {
		return err
	}
	release := h.pushes.hold(r.ID, false)
	defer release()
	tag, ok, err := gitstore.TagNamed(ctx, dir, name)
	if err != nil {
		return err
	}
	if !ok {
		return usererr.Missingf("tag %s does not exist", name)
	}
	if _, err := h.forge.Index().ReleaseByTag(ctx, r.ID, name); err == nil {
		return usererr.Clashf("conflict", "a tag attached to a release cannot be deleted directly: delete the release of %s", name)
	} else if !errors.Is(err, index.ErrNoRelease) {
		return err
	}
	ref := "refs/tags/" + name
	if err := h.recordRefs(ctx, actor, chainforge.RepoPush{Repo: r.ID, Updates: []chainforge.RefChange{{Ref: ref, Old: tag.ID, New: chainforge.ZeroSHA}}}, ""); err != nil {
		return err
	}
	if err := gitstore.DeleteRefAt(ctx, dir, ref, tag.ID); err != nil {
		return fmt.Errorf("delete %s after its record: %w", ref, err)
	}
	return nil
}

// gitDir is r's git directory, when its git data is on this node.
func (h *Repos) gitDir(r index.Repo) (string, error) {
	dir, err := h.Dir(r)
	if err != nil {
		return "", err
	}
	if !h.HasGit(r) {
		return "", usererr.New(usererr.NotFound, "no_git_data", "the git data of this repository is not on this node")
	}
	return dir, nil
}
