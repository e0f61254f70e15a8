package gitrepos

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// adoptedMarker, in the git store's root, says the node has reconciled
// its repositories with the chain once. Before that, a repository's refs
// the chain has never seen are from before refs went on chain ahead of
// git (a first commit, a fork), and are recorded rather than removed.
const adoptedMarker = ".refs-on-chain"

// Reconcile brings the git data on this node in line with the chain (the
// private store for a private repository) after a stop or a crash, before
// the node serves:
//  1. It removes what a killed git or node leaves: quarantines of
//     unfinished pushes, lock files, temporary files, half-made and
//     half-deleted repositories.
//  2. A push staged (gitstore.StagePush) but never settled keeps its
//     objects if the chain took it, else they go.
//  3. Each ref moves to the chain's value: forward where the chain took a
//     push git never applied (the objects are here, staged), back where
//     git moved a ref the chain never took (a ref the chain lacks goes).
//     A ref whose chain value names objects this node lacks is left to
//     the replicator.
//  4. A public repository's chain refs whose tip commit is not in the
//     blockstore have their objects queued again; a job the crash left in
//     the queue runs anyway.
//
// Only run while nothing else uses the repositories. A failure in one
// repository is logged and the others go on.
func (h *Repos) Reconcile(ctx context.Context) error {
	removed, err := h.git.RemoveDebris()
	if err != nil {
		return fmt.Errorf("reconcile git data: %w", err)
	}
	for _, p := range removed {
		h.log.InfoContext(ctx, "removed what a stop left in the git store", "path", p)
	}
	list, err := h.git.List()
	if err != nil {
		return fmt.Errorf("reconcile git data: %w", err)
	}
	marker := filepath.Join(h.git.Root(), adoptedMarker)
	_, statErr := os.Stat(marker)
	adopt := errors.Is(statErr, os.ErrNotExist)
	failed := 0
	for _, loc := range list {
		id, err := strconv.ParseUint(loc.ID, 10, 64)
		if err != nil {
			continue
		}
		if err := h.reconcile(ctx, id, loc.Path, adopt); err != nil {
			h.log.ErrorContext(ctx, "reconcile a repository with the chain", "repo", id, "dir", loc.Path, "err", err)
			failed++
		}
	}
	if adopt && failed == 0 {
		if err := os.WriteFile(marker, []byte("refs are recorded on chain before git moves them\n"), 0o644); err != nil {
			return fmt.Errorf("reconcile git data: %w", err)
		}
	}
	return nil
}

func (h *Repos) reconcile(ctx context.Context, id uint64, dir string, adopt bool) error {
	// 1. Debris.
	removed, err := gitstore.RemoveDebris(dir)
	for _, p := range removed {
		h.log.InfoContext(ctx, "removed what a stop left in a repository", "repo", id, "path", p)
	}
	if err != nil {
		return fmt.Errorf("remove debris: %w", err)
	}
	if _, err = h.follow(ctx, id, dir, adopt, true); err != nil {
		return fmt.Errorf("follow the chain: %w", err)
	}
	return nil
}

// follow is steps 2 to 4 of reconcile: stagings, refs, blocks. With
// decided false a transaction of this node's may still commit, so a
// staging the chain has not taken is kept; follow counts those.
func (h *Repos) follow(ctx context.Context, id uint64, dir string, adopt, decided bool) (kept int, err error) {
	// The values to follow, and what this node has.
	onChain, err := h.forge.Refs(id)
	if err != nil {
		return 0, fmt.Errorf("read the recorded refs: %w", err)
	}
	chain := map[string]string{}
	for _, r := range onChain {
		chain[r.Name] = r.ID
	}
	refs, err := gitstore.Refs(ctx, dir)
	if err != nil {
		return 0, fmt.Errorf("read the local refs: %w", err)
	}
	local := map[string]string{}
	for _, r := range refs {
		if Replicated(r.Name) {
			local[r.Name] = r.ID
		}
	}
	ids := make([]string, 0, len(chain))
	for _, v := range chain {
		ids = append(ids, v)
	}
	has, err := gitstore.HasObjects(ctx, dir, ids)
	if err != nil {
		return 0, fmt.Errorf("look up the recorded commits: %w", err)
	}
	// 2. Stagings a crash left.
	staged, err := gitstore.StagedPushes(dir)
	if err != nil {
		return 0, fmt.Errorf("list staged pushes: %w", err)
	}
	for _, st := range staged {
		switch {
		case h.tookPush(ctx, dir, st, chain, has):
			err = st.Done()
		case decided:
			h.log.InfoContext(ctx, "dropped the objects of a push the chain never took", "repo", id, "files", st.Files)
			err = st.Drop()
		default:
			kept++
		}
		if err != nil {
			return 0, fmt.Errorf("settle a staged push: %w", err)
		}
	}
	// 3. Refs.
	if adopt {
		if err := h.adopt(ctx, id, chain, local, has); err != nil {
			return 0, fmt.Errorf("adopt local refs: %w", err)
		}
	}
	var moves []gitstore.RefMove
	for name, want := range chain {
		if local[name] != want && has[want] {
			moves = append(moves, gitstore.RefMove{Ref: name, Old: valueOr(local, name), New: want})
		}
	}
	for name, have := range local {
		if _, ok := chain[name]; !ok {
			moves = append(moves, gitstore.RefMove{Ref: name, Old: have, New: gitstore.ZeroID})
		}
	}
	if len(moves) > 0 {
		h.log.InfoContext(ctx, "moved refs to the values on chain", "repo", id, "refs", moves)
		if err := gitstore.UpdateRefs(ctx, dir, moves); err != nil {
			return 0, fmt.Errorf("move refs to the values on chain: %w", err)
		}
	}
	// 4. Blocks of a public repository.
	if chainforge.IsPrivateID(id) || h.blocks == nil {
		return kept, nil
	}
	var include, exclude []string
	for _, v := range chain {
		switch {
		case !has[v]:
		case h.blocks.HasGitObject(v):
			exclude = append(exclude, v)
		default:
			include = append(include, v)
		}
	}
	if len(include) > 0 {
		h.log.InfoContext(ctx, "queued objects missing from the blockstore", "repo", id, "tips", include)
		h.queueBlocks(ctx, index.Repo{ID: id}, dir, include, exclude)
	}
	return kept, nil
}

// tookPush reports whether the chain took a staged push: some update's
// new commit is the ref's value on chain, or in its history.
func (h *Repos) tookPush(ctx context.Context, dir string, st *gitstore.Staged, chain map[string]string, has map[string]bool) bool {
	for _, u := range st.Updates {
		v, ok := chain[u.Ref]
		switch {
		case u.New == gitstore.ZeroID || !ok:
		case v == u.New:
			return true
		case has[v]:
			if in, err := gitstore.IsAncestor(ctx, dir, u.New, v); err == nil && in {
				return true
			}
		}
	}
	return false
}

// adopt records on chain, once, the refs a repository had before refs
// went on chain ahead of git: those the chain has never seen, as pushed by
// the repository's owner.
func (h *Repos) adopt(ctx context.Context, id uint64, chain, local map[string]string, has map[string]bool) error {
	push := chainforge.RepoPush{Repo: id}
	for name, have := range local {
		if _, ok := chain[name]; !ok {
			push.Updates = append(push.Updates, chainforge.RefChange{Ref: name, Old: gitstore.ZeroID, New: have})
		}
	}
	if len(push.Updates) == 0 {
		return nil
	}
	r, err := h.forge.Index().RepoByID(ctx, id)
	if _, missing := usererr.As(err); missing {
		return nil // no record: nothing to follow
	}
	if err != nil {
		return fmt.Errorf("read repository %d: %w", id, err)
	}
	if err := h.recordRefs(ctx, common.HexToAddress(r.Owner.Address), push, ""); err != nil {
		return fmt.Errorf("record the refs from before refs went on chain: %w", err)
	}
	for _, u := range push.Updates {
		chain[u.Ref], has[u.New] = u.New, true
	}
	h.log.InfoContext(ctx, "recorded refs from before refs went on chain", "repo", id, "refs", len(push.Updates))
	return nil
}

func valueOr(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return gitstore.ZeroID
}
