package forge

import (
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/rewards"
)

// Review states and merge styles.
const (
	ReviewApprove        = "approve"
	ReviewRequestChanges = "request_changes"
	ReviewCommented      = "comment"

	MergeCommit = "merge"
	MergeSquash = "squash"
	MergeRebase = "rebase"
	// MergeRebaseMerge rebases the head onto the base, then merges it with
	// a merge commit; MergeFastForward moves the base to the head only when
	// the base is in the head's history.
	MergeRebaseMerge = "rebase-merge"
	MergeFastForward = "fast-forward-only"
)

// MergeStyles are the styles pr.merge accepts.
var MergeStyles = []string{MergeCommit, MergeSquash, MergeRebase, MergeRebaseMerge, MergeFastForward}

// PullCreate is the payload of pr.create: merge HeadBranch of HeadRepo
// (Repo itself when 0, or a fork of it) into BaseBranch of Repo (its
// default branch when empty). The shas are the branches' commits when it
// is opened, as the service read them from git.
type PullCreate struct {
	Repo       uint64 `json:"repo"`
	Title      string `json:"title"`
	Body       string `json:"body" text:"body"`
	HeadRepo   uint64 `json:"headRepo"`
	HeadBranch string `json:"headBranch"`
	BaseBranch string `json:"baseBranch"`
	HeadSHA    string `json:"headSha"`
	BaseSHA    string `json:"baseSha"`
}

func pullCreate(s *session, payload []byte) error {
	var p PullCreate
	if err := decode(payload, &p); err != nil {
		return err
	}
	// 1. The base repository, readable by the actor, and the head: the same
	// repository (then the actor must write to it) or a fork of it the
	// actor writes to.
	base, perm, err := s.access(p.Repo, PermRead, "opening a pull request")
	if err != nil {
		return err
	}
	if p.HeadRepo == 0 {
		p.HeadRepo = base.ID
	}
	if p.BaseBranch == "" {
		p.BaseBranch = base.DefaultBranch
	}
	if p.HeadRepo == base.ID {
		if perm < PermWrite {
			return forbidden("a pull request between branches of %s needs write permission; fork it and open one from your fork", base.Name)
		}
	} else {
		head, _, err := s.access(p.HeadRepo, PermWrite, "opening a pull request from a fork")
		if err != nil {
			return err
		}
		if head.ForkOf != base.ID {
			return invalid("headRepo", "must be %s itself or a fork of it", base.Name)
		}
	}
	// 2. The branches and commits.
	if err := ValidateBranch("headBranch", p.HeadBranch); err != nil {
		return err
	}
	if err := ValidateBranch("baseBranch", p.BaseBranch); err != nil {
		return err
	}
	if p.HeadRepo == base.ID && p.HeadBranch == p.BaseBranch {
		return invalid("headBranch", "is the base branch; a pull request merges one branch into another")
	}
	if err := validateSHA("headSha", p.HeadSHA); err != nil {
		return err
	}
	if err := validateSHA("baseSha", p.BaseSHA); err != nil {
		return err
	}
	// 3. One open pull request per head and base, as in Gitea.
	openKey := openPullKey(base.ID, p.HeadRepo, p.HeadBranch, p.BaseBranch)
	if n, err := s.getID(openKey); err != nil {
		return err
	} else if n != 0 {
		return conflict("pull request #%d already proposes %s into %s", n, p.HeadBranch, p.BaseBranch)
	}
	// 4. The conversation (numbered with the issues) and the pull request.
	is := &Issue{Repo: base.ID, IsPull: true, Author: s.actor, Title: p.Title, Body: p.Body}
	if err := s.openIssue(base, PermRead, is); err != nil {
		return err
	}
	pr := &Pull{Repo: base.ID, Number: is.Number, HeadRepo: p.HeadRepo, HeadBranch: p.HeadBranch, BaseBranch: p.BaseBranch, HeadSHA: p.HeadSHA, BaseSHA: p.BaseSHA}
	if err := s.savePull(pr); err != nil {
		return err
	}
	if err := s.kv.Set(openKey, u64(is.Number)); err != nil {
		return err
	}
	return s.saveRepo(base)
}

func openPullKey(base, head uint64, headBranch, baseBranch string) []byte {
	return key([]byte("openpr"), u64(base), u64(head), []byte(headBranch), []byte{0}, []byte(baseBranch))
}

// setOpen records whether pr is open, for the one-open-pull-request rule.
func (s *session) setOpen(pr *Pull, open bool) error {
	k := openPullKey(pr.Repo, pr.HeadRepo, pr.HeadBranch, pr.BaseBranch)
	if !open {
		return s.kv.Set(k, none)
	}
	if n, err := s.getID(k); err != nil {
		return err
	} else if n != 0 && n != pr.Number {
		return conflict("pull request #%d already proposes %s into %s", n, pr.HeadBranch, pr.BaseBranch)
	}
	return s.kv.Set(k, u64(pr.Number))
}

// PullUpdate is the payload of pr.update: new commits on the head branch
// (and, when given, a moved base).
type PullUpdate struct {
	Repo    uint64 `json:"repo"`
	Number  uint64 `json:"number"`
	HeadSHA string `json:"headSha"`
	BaseSHA string `json:"baseSha"`
}

func pullUpdate(s *session, payload []byte) error {
	var p PullUpdate
	if err := decode(payload, &p); err != nil {
		return err
	}
	base, _, err := s.access(p.Repo, PermRead, "updating a pull request")
	if err != nil {
		return err
	}
	is, pr, err := s.pullRequest(base, p.Number)
	if err != nil {
		return err
	}
	// Whoever may push to the head branch moves it; so may the author.
	if is.Author != s.actor {
		if _, _, err := s.access(pr.HeadRepo, PermWrite, "updating a pull request"); err != nil {
			return err
		}
	}
	if pr.Merged {
		return conflict("pull request #%d is merged", pr.Number)
	}
	if err := validateSHA("headSha", p.HeadSHA); err != nil {
		return err
	}
	pr.HeadSHA = p.HeadSHA
	if p.BaseSHA != "" {
		if err := validateSHA("baseSha", p.BaseSHA); err != nil {
			return err
		}
		pr.BaseSHA = p.BaseSHA
	}
	if err := s.savePull(pr); err != nil {
		return err
	}
	return s.saveIssue(is)
}

// pullRequest loads pull request number of base with its conversation.
func (s *session) pullRequest(base *Repo, number uint64) (*Issue, *Pull, error) {
	is, err := s.issue(base.ID, number)
	if err != nil {
		return nil, nil, err
	}
	if !is.IsPull {
		return nil, nil, notFound("%s has no pull request #%d (it is an issue)", base.Name, number)
	}
	pr, err := s.pull(base.ID, number)
	return is, pr, err
}

// PullReview is the payload of pr.review.
type PullReview struct {
	Repo      uint64              `json:"repo"`
	Number    uint64              `json:"number"`
	State     string              `json:"state"`
	Body      string              `json:"body" text:"body"`
	CommitSHA string              `json:"commitSha"`
	Comments  []PullReviewComment `json:"comments"`
}

// PullReviewComment is one inline comment of a review.
type PullReviewComment struct {
	Path string `json:"path"`
	Line uint64 `json:"line"`
	Side string `json:"side"`
	Body string `json:"body" text:"body"`
}

func pullReview(s *session, payload []byte) error {
	var p PullReview
	if err := decode(payload, &p); err != nil {
		return err
	}
	base, _, err := s.access(p.Repo, PermRead, "reviewing")
	if err != nil {
		return err
	}
	is, pr, err := s.pullRequest(base, p.Number)
	if err != nil {
		return err
	}
	if err := checkReview(p); err != nil {
		return err
	}
	if p.State != ReviewCommented {
		if is.Author == s.actor {
			return forbidden("you cannot approve or request changes on your own pull request; comment instead")
		}
		if pr.Merged || is.State == StateClosed {
			return conflict("pull request #%d is %s; only comments are taken now", pr.Number, mergedOrClosed(pr))
		}
	}
	id, err := s.nextID("review")
	if err != nil {
		return err
	}
	rv := &Review{ID: id, Repo: base.ID, Number: pr.Number, Author: s.actor, State: p.State, Body: p.Body, CommitSHA: p.CommitSHA, Comments: []ReviewComment{}}
	if s.reviewed(pr, p.State != ReviewCommented) && p.State == ReviewCommented {
		if err := s.savePull(pr); err != nil {
			return err
		}
	}
	if p.State != ReviewCommented {
		// The latest verdict of each reviewer decides who approved at merge.
		pr.Approvers = slices.DeleteFunc(pr.Approvers, func(a common.Address) bool { return a == s.actor })
		if p.State == ReviewApprove {
			pr.Approvers = append(pr.Approvers, s.actor)
		}
		if err := s.savePull(pr); err != nil {
			return err
		}
	}
	for _, c := range p.Comments {
		cid, err := s.nextID("comment")
		if err != nil {
			return err
		}
		rv.Comments = append(rv.Comments, ReviewComment{ID: cid, Path: c.Path, Line: c.Line, Side: c.Side, Body: c.Body})
	}
	s.change.Review = rv
	return s.saveIssue(is)
}

func checkReview(p PullReview) error {
	switch p.State {
	case ReviewApprove:
	case ReviewRequestChanges:
		if strings.TrimSpace(p.Body) == "" {
			return invalid("body", "must say what to change")
		}
	case ReviewCommented:
		if strings.TrimSpace(p.Body) == "" && len(p.Comments) == 0 {
			return invalid("body", "a comment review needs a body or inline comments")
		}
	default:
		return invalid("state", "must be approve, request_changes or comment")
	}
	if err := validateText("body", p.Body, MaxBody); err != nil {
		return err
	}
	if err := validateSHA("commitSha", p.CommitSHA); err != nil {
		return err
	}
	if len(p.Comments) > MaxReviewComments {
		return invalid("comments", "may hold at most %d inline comments", MaxReviewComments)
	}
	for _, c := range p.Comments {
		if c.Path == "" || len(c.Path) > MaxPath || strings.ContainsRune(c.Path, 0) || strings.HasPrefix(c.Path, "/") {
			return invalid("comments", "path %q must be a file path in the repository of 1 to %d bytes", c.Path, MaxPath)
		}
		if c.Line == 0 {
			return invalid("comments", "line must be 1 or more")
		}
		if c.Side != "old" && c.Side != "new" {
			return invalid("comments", "side must be old or new")
		}
		if strings.TrimSpace(c.Body) == "" {
			return invalid("comments", "an inline comment must have a body")
		}
		if err := validateText("comments", c.Body, MaxBody); err != nil {
			return err
		}
	}
	return nil
}

func mergedOrClosed(pr *Pull) string {
	if pr.Merged {
		return "merged"
	}
	return "closed"
}

// PullMerge is the payload of pr.merge, sent once git has made MergeSHA on
// the base branch in the given style.
type PullMerge struct {
	Repo     uint64 `json:"repo"`
	Number   uint64 `json:"number"`
	Style    string `json:"style"`
	MergeSHA string `json:"mergeSha"`
}

func pullMerge(s *session, payload []byte) error {
	var p PullMerge
	if err := decode(payload, &p); err != nil {
		return err
	}
	base, _, err := s.access(p.Repo, PermMaintain, "merging")
	if err != nil {
		return err
	}
	is, pr, err := s.pullRequest(base, p.Number)
	if err != nil {
		return err
	}
	if pr.Merged || is.State == StateClosed {
		return conflict("pull request #%d is already %s", pr.Number, mergedOrClosed(pr))
	}
	if !slices.Contains(MergeStyles, p.Style) {
		return invalid("style", "must be merge, squash, rebase, rebase-merge or fast-forward-only")
	}
	if err := validateSHA("mergeSha", p.MergeSHA); err != nil {
		return err
	}
	if err := s.checkMergeRule(base, pr); err != nil {
		return err
	}
	pr.Merged, pr.MergeSHA, pr.MergeStyle, pr.MergedBy, pr.MergedHeight = true, p.MergeSHA, p.Style, s.actor, s.env.Height
	if err := s.setOpen(pr, false); err != nil {
		return err
	}
	s.moveOpenCount(base, is, StateClosed)
	is.State, is.StateReason, is.ClosedHeight = StateClosed, ReasonMerged, s.env.Height
	if err := s.savePull(pr); err != nil {
		return err
	}
	if err := s.saveIssue(is); err != nil {
		return err
	}
	if err := s.mergeContributions(base, is, pr); err != nil {
		return err
	}
	return s.saveRepo(base)
}

// mergeContributions reports what a merge accepted: the pull request, its
// approving reviews, and the issues it closes ("fixes #3").
func (s *session) mergeContributions(base *Repo, is *Issue, pr *Pull) error {
	if err := s.addContributor(base, is.Author); err != nil {
		return err
	}
	reason := ""
	if is.Author == s.actor {
		reason = rewards.ReasonSelfMerge
	}
	s.contribute(base, rewards.KindPR, is.Author, is.Number, "", reason)
	for _, a := range pr.Approvers {
		reason := ""
		if a == is.Author {
			reason = rewards.ReasonOwnReview
		}
		s.contribute(base, rewards.KindReview, a, is.Number, "", reason)
	}
	for _, n := range closingRefs(is.Title + "\n" + is.Body) {
		target, err := s.issue(base.ID, n)
		if err != nil || target.IsPull || target.State != StateOpen {
			continue // a reference to nothing closable closes nothing
		}
		s.moveOpenCount(base, target, StateClosed)
		target.State, target.StateReason, target.ClosedHeight, target.UpdatedHeight = StateClosed, ReasonCompleted, s.env.Height, s.env.Height
		if err := s.putJSON(issueKey(base.ID, n), target); err != nil {
			return err
		}
		s.change.ClosedIssues = append(s.change.ClosedIssues, *target)
		s.issueClosedAsCompleted(base, target, is.Author)
	}
	return nil
}
