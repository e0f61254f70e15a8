package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// The payloads, in Gitea's shapes (modules/structs/hook.go): the fields
// its clients read, with dForge's values.

// userJSON is Gitea's User as the API's users inside other answers are
// (internal/api forgeUserJSON): the fields every dForge account fills the
// same way (a wallet signs itself in, every profile is public, a time
// Gitea does not show is the Unix epoch), username repeating login.
type userJSON struct {
	ID            int64  `json:"id"`
	Login         string `json:"login"`
	LoginName     string `json:"login_name"`
	FullName      string `json:"full_name"`
	Email         string `json:"email"`
	AvatarURL     string `json:"avatar_url"`
	HTMLURL       string `json:"html_url"`
	UserName      string `json:"username"`
	IsAdmin       bool   `json:"is_admin"`
	SourceID      int64  `json:"source_id"`
	Active        bool   `json:"active"`
	ProhibitLogin bool   `json:"prohibit_login"`
	Restricted    bool   `json:"restricted"`
	Language      string `json:"language"`
	LastLogin     string `json:"last_login"`
	Visibility    string `json:"visibility"`
}

type repoJSON struct {
	ID              uint64    `json:"id"`
	Owner           *userJSON `json:"owner"`
	Name            string    `json:"name"`
	FullName        string    `json:"full_name"`
	Description     string    `json:"description"`
	Private         bool      `json:"private"`
	Fork            bool      `json:"fork"`
	HTMLURL         string    `json:"html_url"`
	URL             string    `json:"url"`
	CloneURL        string    `json:"clone_url"`
	DefaultBranch   string    `json:"default_branch"`
	Stars           uint64    `json:"stars_count"`
	Forks           uint64    `json:"forks_count"`
	Watchers        uint64    `json:"watchers_count"`
	OpenIssues      uint64    `json:"open_issues_count"`
	OpenPulls       uint64    `json:"open_pr_counter"`
	CreatedAt       string    `json:"created_at,omitempty"`
	UpdatedAt       string    `json:"updated_at,omitempty"`
	HasIssues       bool      `json:"has_issues"`
	HasPullRequests bool      `json:"has_pull_requests"`
}

type payloadUser struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

type payloadCommit struct {
	ID        string       `json:"id"`
	Message   string       `json:"message"`
	URL       string       `json:"url"`
	Author    *payloadUser `json:"author"`
	Committer *payloadUser `json:"committer"`
	Timestamp string       `json:"timestamp"`
	Added     []string     `json:"added"`
	Removed   []string     `json:"removed"`
	Modified  []string     `json:"modified"`
}

type pushPayload struct {
	Ref          string          `json:"ref"`
	Before       string          `json:"before"`
	After        string          `json:"after"`
	CompareURL   string          `json:"compare_url"`
	Commits      []payloadCommit `json:"commits"`
	TotalCommits int             `json:"total_commits"`
	HeadCommit   *payloadCommit  `json:"head_commit"`
	Repo         *repoJSON       `json:"repository"`
	Pusher       *userJSON       `json:"pusher"`
	Sender       *userJSON       `json:"sender"`
}

type createPayload struct {
	Sha     string    `json:"sha"`
	Ref     string    `json:"ref"`
	RefType string    `json:"ref_type"`
	Repo    *repoJSON `json:"repository"`
	Sender  *userJSON `json:"sender"`
}

type deletePayload struct {
	Ref        string    `json:"ref"`
	RefType    string    `json:"ref_type"`
	PusherType string    `json:"pusher_type"`
	Repo       *repoJSON `json:"repository"`
	Sender     *userJSON `json:"sender"`
}

type forkPayload struct {
	Forkee *repoJSON `json:"forkee"`
	Repo   *repoJSON `json:"repository"`
	Sender *userJSON `json:"sender"`
}

type repositoryPayload struct {
	Action string    `json:"action"`
	Repo   *repoJSON `json:"repository"`
	Sender *userJSON `json:"sender"`
}

type issueRepoJSON struct {
	ID       uint64 `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
	FullName string `json:"full_name"`
}

type pullMetaJSON struct {
	Merged   bool    `json:"merged"`
	MergedAt *string `json:"merged_at"`
}

type issueJSON struct {
	ID          int64          `json:"id"`
	URL         string         `json:"url"`
	HTMLURL     string         `json:"html_url"`
	Number      uint64         `json:"number"`
	User        *userJSON      `json:"user"`
	Title       string         `json:"title"`
	Body        string         `json:"body"`
	Labels      []labelJSON    `json:"labels"`
	Milestone   *milestoneJSON `json:"milestone"`
	State       string         `json:"state"`
	IsLocked    bool           `json:"is_locked"`
	Comments    uint64         `json:"comments"`
	Assignees   []*userJSON    `json:"assignees"`
	UpdatedAt   string         `json:"updated_at"`
	ClosedAt    *string        `json:"closed_at"`
	Repository  *issueRepoJSON `json:"repository"`
	PullRequest *pullMetaJSON  `json:"pull_request"`
}

type branchJSON struct {
	Label  string    `json:"label"`
	Ref    string    `json:"ref"`
	Sha    string    `json:"sha"`
	RepoID uint64    `json:"repo_id"`
	Repo   *repoJSON `json:"repo"`
}

type pullJSON struct {
	ID             int64          `json:"id"`
	URL            string         `json:"url"`
	Number         uint64         `json:"number"`
	User           *userJSON      `json:"user"`
	Title          string         `json:"title"`
	Body           string         `json:"body"`
	Labels         []labelJSON    `json:"labels"`
	Milestone      *milestoneJSON `json:"milestone"`
	Assignees      []*userJSON    `json:"assignees"`
	State          string         `json:"state"`
	IsLocked       bool           `json:"is_locked"`
	Comments       uint64         `json:"comments"`
	HTMLURL        string         `json:"html_url"`
	DiffURL        string         `json:"diff_url"`
	PatchURL       string         `json:"patch_url"`
	Mergeable      bool           `json:"mergeable"`
	Merged         bool           `json:"merged"`
	MergedAt       *string        `json:"merged_at"`
	MergedCommitID *string        `json:"merge_commit_sha"`
	MergedBy       *userJSON      `json:"merged_by"`
	Base           *branchJSON    `json:"base"`
	Head           *branchJSON    `json:"head"`
	UpdatedAt      string         `json:"updated_at"`
	ClosedAt       *string        `json:"closed_at"`
}

type commentJSON struct {
	ID             uint64    `json:"id"`
	HTMLURL        string    `json:"html_url"`
	PullRequestURL string    `json:"pull_request_url"`
	IssueURL       string    `json:"issue_url"`
	User           *userJSON `json:"user"`
	Body           string    `json:"body"`
	CreatedAt      string    `json:"created_at"`
	UpdatedAt      string    `json:"updated_at"`
}

// labelJSON is Gitea's Label.
type labelJSON struct {
	ID          uint64 `json:"id"`
	Name        string `json:"name"`
	Exclusive   bool   `json:"exclusive"`
	IsArchived  bool   `json:"is_archived"`
	Color       string `json:"color"`
	Description string `json:"description"`
	URL         string `json:"url"`
}

// milestoneJSON is Gitea's Milestone.
type milestoneJSON struct {
	ID           uint64  `json:"id"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	State        string  `json:"state"`
	OpenIssues   int64   `json:"open_issues"`
	ClosedIssues int64   `json:"closed_issues"`
	Created      string  `json:"created_at"`
	Updated      *string `json:"updated_at"`
	Closed       *string `json:"closed_at"`
	Due          *string `json:"due_on"`
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
	Action   string       `json:"action"`
	Number   uint64       `json:"number"`
	Changes  *changesJSON `json:"changes,omitempty"`
	Issue    *issueJSON   `json:"issue"`
	Repo     *repoJSON    `json:"repository"`
	Sender   *userJSON    `json:"sender"`
	CommitID string       `json:"commit_id"`
}

type issueCommentPayload struct {
	Action      string       `json:"action"`
	Issue       *issueJSON   `json:"issue"`
	PullRequest *pullJSON    `json:"pull_request,omitempty"`
	Comment     *commentJSON `json:"comment"`
	Repo        *repoJSON    `json:"repository"`
	Sender      *userJSON    `json:"sender"`
	IsPull      bool         `json:"is_pull"`
}

type reviewJSON struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

type pullPayload struct {
	Action            string       `json:"action"`
	Number            uint64       `json:"number"`
	Changes           *changesJSON `json:"changes,omitempty"`
	PullRequest       *pullJSON    `json:"pull_request"`
	RequestedReviewer *userJSON    `json:"requested_reviewer"`
	Repo              *repoJSON    `json:"repository"`
	Sender            *userJSON    `json:"sender"`
	CommitID          string       `json:"commit_id"`
	Review            *reviewJSON  `json:"review"`
}

// assetJSON is Gitea's Attachment, as the API's release assets are.
type assetJSON struct {
	ID            uint64 `json:"id"`
	Name          string `json:"name"`
	Size          int64  `json:"size"`
	DownloadCount int64  `json:"download_count"`
	CreatedAt     string `json:"created_at"`
	UUID          string `json:"uuid"`
	DownloadURL   string `json:"browser_download_url"`
}

// releaseJSON is Gitea's Release.
type releaseJSON struct {
	ID          uint64      `json:"id"`
	TagName     string      `json:"tag_name"`
	Target      string      `json:"target_commitish"`
	Title       string      `json:"name"`
	Note        string      `json:"body"`
	URL         string      `json:"url"`
	HTMLURL     string      `json:"html_url"`
	TarURL      string      `json:"tarball_url"`
	ZipURL      string      `json:"zipball_url"`
	UploadURL   string      `json:"upload_url"`
	Draft       bool        `json:"draft"`
	Prerelease  bool        `json:"prerelease"`
	CreatedAt   string      `json:"created_at"`
	PublishedAt string      `json:"published_at"`
	Author      *userJSON   `json:"author"`
	Assets      []assetJSON `json:"assets"`
}

// releasePayload is Gitea's ReleasePayload.
type releasePayload struct {
	Action  string       `json:"action"`
	Release *releaseJSON `json:"release"`
	Repo    *repoJSON    `json:"repository"`
	Sender  *userJSON    `json:"sender"`
}

// statusPayload is Gitea's CommitStatusPayload (the status event Gitea
// added after 1.22, in GitHub's shape).
type statusPayload struct {
	Commit      *payloadCommit `json:"commit"`
	Context     string         `json:"context"`
	CreatedAt   string         `json:"created_at"`
	Description string         `json:"description"`
	ID          uint64         `json:"id"`
	Repo        *repoJSON      `json:"repository"`
	Sender      *userJSON      `json:"sender"`
	SHA         string         `json:"sha"`
	State       string         `json:"state"`
	TargetURL   string         `json:"target_url"`
	UpdatedAt   *string        `json:"updated_at"`
}

// renderer builds payloads; reads resolve names and repositories.
type renderer struct {
	base  string
	index *index.Index
	dirs  Dirs
}

func (r renderer) user(ctx context.Context, a common.Address) *userJSON {
	name, err := r.index.Username(ctx, a)
	if err != nil || name == "" {
		name = names.Default(a)
	}
	id, _ := r.index.UserID(ctx, a) // a failed read leaves 0 rather than no payload
	return &userJSON{ID: id, Login: name, UserName: name, HTMLURL: r.base + "/" + name,
		Active: true, LastLogin: "1970-01-01T00:00:00Z", Visibility: "public"}
}

func (r renderer) repoRecord(ctx context.Context, rec forge.Repo) *repoJSON {
	owner := r.user(ctx, rec.Owner)
	full := owner.Login + "/" + rec.Name
	return &repoJSON{
		ID: rec.ID, Owner: owner, Name: rec.Name, FullName: full, Description: rec.Description, Private: rec.Private,
		Fork: rec.ForkOf != 0, HTMLURL: r.base + "/" + full, URL: r.base + "/api/v1/repos/" + full, CloneURL: r.base + "/" + full + ".git",
		DefaultBranch: rec.DefaultBranch, Stars: rec.Stars, Forks: rec.Forks, Watchers: rec.Watchers, OpenIssues: rec.OpenIssues,
		OpenPulls: rec.OpenPulls, HasIssues: true, HasPullRequests: true,
	}
}

// repo is repository id as projected now, or as the change last
// recorded it (a deleted repository).
func (r renderer) repo(ctx context.Context, c forge.Change, id uint64) (*repoJSON, error) {
	for _, rec := range c.Repos {
		if rec.ID == id && rec.Deleted {
			return r.repoRecord(ctx, rec), nil
		}
	}
	rec, err := r.index.RepoByID(ctx, id)
	if err != nil {
		for _, rec := range c.Repos {
			if rec.ID == id {
				return r.repoRecord(ctx, rec), nil
			}
		}
		return nil, fmt.Errorf("read repository %d: %w", id, err)
	}
	j := r.repoRecord(ctx, forge.Repo{ID: rec.ID, Owner: rec.OwnerAddress(), Name: rec.Name, Description: rec.Description,
		DefaultBranch: rec.DefaultBranch, Private: rec.Private, ForkOf: rec.ForkOf, Stars: rec.Stars, Forks: rec.Forks,
		Watchers: rec.Watchers, OpenIssues: rec.OpenIssues, OpenPulls: rec.OpenPulls})
	j.CreatedAt, j.UpdatedAt = rec.Created, rec.Updated
	return j, nil
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

func (r renderer) forkPayload(ctx context.Context, c forge.Change, sender *userJSON) (any, error) {
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

func (r renderer) refPayload(ctx context.Context, eventType string, src source, sender *userJSON) (any, error) {
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
func (r renderer) commits(ctx context.Context, repo *repoJSON, u forge.RefUpdate) []payloadCommit {
	out := []payloadCommit{}
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
		pc := payloadCommit{ID: c.ID, Message: c.Message, URL: repo.HTMLURL + "/commit/" + c.ID,
			Author:    &payloadUser{Name: c.Author.Name, Email: c.Author.Email},
			Committer: &payloadUser{Name: c.Committer.Name, Email: c.Committer.Email},
			Timestamp: c.Author.When.UTC().Format(time.RFC3339), Added: []string{}, Removed: []string{}, Modified: []string{}}
		for _, f := range c.Files {
			switch f.Status {
			case "added":
				pc.Added = append(pc.Added, f.Path)
			case "removed", "deleted":
				pc.Removed = append(pc.Removed, f.Path)
			default:
				pc.Modified = append(pc.Modified, f.Path)
			}
		}
		out = append(out, pc)
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
func (r renderer) labels(ctx context.Context, repo *repoJSON, is forge.Issue) []labelJSON {
	out := []labelJSON{}
	if len(is.Labels) == 0 {
		return out
	}
	defined, err := r.index.Labels(ctx, is.Repo)
	if err != nil {
		return out
	}
	for _, l := range defined {
		if slices.Contains(is.Labels, l.ID) {
			out = append(out, labelJSON{ID: l.ID, Name: l.Name, Exclusive: l.Exclusive, Color: strings.TrimPrefix(l.Color, "#"),
				Description: l.Description, URL: repo.URL + "/labels/" + strconv.FormatUint(l.ID, 10)})
		}
	}
	return out
}

// milestone is the issue's milestone, nil for none.
func (r renderer) milestone(ctx context.Context, is forge.Issue) *milestoneJSON {
	if is.Milestone == 0 {
		return nil
	}
	m, err := r.index.MilestoneByID(ctx, is.Repo, is.Milestone)
	if err != nil {
		return nil
	}
	optional := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	j := &milestoneJSON{ID: m.ID, Title: m.Title, Description: m.Description, State: m.State, OpenIssues: m.OpenIssues,
		ClosedIssues: m.ClosedIssues, Created: m.Created, Updated: optional(m.Updated), Closed: optional(m.Closed)}
	if m.Due != 0 {
		d := time.Unix(m.Due, 0).UTC().Format(time.RFC3339)
		j.Due = &d
	}
	return j
}

func (r renderer) issue(ctx context.Context, repo *repoJSON, is forge.Issue, at int64, pull *forge.Pull) *issueJSON {
	kind := "issues"
	if is.IsPull {
		kind = "pulls"
	}
	n := strconv.FormatUint(is.Number, 10)
	j := &issueJSON{ID: globalIssueID(is.Repo, is.Number), URL: repo.URL + "/issues/" + n, HTMLURL: repo.HTMLURL + "/" + kind + "/" + n,
		Number: is.Number, User: r.user(ctx, is.Author), Title: is.Title, Body: is.Body, Labels: r.labels(ctx, repo, is), State: is.State,
		Milestone: r.milestone(ctx, is), Comments: is.Comments, Assignees: []*userJSON{}, UpdatedAt: stamp(at),
		Repository: &issueRepoJSON{ID: repo.ID, Name: repo.Name, Owner: repo.Owner.Login, FullName: repo.FullName}}
	for _, a := range is.Assignees {
		j.Assignees = append(j.Assignees, r.user(ctx, a))
	}
	if is.State == forge.StateClosed {
		t := stamp(at)
		j.ClosedAt = &t
	}
	if pull != nil {
		j.PullRequest = &pullMetaJSON{Merged: pull.Merged}
		if pull.Merged {
			t := stamp(at)
			j.PullRequest.MergedAt = &t
		}
	}
	return j
}

func (r renderer) issuePayload(ctx context.Context, eventType string, src source, sender *userJSON) (any, error) {
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
	cm := &commentJSON{ID: c.Comment.ID, HTMLURL: issue.HTMLURL + "#issuecomment-" + strconv.FormatUint(c.Comment.ID, 10),
		IssueURL: issue.HTMLURL, User: r.user(ctx, c.Comment.Author), Body: c.Comment.Body,
		CreatedAt: stamp(src.TimeNS), UpdatedAt: stamp(src.TimeNS)}
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

func (r renderer) pull(ctx context.Context, repo *repoJSON, is forge.Issue, pr forge.Pull, at int64) *pullJSON {
	issue := r.issue(ctx, repo, is, at, &pr)
	j := &pullJSON{ID: issue.ID, URL: issue.URL, Number: is.Number, User: issue.User, Title: is.Title, Body: is.Body,
		Labels: issue.Labels, Milestone: issue.Milestone, Assignees: issue.Assignees, State: is.State, Comments: is.Comments,
		HTMLURL: issue.HTMLURL, DiffURL: issue.HTMLURL + ".diff",
		PatchURL: issue.HTMLURL + ".patch", Mergeable: !pr.Merged && is.State == forge.StateOpen, Merged: pr.Merged,
		UpdatedAt: issue.UpdatedAt, ClosedAt: issue.ClosedAt,
		Base: &branchJSON{Label: pr.BaseBranch, Ref: pr.BaseBranch, Sha: pr.BaseSHA, RepoID: repo.ID, Repo: repo},
		Head: &branchJSON{Label: pr.HeadBranch, Ref: pr.HeadBranch, Sha: pr.HeadSHA, RepoID: pr.HeadRepo, Repo: repo},
	}
	if pr.HeadRepo != 0 && pr.HeadRepo != repo.ID {
		if head, err := r.repo(ctx, forge.Change{}, pr.HeadRepo); err == nil {
			j.Head.Repo = head
			j.Head.Label = head.Owner.Login + ":" + pr.HeadBranch
		}
	}
	if pr.Merged {
		j.MergedAt, j.MergedCommitID = issue.PullRequest.MergedAt, &pr.MergeSHA
		j.MergedBy = r.user(ctx, pr.MergedBy)
	}
	return j
}

func (r renderer) pullPayload(ctx context.Context, eventType string, src source, sender *userJSON) (any, error) {
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

// globalIssueID is the API's packing of a repository id and an issue
// number into one id (internal/api/issues_shared.go), so payloads and API
// answers agree.
func globalIssueID(repo, number uint64) int64 {
	const numberBits, maxRepo, privateBit = 24, 1 << 28, int64(1) << 52
	if number >= 1<<numberBits {
		return 0
	}
	flag := int64(0)
	if forge.IsPrivateID(repo) {
		repo -= forge.PrivateIDBase
		flag = privateBit
	}
	if repo >= maxRepo {
		return 0
	}
	return flag | int64(repo<<numberBits|number)
}

// releasePayload is Gitea's release event: the release as the change
// recorded it (a deleted one is no longer projected), with the times the
// index keeps when it still has it.
func (r renderer) releasePayload(ctx context.Context, src source, sender *userJSON) (any, error) {
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
	api := repo.URL + "/releases/" + strconv.FormatUint(rel.ID, 10)
	tag := url.PathEscape(rel.TagName)
	j := &releaseJSON{ID: rel.ID, TagName: rel.TagName, Target: rel.Target, Title: rel.Title, Note: rel.Note, URL: api,
		HTMLURL: repo.HTMLURL + "/releases/tag/" + tag, TarURL: repo.HTMLURL + "/archive/" + tag + ".tar.gz",
		ZipURL: repo.HTMLURL + "/archive/" + tag + ".zip", UploadURL: api + "/assets", Draft: rel.Draft, Prerelease: rel.Prerelease,
		CreatedAt: stamp(created), PublishedAt: stamp(created), Author: r.user(ctx, rel.Publisher), Assets: []assetJSON{}}
	for _, as := range rel.Assets {
		uuid := as.CID
		if uuid == "" { // a private repository's asset: not an IPFS file
			uuid = as.SHA256
		}
		j.Assets = append(j.Assets, assetJSON{ID: as.ID, Name: as.Name, Size: as.Size, DownloadCount: downloads[as.ID],
			CreatedAt: stamp(created), UUID: uuid, DownloadURL: repo.HTMLURL + "/releases/download/" + tag + "/" + url.PathEscape(as.Name)})
	}
	return releasePayload{Action: actionOf(src), Release: j, Repo: repo, Sender: sender}, nil
}

// statusPayload is Gitea's status event for a commit status set, with
// the commit from the git data here (nil when this node has none).
func (r renderer) statusPayload(ctx context.Context, src source, sender *userJSON) (any, error) {
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
