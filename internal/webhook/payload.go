package webhook

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/gitea/structs"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// The payloads, in Gitea's shapes (modules/structs/hook.go): the fields
// its clients read, with dForge's values. The users, repositories,
// issues, pull requests, comments and releases in them are the API's own
// shapes (internal/gitea/structs), filled by the same converters
// (internal/gitea/convert) where both start from the same record.

type pushPayload struct {
	Ref          string                  `json:"ref"`
	Before       string                  `json:"before"`
	After        string                  `json:"after"`
	CompareURL   string                  `json:"compare_url"`
	Commits      []structs.PayloadCommit `json:"commits"`
	TotalCommits int                     `json:"total_commits"`
	HeadCommit   *structs.PayloadCommit  `json:"head_commit"`
	Repo         *structs.Repository     `json:"repository"`
	Pusher       *structs.User           `json:"pusher"`
	Sender       *structs.User           `json:"sender"`
}

type createPayload struct {
	Sha     string              `json:"sha"`
	Ref     string              `json:"ref"`
	RefType string              `json:"ref_type"`
	Repo    *structs.Repository `json:"repository"`
	Sender  *structs.User       `json:"sender"`
}

type deletePayload struct {
	Ref        string              `json:"ref"`
	RefType    string              `json:"ref_type"`
	PusherType string              `json:"pusher_type"`
	Repo       *structs.Repository `json:"repository"`
	Sender     *structs.User       `json:"sender"`
}

type forkPayload struct {
	Forkee *structs.Repository `json:"forkee"`
	Repo   *structs.Repository `json:"repository"`
	Sender *structs.User       `json:"sender"`
}

type repositoryPayload struct {
	Action string              `json:"action"`
	Repo   *structs.Repository `json:"repository"`
	Sender *structs.User       `json:"sender"`
}

// changesJSON is Gitea's ChangesPayload: what an edit replaced.
type changesJSON struct {
	Title *changeFrom `json:"title,omitempty"`
	Body  *changeFrom `json:"body,omitempty"`
}

type changeFrom struct {
	From string `json:"from"`
}

type issuePayload struct {
	Action   string              `json:"action"`
	Number   uint64              `json:"number"`
	Changes  *changesJSON        `json:"changes,omitempty"`
	Issue    *structs.Issue      `json:"issue"`
	Repo     *structs.Repository `json:"repository"`
	Sender   *structs.User       `json:"sender"`
	CommitID string              `json:"commit_id"`
}

type issueCommentPayload struct {
	Action      string               `json:"action"`
	Issue       *structs.Issue       `json:"issue"`
	PullRequest *structs.PullRequest `json:"pull_request,omitempty"`
	Comment     *structs.Comment     `json:"comment"`
	Repo        *structs.Repository  `json:"repository"`
	Sender      *structs.User        `json:"sender"`
	IsPull      bool                 `json:"is_pull"`
}

type reviewJSON struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

type pullPayload struct {
	Action            string               `json:"action"`
	Number            uint64               `json:"number"`
	Changes           *changesJSON         `json:"changes,omitempty"`
	PullRequest       *structs.PullRequest `json:"pull_request"`
	RequestedReviewer *structs.User        `json:"requested_reviewer"`
	Repo              *structs.Repository  `json:"repository"`
	Sender            *structs.User        `json:"sender"`
	CommitID          string               `json:"commit_id"`
	Review            *reviewJSON          `json:"review"`
}

// releasePayload is Gitea's ReleasePayload.
type releasePayload struct {
	Action  string              `json:"action"`
	Release *structs.Release    `json:"release"`
	Repo    *structs.Repository `json:"repository"`
	Sender  *structs.User       `json:"sender"`
}

// statusPayload is Gitea's CommitStatusPayload (the status event Gitea
// added after 1.22, in GitHub's shape).
type statusPayload struct {
	Commit      *structs.PayloadCommit `json:"commit"`
	Context     string                 `json:"context"`
	CreatedAt   string                 `json:"created_at"`
	Description string                 `json:"description"`
	ID          uint64                 `json:"id"`
	Repo        *structs.Repository    `json:"repository"`
	Sender      *structs.User          `json:"sender"`
	SHA         string                 `json:"sha"`
	State       string                 `json:"state"`
	TargetURL   string                 `json:"target_url"`
	UpdatedAt   *string                `json:"updated_at"`
}

// renderer builds payloads; reads resolve names and repositories.
type renderer struct {
	base  string
	index *index.Index
	dirs  Dirs
}

func (r renderer) user(ctx context.Context, a common.Address) *structs.User {
	name, err := r.index.Username(ctx, a)
	if err != nil || name == "" {
		name = names.Default(a)
	}
	id, _ := r.index.UserID(ctx, a) // a failed read leaves 0 rather than no payload
	u := convert.User(r.base, id, name, a.Hex())
	return &u
}

func (r renderer) repoRecord(ctx context.Context, rec index.Repo) *structs.Repository {
	j := convert.Repo(r.base, *r.user(ctx, rec.OwnerAddress()), rec)
	return &j
}

// deletedRepo is the record the change kept of a repository the index no
// longer projects, as the index would read it. Gitea's times are given
// for a repository (its clients parse them); the change keeps none, so
// they are Gitea's time for one it does not show.
func deletedRepo(rec forge.Repo) index.Repo {
	return index.Repo{ID: rec.ID, Owner: index.User{Address: rec.Owner.Hex()}, Name: rec.Name, Description: rec.Description,
		DefaultBranch: rec.DefaultBranch, ProtectedBranches: rec.ProtectedBranches, Private: rec.Private, ForkOf: rec.ForkOf,
		Stars: rec.Stars, Forks: rec.Forks, Watchers: rec.Watchers, OpenIssues: rec.OpenIssues, OpenPulls: rec.OpenPulls,
		CreatedHeight: int64(rec.CreatedHeight), Created: convert.Unshown, UpdatedHeight: int64(rec.UpdatedHeight), Updated: convert.Unshown,
		Topics: rec.Topics, Website: rec.Website}
}

// repo is repository id as projected now, or as the change last
// recorded it (a deleted repository).
func (r renderer) repo(ctx context.Context, c forge.Change, id uint64) (*structs.Repository, error) {
	for _, rec := range c.Repos {
		if rec.ID == id && rec.Deleted {
			return r.repoRecord(ctx, deletedRepo(rec)), nil
		}
	}
	rec, err := r.index.RepoByID(ctx, id)
	if err != nil {
		for _, rec := range c.Repos {
			if rec.ID == id {
				return r.repoRecord(ctx, deletedRepo(rec)), nil
			}
		}
		return nil, fmt.Errorf("read repository %d: %w", id, err)
	}
	return r.repoRecord(ctx, rec), nil
}

func stamp(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339) }

// render builds the payload of a queued delivery.
func (r renderer) render(ctx context.Context, eventType string, src source) (any, error) {
	c := src.Change
	sender := r.user(ctx, c.Actor)
	switch eventType {
	case "push", "create", "delete":
		return r.refPayload(ctx, eventType, src, sender)
	case "repository":
		repo, err := r.repo(ctx, c, c.RepoID())
		if err != nil {
			return nil, err
		}
		action := "created"
		if c.Action == "repo.delete" {
			action = "deleted"
		}
		return repositoryPayload{Action: action, Repo: repo, Sender: sender}, nil
	case "fork":
		return r.forkPayload(ctx, c, sender)
	case "issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment", "pull_request_comment":
		return r.issuePayload(ctx, eventType, src, sender)
	case "release":
		return r.releasePayload(ctx, src, sender)
	case "status":
		return r.statusPayload(ctx, src, sender)
	}
	return r.pullPayload(ctx, eventType, src, sender)
}

func (r renderer) forkPayload(ctx context.Context, c forge.Change, sender *structs.User) (any, error) {
	fork, err := r.repo(ctx, c, c.RepoID())
	if err != nil {
		return nil, err
	}
	var src uint64
	for _, rec := range c.Repos {
		if rec.ForkOf != 0 {
			src = rec.ForkOf
		}
	}
	forkee, err := r.repo(ctx, c, src)
	if err != nil {
		return nil, err
	}
	return forkPayload{Forkee: forkee, Repo: fork, Sender: sender}, nil
}

// refUpdate is the change's update of ref.
func refUpdate(c forge.Change, ref string) (forge.RefUpdate, bool) {
	if c.Ref != nil && c.Ref.Ref == ref {
		return *c.Ref, true
	}
	for _, u := range c.Refs {
		if u.Ref == ref {
			return u, true
		}
	}
	return forge.RefUpdate{}, false
}

func refName(ref string) (short, kind string) {
	if s, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		return s, "branch"
	}
	if s, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
		return s, "tag"
	}
	return ref, "ref"
}

func (r renderer) refPayload(ctx context.Context, eventType string, src source, sender *structs.User) (any, error) {
	u, ok := refUpdate(src.Change, src.Ref)
	if !ok {
		return nil, fmt.Errorf("the push has no update of %s", src.Ref)
	}
	repo, err := r.repo(ctx, src.Change, u.Repo)
	if err != nil {
		return nil, err
	}
	short, kind := refName(u.Ref)
	switch eventType {
	case "create":
		return createPayload{Sha: u.New, Ref: short, RefType: kind, Repo: repo, Sender: sender}, nil
	case "delete":
		return deletePayload{Ref: short, RefType: kind, PusherType: "user", Repo: repo, Sender: sender}, nil
	}
	commits := r.commits(ctx, repo, u)
	p := pushPayload{Ref: u.Ref, Before: u.Old, After: u.New, CompareURL: repo.HTMLURL + "/compare/" + u.Old + "..." + u.New,
		Commits: commits, TotalCommits: len(commits), Repo: repo, Pusher: sender, Sender: sender}
	if u.Old == forge.ZeroSHA {
		p.CompareURL = ""
	}
	if len(commits) > 0 {
		p.HeadCommit = &commits[0]
	}
	return p, nil
}

// maxPushCommits is how many commits a push payload lists, as Gitea's
// setting.UI.FeedMaxCommitNum.
const maxPushCommits = 20

// commits are the commits a push added, newest first; none when this node
// has no git data for the repository.
func (r renderer) commits(ctx context.Context, repo *structs.Repository, u forge.RefUpdate) []structs.PayloadCommit {
	out := []structs.PayloadCommit{}
	if r.dirs == nil || u.New == forge.ZeroSHA {
		return out
	}
	dir, err := r.dirs.Dir(ctx, u.Repo)
	if err != nil {
		return out
	}
	rev, limit := u.New, maxPushCommits
	switch u.Old {
	case forge.ZeroSHA:
	case u.New: // a test delivery: the head alone
		limit = 1
	default:
		rev = u.Old + ".." + u.New
	}
	log, err := gitstore.Log(ctx, dir, rev, gitstore.LogOptions{Limit: limit, Files: true})
	if err != nil {
		return out
	}
	for _, c := range log {
		out = append(out, convert.PayloadCommit(repo.HTMLURL, c, true))
	}
	return out
}

// issueRecord is the change's issue, or the projected one.
func (r renderer) issueRecord(ctx context.Context, c forge.Change) (forge.Issue, error) {
	if c.Issue != nil {
		return *c.Issue, nil
	}
	repo, number := uint64(0), uint64(0)
	switch {
	case c.Comment != nil:
		repo, number = c.Comment.Repo, c.Comment.Number
	case c.Pull != nil:
		repo, number = c.Pull.Repo, c.Pull.Number
	case c.Review != nil:
		repo, number = c.Review.Repo, c.Review.Number
	default:
		return forge.Issue{}, errors.New("the change names no issue")
	}
	is, err := r.index.Issue(ctx, repo, number)
	if err != nil {
		return forge.Issue{}, fmt.Errorf("read issue %d#%d: %w", repo, number, err)
	}
	out := forge.Issue{Repo: is.Repo, Number: is.Number, IsPull: is.IsPull, Author: common.HexToAddress(is.Author.Address),
		Title: is.Title, Body: is.Body, State: is.State, Comments: is.Comments, Milestone: is.MilestoneID}
	for _, l := range is.Labels {
		out.Labels = append(out.Labels, l.ID)
	}
	for _, a := range is.Assignees {
		out.Assignees = append(out.Assignees, common.HexToAddress(a.Address))
	}
	return out, nil
}

// labels are the issue's labels as the repository defines them now (a
// label deleted since is left out).
func (r renderer) labels(ctx context.Context, repo *structs.Repository, is forge.Issue) []structs.Label {
	out := []structs.Label{}
	if len(is.Labels) == 0 {
		return out
	}
	defined, err := r.index.Labels(ctx, is.Repo)
	if err != nil {
		return out
	}
	for _, l := range defined {
		if slices.Contains(is.Labels, l.ID) {
			out = append(out, convert.Label(repo.URL, l))
		}
	}
	return out
}

// milestone is the issue's milestone, nil for none.
func (r renderer) milestone(ctx context.Context, is forge.Issue) *structs.Milestone {
	if is.Milestone == 0 {
		return nil
	}
	m, err := r.index.MilestoneByID(ctx, is.Repo, is.Milestone)
	if err != nil {
		return nil
	}
	j := convert.Milestone(m)
	return &j
}

// issue is Gitea's Issue of is as of the event at (its last change);
// created is when the index says it was opened, the event's time when it
// cannot tell.
func (r renderer) issue(ctx context.Context, repo *structs.Repository, is forge.Issue, at int64, pull *forge.Pull) *structs.Issue {
	kind := "issues"
	if is.IsPull {
		kind = "pulls"
	}
	n := strconv.FormatUint(is.Number, 10)
	j := &structs.Issue{ID: convert.IssueID(is.Repo, is.Number), URL: repo.URL + "/issues/" + n, HTMLURL: repo.HTMLURL + "/" + kind + "/" + n,
		Number: is.Number, User: *r.user(ctx, is.Author), Title: is.Title, Body: is.Body, Assets: []struct{}{}, Labels: r.labels(ctx, repo, is),
		State: is.State, Milestone: r.milestone(ctx, is), Comments: is.Comments, Assignees: []structs.User{}, Created: stamp(at), Updated: stamp(at),
		Repository: structs.RepositoryMeta{ID: repo.ID, Name: repo.Name, Owner: repo.Owner.Login, FullName: repo.FullName}}
	if projected, err := r.index.Issue(ctx, is.Repo, is.Number); err == nil && projected.Created != "" {
		j.Created = projected.Created
	}
	for _, a := range is.Assignees {
		j.Assignees = append(j.Assignees, *r.user(ctx, a))
	}
	if len(j.Assignees) > 0 {
		j.Assignee = &j.Assignees[0]
	}
	if is.State == forge.StateClosed {
		t := stamp(at)
		j.Closed = &t
	}
	if pull != nil {
		j.PullRequest = &structs.PullRequestMeta{Merged: pull.Merged, HTMLURL: j.HTMLURL}
		if pull.Merged {
			t := stamp(at)
			j.PullRequest.MergedAt = &t
		}
	}
	return j
}

func (r renderer) issuePayload(ctx context.Context, eventType string, src source, sender *structs.User) (any, error) {
	c := src.Change
	is, err := r.issueRecord(ctx, c)
	if err != nil {
		return nil, err
	}
	repo, err := r.repo(ctx, c, is.Repo)
	if err != nil {
		return nil, err
	}
	issue := r.issue(ctx, repo, is, src.TimeNS, nil)
	if eventType != "issue_comment" && eventType != "pull_request_comment" {
		return issuePayload{Action: actionOf(src), Number: is.Number, Changes: src.Changes, Issue: issue, Repo: repo, Sender: sender}, nil
	}
	if c.Comment == nil {
		return nil, errors.New("a comment event without its comment")
	}
	cm := &structs.Comment{ID: c.Comment.ID, HTMLURL: issue.HTMLURL + "#issuecomment-" + strconv.FormatUint(c.Comment.ID, 10),
		IssueURL: issue.HTMLURL, User: *r.user(ctx, c.Comment.Author), Body: c.Comment.Body, Assets: []struct{}{},
		Created: stamp(src.TimeNS), Updated: stamp(src.TimeNS)}
	p := issueCommentPayload{Action: "created", Issue: issue, Comment: cm, Repo: repo, Sender: sender, IsPull: is.IsPull}
	if is.IsPull {
		cm.PullRequestURL = issue.HTMLURL
		if pr, err := r.pullRecord(ctx, c, is); err == nil {
			p.PullRequest = r.pull(ctx, repo, is, pr, src.TimeNS)
		}
	}
	return p, nil
}

// actionOf is the payload's action: the one the occurrence named, else
// the forge action's.
func actionOf(src source) string {
	if src.Action != "" {
		return src.Action
	}
	return issueAction(src.Change.Action)
}

// issueAction is Gitea's HookIssueAction for a forge action.
func issueAction(action string) string {
	switch action {
	case "issue.create", "pr.create":
		return "opened"
	case "issue.close", "pr.close", "pr.merge":
		return "closed"
	case "issue.reopen", "pr.reopen":
		return "reopened"
	case "pr.update":
		return "synchronized"
	case "pr.review":
		return "reviewed"
	}
	return "edited"
}

// pullRecord is the change's pull request, or the projected one.
func (r renderer) pullRecord(ctx context.Context, c forge.Change, is forge.Issue) (forge.Pull, error) {
	if c.Pull != nil {
		return *c.Pull, nil
	}
	p, err := r.index.Pull(ctx, is.Repo, is.Number)
	if err != nil {
		return forge.Pull{}, fmt.Errorf("read pull request %d#%d: %w", is.Repo, is.Number, err)
	}
	out := forge.Pull{Repo: is.Repo, Number: is.Number, HeadRepo: p.HeadRepo, HeadBranch: p.HeadBranch, BaseBranch: p.BaseBranch,
		HeadSHA: p.HeadSHA, BaseSHA: p.BaseSHA, Merged: p.Merged, MergeSHA: p.MergeSHA}
	if p.MergedBy != nil {
		out.MergedBy = common.HexToAddress(p.MergedBy.Address)
	}
	return out, nil
}

func (r renderer) pull(ctx context.Context, repo *structs.Repository, is forge.Issue, pr forge.Pull, at int64) *structs.PullRequest {
	issue := r.issue(ctx, repo, is, at, &pr)
	j := &structs.PullRequest{ID: issue.ID, URL: repo.URL + "/pulls/" + strconv.FormatUint(is.Number, 10), Number: is.Number, User: issue.User,
		Title: is.Title, Body: is.Body, Labels: issue.Labels, Milestone: issue.Milestone, Assignee: issue.Assignee, Assignees: issue.Assignees,
		RequestedReviewers: []structs.User{}, State: is.State, Comments: is.Comments, HTMLURL: issue.HTMLURL, DiffURL: issue.HTMLURL + ".diff",
		PatchURL: issue.HTMLURL + ".patch", Mergeable: !pr.Merged && is.State == forge.StateOpen, ConflictedFiles: []string{}, Merged: pr.Merged,
		Created: issue.Created, Updated: issue.Updated, Closed: issue.Closed,
		Base: structs.PRBranchInfo{Label: pr.BaseBranch, Ref: pr.BaseBranch, SHA: pr.BaseSHA, RepoID: repo.ID, Repo: repo},
		Head: structs.PRBranchInfo{Label: pr.HeadBranch, Ref: pr.HeadBranch, SHA: pr.HeadSHA, RepoID: pr.HeadRepo, Repo: repo},
	}
	if pr.HeadRepo != 0 && pr.HeadRepo != repo.ID {
		if head, err := r.repo(ctx, forge.Change{}, pr.HeadRepo); err == nil {
			j.Head.Repo = head
			j.Head.Label = head.Owner.Login + ":" + pr.HeadBranch
		}
	}
	if pr.Merged {
		j.MergedAt, j.MergeCommitSHA = issue.PullRequest.MergedAt, &pr.MergeSHA
		j.MergedBy = r.user(ctx, pr.MergedBy)
	}
	return j
}

func (r renderer) pullPayload(ctx context.Context, eventType string, src source, sender *structs.User) (any, error) {
	c := src.Change
	is, err := r.issueRecord(ctx, c)
	if err != nil {
		return nil, err
	}
	repo, err := r.repo(ctx, c, is.Repo)
	if err != nil {
		return nil, err
	}
	pr, err := r.pullRecord(ctx, c, is)
	if err != nil {
		return nil, err
	}
	p := pullPayload{Action: actionOf(src), Number: is.Number, Changes: src.Changes, PullRequest: r.pull(ctx, repo, is, pr, src.TimeNS),
		Repo: repo, Sender: sender, CommitID: pr.HeadSHA}
	if src.Reviewer != nil {
		p.RequestedReviewer = r.user(ctx, *src.Reviewer)
	}
	if c.Review != nil {
		p.Action = "reviewed"
		p.Review = &reviewJSON{Type: eventType, Content: c.Review.Body}
	}
	return p, nil
}

// releasePayload is Gitea's release event: the release as the change
// recorded it (a deleted one is no longer projected), with the times the
// index keeps when it still has it.
func (r renderer) releasePayload(ctx context.Context, src source, sender *structs.User) (any, error) {
	rel := src.Change.Release
	if rel == nil {
		return nil, errors.New("a release event without its release")
	}
	repo, err := r.repo(ctx, src.Change, rel.Repo)
	if err != nil {
		return nil, err
	}
	created := src.TimeNS
	downloads := map[uint64]int64{}
	if projected, err := r.index.ReleaseByID(ctx, rel.Repo, rel.ID); err == nil {
		created = projected.CreatedNS
		for _, as := range projected.Assets {
			downloads[as.ID] = as.Downloads
		}
	}
	record := index.Release{ID: rel.ID, Repo: rel.Repo, TagName: rel.TagName, Target: rel.Target, Title: rel.Title, Note: rel.Note,
		Draft: rel.Draft, Prerelease: rel.Prerelease, Publisher: rel.Publisher.Hex(), CreatedNS: created}
	for _, as := range rel.Assets {
		record.Assets = append(record.Assets, index.Asset{ID: as.ID, Release: rel.ID, Name: as.Name, Size: as.Size, CID: as.CID,
			SHA256: as.SHA256, Downloads: downloads[as.ID]})
	}
	j := convert.Release(r.base, repo.FullName, *r.user(ctx, rel.Publisher), record)
	return releasePayload{Action: actionOf(src), Release: &j, Repo: repo, Sender: sender}, nil
}

// statusPayload is Gitea's status event for a commit status set, with
// the commit from the git data here (nil when this node has none).
func (r renderer) statusPayload(ctx context.Context, src source, sender *structs.User) (any, error) {
	st := src.Change.Status
	if st == nil {
		return nil, errors.New("a status event without its status")
	}
	repo, err := r.repo(ctx, src.Change, st.Repo)
	if err != nil {
		return nil, err
	}
	p := statusPayload{Context: st.Context, CreatedAt: stamp(src.TimeNS), Description: st.Description, ID: st.ID, Repo: repo,
		Sender: sender, SHA: st.SHA, State: st.State, TargetURL: st.TargetURL}
	updated := p.CreatedAt
	p.UpdatedAt = &updated
	if commits := r.commits(ctx, repo, forge.RefUpdate{Repo: st.Repo, Old: st.SHA, New: st.SHA}); len(commits) > 0 {
		p.Commit = &commits[0]
	}
	return p, nil
}
