package forge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Pulls is the git side of pull requests: it reads the branches' commits
// when one is opened, keeps the head's commits in the base repository
// (refs/pull/N/head, fetched from a fork), follows a head branch that moves
// (pr.update), tells whether a pull request merges cleanly, and merges.
//
// A merge is decided before anything moves: the permission is checked,
// git computes the merge commit(s) without touching a ref (their objects
// synced to disk), the chain (or the private store) records the base
// branch's move as a repo.push, compare-and-swap as any push's, then
// pr.merge, and only then does the local branch move, by compare-and-swap
// too. A merge refused by the chain leaves the branch and the record as
// they were; the chain's value of the branch always names objects this
// node holds.
type Pulls struct {
	svc    *Service
	dir    func(index.Repo) (string, error)
	blocks func(dir string, include, exclude []string) error

	mu    sync.Mutex
	locks map[uint64]*sync.Mutex // per base repository: merges and head syncs
	// mergeable remembers merge-tree answers by base and head commit.
	mergeable map[[2]string]mergeability
}

// PullsConfig is what NewPulls needs.
type PullsConfig struct {
	// Dir is where a repository's bare git repository is (gitrepos.Repos.Dir).
	Dir func(index.Repo) (string, error)
	// QueueBlocks journals a public repository's new objects (reachable
	// from include, not from exclude) for the blockstore
	// (blocks.Store.Enqueue); nil stores none.
	QueueBlocks func(dir string, include, exclude []string) error
}

type mergeability struct {
	tree      string
	conflicts []string
	err       error
}

// maxMergeableCache bounds the merge-tree answers kept; the cache starts
// over when full (answers are cheap to recompute).
const maxMergeableCache = 4096

// NewPulls returns the pull request service over svc.
func NewPulls(svc *Service, cfg PullsConfig) *Pulls {
	return &Pulls{svc: svc, dir: cfg.Dir, blocks: cfg.QueueBlocks, locks: map[uint64]*sync.Mutex{}, mergeable: map[[2]string]mergeability{}}
}

func (p *Pulls) lock(repo uint64) func() {
	p.mu.Lock()
	l, ok := p.locks[repo]
	if !ok {
		l = &sync.Mutex{}
		p.locks[repo] = l
	}
	p.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// PullHeadRef is where the base repository keeps pull request number's head.
func PullHeadRef(number uint64) string { return fmt.Sprintf("refs/pull/%d/head", number) }

func unprocessable(field, format string, args ...any) error {
	return usererr.BadFieldf(field, format, args...)
}

func conflictErr(code, format string, args ...any) error {
	return usererr.Clashf(code, format, args...)
}

// gitDir is r's bare repository, which must be on this node.
func (p *Pulls) gitDir(r index.Repo) (string, error) {
	dir, err := p.dir(r)
	if err != nil {
		return "", fmt.Errorf("find the git data of repository %d: %w", r.ID, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil {
		return "", conflictErr("no_git_data", "the git data of %s/%s is not on this node", r.Owner.Username, r.Name)
	}
	return dir, nil
}

// branchCommit is the commit branch of the repository at dir points at.
func branchCommit(ctx context.Context, dir, branch string) (string, bool, error) {
	if chainforge.ValidateBranch("branch", branch) != nil {
		return "", false, nil
	}
	return gitstore.CommitOf(ctx, dir, "refs/heads/"+branch)
}

// OpenPull is a new pull request: HeadBranch of Head (the base repository
// itself or a fork of it) into BaseBranch of the base.
type OpenPull struct {
	Head       index.Repo
	HeadBranch string
	BaseBranch string // the base's default branch when empty
	Title      string
	Body       string
	// Assignees (usernames or addresses) and Labels are set on the new
	// pull request; either needs write permission on the base.
	Assignees []string
	Labels    []uint64
	// Milestone (an id the caller checked; 0 for none) files it under a
	// milestone of the base, which needs write permission too.
	Milestone uint64
}

// Open opens a pull request for actor on base. Who may is decided before
// git does any work: a writer of the base for its own branches, a writer
// of the fork otherwise. The head's commits are copied into the base
// repository first, so the record never names a commit the base repository
// lacks; the assignees and labels follow the record (pr.create, then
// issue.edit).
func (p *Pulls) Open(ctx context.Context, actor common.Address, base index.Repo, o OpenPull) (index.Pull, error) {
	if o.BaseBranch == "" {
		o.BaseBranch = base.DefaultBranch
	}
	// 1. Who may open it, and set its assignees and labels.
	basePerm, err := p.svc.Permission(ctx, base, actor)
	if err != nil {
		return index.Pull{}, err
	}
	headPerm := basePerm
	if o.Head.ID != base.ID {
		if headPerm, err = p.svc.Permission(ctx, o.Head, actor); err != nil {
			return index.Pull{}, err
		}
	}
	if headPerm < PermWrite {
		return index.Pull{}, usererr.Deniedf("a pull request from %s/%s needs write permission on it; fork the repository and open one from your fork",
			o.Head.Owner.Username, o.Head.Name)
	}
	assignees, err := p.svc.Assignees(ctx, o.Assignees)
	if err != nil {
		return index.Pull{}, err
	}
	if (len(assignees) > 0 || len(o.Labels) > 0) && basePerm < PermWrite {
		return index.Pull{}, usererr.Deniedf("setting labels or assignees needs write permission on %s", base.Name)
	}
	if o.Milestone != 0 && basePerm < PermWrite {
		return index.Pull{}, usererr.Deniedf("setting a milestone needs write permission on %s", base.Name)
	}
	baseDir, err := p.gitDir(base)
	if err != nil {
		return index.Pull{}, err
	}
	headDir, err := p.gitDir(o.Head)
	if err != nil {
		return index.Pull{}, err
	}
	// 2. The branches' commits.
	baseSHA, ok, err := branchCommit(ctx, baseDir, o.BaseBranch)
	if err != nil {
		return index.Pull{}, fmt.Errorf("read the base branch: %w", err)
	}
	if !ok {
		return index.Pull{}, unprocessable("base", "%s/%s has no branch %q", base.Owner.Username, base.Name, o.BaseBranch)
	}
	headSHA, ok, err := branchCommit(ctx, headDir, o.HeadBranch)
	if err != nil {
		return index.Pull{}, fmt.Errorf("read the head branch: %w", err)
	}
	if !ok {
		return index.Pull{}, unprocessable("head", "%s/%s has no branch %q", o.Head.Owner.Username, o.Head.Name, o.HeadBranch)
	}
	// 3. The head's commits into the base repository, under a name of its
	// own until the pull request has a number.
	incoming := "refs/dforge/incoming/" + strings.ReplaceAll(actor.Hex(), "0x", "") + "-" + fmt.Sprint(time.Now().UnixNano())
	if err := gitstore.FetchRef(ctx, baseDir, headDir, headSHA, incoming); err != nil {
		// A fetch by id needs uploadpack.allowAnySHA1InWant (set on every
		// repository); fall back to the branch for an older one.
		if err := gitstore.FetchRef(ctx, baseDir, headDir, "refs/heads/"+o.HeadBranch, incoming); err != nil {
			return index.Pull{}, fmt.Errorf("fetch the head into the base repository: %w", err)
		}
		if headSHA, _, err = gitstore.CommitOf(ctx, baseDir, incoming); err != nil {
			return index.Pull{}, fmt.Errorf("read the fetched head: %w", err)
		}
	}
	defer gitstore.DeleteRef(context.WithoutCancel(ctx), baseDir, incoming)
	if err := p.checkComparable(ctx, baseDir, baseSHA, headSHA, o.HeadBranch, o.BaseBranch); err != nil {
		return index.Pull{}, fmt.Errorf("compare the branches: %w", err)
	}
	// 4. The record, then the head's permanent ref.
	res, err := p.svc.Do(ctx, actor, chainforge.PullCreate{
		Repo: base.ID, Title: o.Title, Body: o.Body, HeadRepo: o.Head.ID, HeadBranch: o.HeadBranch, BaseBranch: o.BaseBranch,
		HeadSHA: headSHA, BaseSHA: baseSHA,
	})
	if err != nil {
		return index.Pull{}, fmt.Errorf("record the pull request: %w", err)
	}
	if res.Change.Issue == nil {
		return index.Pull{}, errors.New("pr.create applied without an issue")
	}
	number := res.Change.Issue.Number
	if err := gitstore.SetRef(ctx, baseDir, PullHeadRef(number), headSHA); err != nil {
		p.svc.log.ErrorContext(ctx, "keep a pull request's head", "repo", base.ID, "number", number, "err", err)
	}
	// 5. Its assignees, labels and milestone.
	if len(assignees) > 0 || len(o.Labels) > 0 || o.Milestone != 0 {
		edit := chainforge.IssueEdit{Repo: base.ID, Number: number}
		if o.Milestone != 0 {
			edit.Milestone = &o.Milestone
		}
		if len(assignees) > 0 {
			edit.Assignees = &assignees
		}
		if len(o.Labels) > 0 {
			edit.Labels = &o.Labels
		}
		if _, err := p.svc.Do(ctx, actor, edit); err != nil {
			return index.Pull{}, err
		}
	}
	return p.svc.ix.Pull(ctx, base.ID, number)
}

// checkComparable refuses a pull request with nothing to merge.
func (p *Pulls) checkComparable(ctx context.Context, dir, base, head, headBranch, baseBranch string) error {
	mb, err := gitstore.MergeBase(ctx, dir, base, head)
	if err != nil {
		return fmt.Errorf("find the merge base: %w", err)
	}
	if mb == "" {
		return unprocessable("head", "%s and %s share no history; there is nothing to compare", headBranch, baseBranch)
	}
	if mb == head {
		return unprocessable("head", "%s has no commits that %s does not already have", headBranch, baseBranch)
	}
	return nil
}

// Sync brings pr up to date with its head branch: when the branch has
// moved, the new commits are fetched into the base repository and pr.update
// is recorded (as the pull request's author: the author's branch moved).
// It also restores refs/pull/N/head when this node lacks it (a pull
// request opened through another node). Closed and merged pull requests
// stay as they were. Failures to reach git are logged, and pr is returned
// unchanged: a read must not fail because a fork is gone.
func (p *Pulls) Sync(ctx context.Context, base index.Repo, pr index.Pull) index.Pull {
	if pr.Merged || pr.State != chainforge.StateOpen {
		p.ensureHead(ctx, base, pr)
		return pr
	}
	unlock := p.lock(base.ID)
	defer unlock()
	fresh, err := p.svc.ix.Pull(ctx, base.ID, pr.Number) // another sync may have won
	if err != nil {
		return pr
	}
	pr = fresh
	updated, err := p.sync(ctx, base, pr)
	if err != nil {
		p.svc.log.WarnContext(ctx, "follow a pull request's head branch", "repo", base.ID, "number", pr.Number, "err", err)
		p.ensureHead(ctx, base, pr)
		return pr
	}
	return updated
}

func (p *Pulls) sync(ctx context.Context, base index.Repo, pr index.Pull) (index.Pull, error) {
	baseDir, err := p.gitDir(base)
	if err != nil {
		return pr, err
	}
	head, err := p.svc.ix.RepoByID(ctx, pr.HeadRepo)
	if err != nil {
		return pr, fmt.Errorf("read the head repository: %w", err)
	}
	headDir, err := p.gitDir(head)
	if err != nil {
		return pr, err
	}
	tip, ok, err := branchCommit(ctx, headDir, pr.HeadBranch)
	if err != nil || !ok || tip == pr.HeadSHA {
		// Unmoved, or deleted (which leaves the pull request as it was).
		p.ensureHead(ctx, base, pr)
		return pr, err
	}
	if err := gitstore.FetchRef(ctx, baseDir, headDir, tip, PullHeadRef(pr.Number)); err != nil {
		return pr, fmt.Errorf("fetch the new head of #%d: %w", pr.Number, err)
	}
	update := chainforge.PullUpdate{Repo: base.ID, Number: pr.Number, HeadSHA: tip}
	if baseTip, ok, _ := branchCommit(ctx, baseDir, pr.BaseBranch); ok {
		update.BaseSHA = baseTip
	}
	if _, err := p.svc.Do(ctx, common.HexToAddress(pr.Author.Address), update); err != nil {
		return pr, fmt.Errorf("record the new head of #%d: %w", pr.Number, err)
	}
	return p.svc.ix.Pull(ctx, base.ID, pr.Number)
}

// ensureHead makes refs/pull/N/head hold the recorded head when the base
// repository lacks it, fetching from the head repository if need be.
func (p *Pulls) ensureHead(ctx context.Context, base index.Repo, pr index.Pull) {
	baseDir, err := p.gitDir(base)
	if err != nil {
		return
	}
	if id, ok, _ := gitstore.CommitOf(ctx, baseDir, PullHeadRef(pr.Number)); ok && id == pr.HeadSHA {
		return
	}
	if _, ok, _ := gitstore.CommitOf(ctx, baseDir, pr.HeadSHA); !ok {
		head, err := p.svc.ix.RepoByID(ctx, pr.HeadRepo)
		if err != nil {
			return
		}
		headDir, err := p.gitDir(head)
		if err != nil {
			return
		}
		if err := gitstore.FetchRef(ctx, baseDir, headDir, pr.HeadSHA, PullHeadRef(pr.Number)); err != nil {
			p.svc.log.WarnContext(ctx, "fetch a pull request's head", "repo", base.ID, "number", pr.Number, "err", err)
		}
		return
	}
	gitstore.SetRef(ctx, baseDir, PullHeadRef(pr.Number), pr.HeadSHA)
}

// Comparison is what a pull request compares, as git commit ids: From is
// where the head's changes start (the merge base), To is the head.
type Comparison struct {
	Dir      string
	From, To string
}

// Compare gives the commits pr's commits, files and diff are read between.
// An open pull request compares against its base branch as it is now; a
// merged or closed one against the base it was last recorded with.
func (p *Pulls) Compare(ctx context.Context, base index.Repo, pr index.Pull) (Comparison, error) {
	dir, err := p.gitDir(base)
	if err != nil {
		return Comparison{}, err
	}
	p.ensureHead(ctx, base, pr)
	if _, ok, err := gitstore.CommitOf(ctx, dir, pr.HeadSHA); err != nil || !ok {
		return Comparison{}, conflictErr("no_git_data", "the head commit %s of #%d is not on this node", pr.HeadSHA, pr.Number)
	}
	against := pr.BaseSHA
	if !pr.Merged && pr.State == chainforge.StateOpen {
		if tip, ok, _ := branchCommit(ctx, dir, pr.BaseBranch); ok {
			against = tip
		}
	}
	from, err := gitstore.MergeBase(ctx, dir, against, pr.HeadSHA)
	if err != nil {
		return Comparison{}, fmt.Errorf("find the merge base of #%d: %w", pr.Number, err)
	}
	if from == "" {
		from = against
	}
	return Comparison{Dir: dir, From: from, To: pr.HeadSHA}, nil
}

// Mergeability is whether pr merges cleanly into its base branch now.
type Mergeability struct {
	Mergeable bool
	// Conflicts are the files that conflict, when it does not.
	Conflicts []string
	// Reason says why it cannot be merged when there are no conflicts
	// (merged, closed, no common history, no git data here).
	Reason string
}

// Mergeable tells whether pr merges cleanly (git merge-tree).
func (p *Pulls) Mergeable(ctx context.Context, base index.Repo, pr index.Pull) Mergeability {
	switch {
	case pr.Merged:
		return Mergeability{Reason: "merged"}
	case pr.State != chainforge.StateOpen:
		return Mergeability{Reason: "closed"}
	}
	dir, err := p.gitDir(base)
	if err != nil {
		return Mergeability{Reason: "no git data on this node"}
	}
	p.ensureHead(ctx, base, pr)
	tip, ok, err := branchCommit(ctx, dir, pr.BaseBranch)
	if err != nil || !ok {
		return Mergeability{Reason: "the base branch " + pr.BaseBranch + " does not exist"}
	}
	m := p.mergeTree(ctx, dir, tip, pr.HeadSHA)
	switch {
	case errors.Is(m.err, gitstore.ErrUnrelated):
		return Mergeability{Reason: "the branches share no history"}
	case m.err != nil:
		p.svc.log.WarnContext(ctx, "check a pull request merges", "repo", base.ID, "number", pr.Number, "err", m.err)
		return Mergeability{Reason: "the merge could not be checked"}
	case len(m.conflicts) > 0:
		return Mergeability{Conflicts: m.conflicts}
	}
	return Mergeability{Mergeable: true}
}

func (p *Pulls) mergeTree(ctx context.Context, dir, base, head string) mergeability {
	key := [2]string{base, head}
	p.mu.Lock()
	m, ok := p.mergeable[key]
	p.mu.Unlock()
	if ok {
		return m
	}
	tree, conflicts, err := gitstore.MergeTree(ctx, dir, base, head)
	m = mergeability{tree: tree, conflicts: conflicts, err: err}
	if err != nil && !errors.Is(err, gitstore.ErrUnrelated) {
		return m // a passing failure: not remembered
	}
	p.mu.Lock()
	if len(p.mergeable) >= maxMergeableCache {
		clear(p.mergeable)
	}
	p.mergeable[key] = m
	p.mu.Unlock()
	return m
}

// MergeRequest is how to merge: the style and, optionally, the merge or
// squash commit's title and message (Gitea's defaults otherwise), with the
// git identities of the pull request's author (a squash commit's author)
// and of the person merging (every new commit's committer); their times
// are set when the merge is made.
type MergeRequest struct {
	Style     string
	Title     string
	Message   string
	Author    gitstore.Signature
	Committer gitstore.Signature
	// HeadSHA, when set, is the head the person merging saw: a head that
	// has moved since is refused rather than merged unseen.
	HeadSHA string
	// DeleteBranch deletes the head branch once merged, when it is a
	// branch of the base repository other than its default or a protected
	// one, and still at the merged head.
	DeleteBranch bool
}

// ConflictError is a merge refused for conflicts, naming the files.
type ConflictError struct {
	Number uint64
	Files  []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("pull request #%d cannot be merged automatically: %s conflict", e.Number, strings.Join(e.Files, ", "))
}

// Merge merges pull request number of base for actor (see Pulls for the
// order of the steps) and returns it merged.
func (p *Pulls) Merge(ctx context.Context, actor common.Address, base index.Repo, number uint64, req MergeRequest) (index.Pull, error) {
	// 1. Who may merge, before anything is computed.
	perm, err := p.svc.Permission(ctx, base, actor)
	if err != nil {
		return index.Pull{}, fmt.Errorf("read permission: %w", err)
	}
	if perm < PermRead {
		return index.Pull{}, repoNotFound(base.Owner.Username + "/" + base.Name)
	}
	if perm < PermMaintain {
		return index.Pull{}, usererr.Deniedf("merging needs maintain permission on %s; you have %s", base.Name, perm)
	}
	switch req.Style {
	case "":
		req.Style = gitstore.StyleMerge
	case gitstore.StyleMerge, gitstore.StyleSquash, gitstore.StyleRebase, gitstore.StyleRebaseMerge, gitstore.StyleFastForward:
	default:
		return index.Pull{}, unprocessable("Do", "the merge style must be merge, squash, rebase, rebase-merge or fast-forward-only")
	}
	// 2. One merge at a time per repository; the head as it is now.
	pr, err := p.svc.ix.Pull(ctx, base.ID, number)
	if err != nil {
		return index.Pull{}, fmt.Errorf("read pull request #%d: %w", number, err)
	}
	if pr.Merged || pr.State != chainforge.StateOpen {
		return index.Pull{}, conflictErr("conflict", "pull request #%d is already %s", number, map[bool]string{true: "merged", false: "closed"}[pr.Merged])
	}
	pr = p.Sync(ctx, base, pr)
	if req.HeadSHA != "" && req.HeadSHA != pr.HeadSHA {
		return index.Pull{}, conflictErr("head_moved", "the head of #%d is now %s, not %s; review the new commits and merge again", number, pr.HeadSHA, req.HeadSHA)
	}
	unlock := p.lock(base.ID)
	defer unlock()
	dir, err := p.gitDir(base)
	if err != nil {
		return index.Pull{}, err
	}
	p.ensureHead(ctx, base, pr)
	old, ok, err := branchCommit(ctx, dir, pr.BaseBranch)
	if err != nil {
		return index.Pull{}, fmt.Errorf("read the base branch: %w", err)
	}
	if !ok {
		return index.Pull{}, conflictErr("conflict", "the base branch %s no longer exists", pr.BaseBranch)
	}
	// 3. The merge commit(s), made but not yet on any branch.
	req.Author.When, req.Committer.When = time.Now(), time.Now()
	title, message := mergeMessage(pr, req)
	tip, err := gitstore.Merge(ctx, dir, gitstore.MergeOptions{
		Style: req.Style, Base: old, Head: pr.HeadSHA, Message: strings.TrimSpace(title + "\n\n" + message),
		Author: req.Author, Committer: req.Committer,
	})
	var ce *gitstore.ConflictError
	switch {
	case errors.As(err, &ce):
		return index.Pull{}, &ConflictError{Number: number, Files: ce.Files}
	case errors.Is(err, gitstore.ErrUnrelated):
		return index.Pull{}, conflictErr("conflict", "%s and %s share no history", pr.HeadBranch, pr.BaseBranch)
	case errors.Is(err, gitstore.ErrNotFastForward):
		return index.Pull{}, conflictErr("not_fast_forward", "%s cannot be fast-forwarded to %s: it has commits %s does not have; rebase %s or merge with another style",
			pr.BaseBranch, pr.HeadBranch, pr.HeadBranch, pr.HeadBranch)
	case err != nil:
		return index.Pull{}, fmt.Errorf("merge #%d: %w", number, err)
	}
	// 4. The records: the branch's move, from the value this node has (a
	// push another node made first refuses it), then the merge; the chain
	// (or private store) checks the rules again.
	ref := "refs/heads/" + pr.BaseBranch
	if tip != old {
		push := chainforge.RepoPush{Repo: base.ID, Updates: []chainforge.RefChange{{Ref: ref, Old: old, New: tip}}, Merge: number}
		if _, err := p.svc.Do(ctx, actor, push); err != nil {
			if ue, ok := usererr.As(err); ok && ue.Code == "stale_ref" {
				return index.Pull{}, conflictErr("stale_ref", "%s moved while #%d was being merged (another push reached the chain first); merge again", pr.BaseBranch, number)
			}
			return index.Pull{}, fmt.Errorf("record the base branch's move: %w", err)
		}
	}
	if _, err := p.svc.Do(ctx, actor, chainforge.PullMerge{Repo: base.ID, Number: number, Style: req.Style, MergeSHA: tip}); err != nil {
		if tip != old {
			p.svc.log.ErrorContext(ctx, "the base branch of a refused merge moved on chain", "repo", base.ID, "number", number, "tip", tip, "err", err)
			p.moveBase(ctx, base, dir, ref, tip, old)
		}
		return index.Pull{}, fmt.Errorf("record the merge: %w", err)
	}
	// 5. The branch moves here, and its objects become blocks.
	p.moveBase(ctx, base, dir, ref, tip, old)
	// 6. The head branch goes, when asked; the merge stands either way.
	if req.DeleteBranch {
		p.deleteHead(ctx, actor, base, dir, pr)
	}
	return p.svc.ix.Pull(ctx, base.ID, number)
}

// deleteHead deletes a merged pull request's head branch the way a push
// deleting it would: recorded first (repo.push from the merged head to
// nothing, compare-and-swap, which the chain refuses for a protected
// branch or one that moved), then removed here by compare-and-swap. Only a
// branch of the base repository itself, other than its default or a
// protected one, is deleted (a fork's branches are its owner's); the
// actor, a maintainer, may push there. Failures are logged: the merge is
// recorded already.
func (p *Pulls) deleteHead(ctx context.Context, actor common.Address, base index.Repo, dir string, pr index.Pull) {
	if pr.HeadRepo != base.ID || pr.HeadBranch == base.DefaultBranch || pr.HeadBranch == pr.BaseBranch ||
		slices.Contains(base.ProtectedBranches, pr.HeadBranch) {
		return
	}
	log := p.svc.log.With("repo", base.ID, "number", pr.Number, "branch", pr.HeadBranch)
	tip, ok, err := branchCommit(ctx, dir, pr.HeadBranch)
	if err != nil || !ok || tip != pr.HeadSHA {
		// Gone already, or moved since: new commits are not deleted unseen.
		log.InfoContext(ctx, "the head branch of a merge is kept", "tip", tip, "err", err)
		return
	}
	ref := "refs/heads/" + pr.HeadBranch
	push := chainforge.RepoPush{Repo: base.ID, Updates: []chainforge.RefChange{{Ref: ref, Old: tip, New: chainforge.ZeroSHA}}}
	if _, err := p.svc.Do(ctx, actor, push); err != nil {
		log.WarnContext(ctx, "record the deletion of a merged head branch", "err", err)
		return
	}
	if err := gitstore.DeleteRefAt(ctx, dir, ref, tip); err != nil {
		log.ErrorContext(ctx, "delete a merged head branch recorded as deleted", "err", err)
	}
}

// moveBase moves the local base branch to the value the chain took and
// queues the new objects for the blockstore. A branch that moved here
// meanwhile is left for the node's start to bring to the chain's value.
func (p *Pulls) moveBase(ctx context.Context, base index.Repo, dir, ref, tip, old string) {
	if tip == old {
		return
	}
	if err := gitstore.MoveRef(ctx, dir, ref, tip, old); err != nil {
		p.svc.log.ErrorContext(ctx, "move the base branch of a recorded merge", "repo", base.ID, "ref", ref, "err", err)
		return
	}
	if !base.Private && p.blocks != nil {
		if err := p.blocks(dir, []string{tip}, []string{old}); err != nil {
			p.svc.log.ErrorContext(ctx, "queue a merge's objects for the blockstore", "repo", base.ID, "err", err)
		}
	}
}

// mergeMessage is the commit title and message: the request's, else
// Gitea's defaults.
func mergeMessage(pr index.Pull, req MergeRequest) (string, string) {
	title, message := req.Title, req.Message
	if title == "" {
		switch req.Style {
		case gitstore.StyleSquash:
			title = fmt.Sprintf("%s (#%d)", pr.Title, pr.Number)
		default:
			title = fmt.Sprintf("Merge pull request '%s' (#%d) from %s into %s", pr.Title, pr.Number, pr.HeadBranch, pr.BaseBranch)
		}
	}
	if message == "" {
		message = pr.Body
	}
	return title, strings.TrimSpace(message)
}
