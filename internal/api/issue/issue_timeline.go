package issue

import (
	"encoding/json"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/usererr"
)

// An issue's timeline, pins and subscriptions, in Gitea's paths and shapes.

// timelineJSON is Gitea's TimelineComment, with the fields its events use.
type timelineJSON struct {
	ID              uint64             `json:"id"`
	Type            string             `json:"type"`
	HTMLURL         string             `json:"html_url"`
	PullRequestURL  string             `json:"pull_request_url"`
	IssueURL        string             `json:"issue_url"`
	User            api.ForgeUserJSON  `json:"user"`
	Body            string             `json:"body"`
	BodyHTML        string             `json:"body_html,omitempty"`
	Created         string             `json:"created_at"`
	Updated         string             `json:"updated_at"`
	Label           *api.LabelJSON     `json:"label"`
	Milestone       *api.MilestoneJSON `json:"milestone"`
	OldMilestone    *api.MilestoneJSON `json:"old_milestone"`
	NewTitle        string             `json:"new_title"`
	OldTitle        string             `json:"old_title"`
	Assignee        *api.ForgeUserJSON `json:"assignee"`
	RemovedAssignee bool               `json:"removed_assignee"`
	RefIssue        *refIssueJSON      `json:"ref_issue"`
	RefComment      *refIDJSON         `json:"ref_comment"`
	// Gitea's fields of events dForge does not record (projects, time
	// tracking, dependencies, review threads resolved, references moved,
	// teams assigned): zero, null.
	ReviewID       int64              `json:"review_id"`
	RefAction      string             `json:"ref_action"`
	RefCommitSHA   string             `json:"ref_commit_sha"`
	OldRef         string             `json:"old_ref"`
	NewRef         string             `json:"new_ref"`
	ProjectID      int64              `json:"project_id"`
	OldProjectID   int64              `json:"old_project_id"`
	ResolveDoer    *api.ForgeUserJSON `json:"resolve_doer"`
	AssigneeTeam   any                `json:"assignee_team"`
	DependentIssue any                `json:"dependent_issue"`
	TrackedTime    any                `json:"tracked_time"`
	// Hidden: this node's moderators hid the comment (dForge); HiddenReason is why.
	Hidden       bool   `json:"hidden,omitempty"`
	HiddenReason string `json:"hidden_reason,omitempty"`
	// Commits: a pull_push's commits with their subjects, oldest first
	// (dForge; Gitea's body names only their ids).
	Commits []pushedCommitJSON `json:"commits,omitempty"`
	// Signer is the key that signed the forge action that made the event
	// and Delegation the delegate key it was signed under, "" when the
	// actor's own; a comment's are the comment's, as the comments list
	// gives them (dForge; both "" for events projected before signers
	// were kept).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

// pushedCommitJSON is one commit a push to a pull request's head brought.
type pushedCommitJSON struct {
	SHA     string `json:"sha"`
	Subject string `json:"subject"`
	HTMLURL string `json:"html_url"`
}

// pushContentJSON is the body of Gitea's pull_push event: the commits a
// push brought, oldest first, or for a forced push the old and new heads.
type pushContentJSON struct {
	IsForcePush bool     `json:"is_force_push"`
	CommitIDs   []string `json:"commit_ids"`
}

// refIssueJSON is the part of Gitea's Issue a timeline reference carries.
type refIssueJSON struct {
	Number      uint64            `json:"number"`
	Title       string            `json:"title"`
	HTMLURL     string            `json:"html_url"`
	PullRequest *api.PullMetaJSON `json:"pull_request"`
}

type refIDJSON struct {
	ID uint64 `json:"id"`
}

// listTimeline lists an issue's or pull request's comments and events in
// order (GET /repos/{owner}/{repo}/issues/{index}/timeline).
func (h *Handler) listTimeline(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	p, err := commentsPage(r)
	if err != nil {
		return err
	}
	list, total, err := h.Forge.Index().Timeline(r.Context(), repo.ID, is.Number, p)
	if err != nil {
		return err
	}
	l := h.LinksFor(r, repo)
	out := make([]timelineJSON, len(list))
	var pr *index.Pull
	for i, e := range list {
		out[i] = timeline(l, r, is, e)
		if e.Kind != index.KindPullPush || !is.IsPull {
			continue
		}
		if pr == nil {
			got, err := h.Forge.Index().Pull(r.Context(), repo.ID, is.Number)
			if err != nil {
				return err
			}
			pr = &got
		}
		out[i].Body, out[i].Commits = pushed(l, h.Pulls.Pushed(r.Context(), repo, *pr, e.Data.OldSHA, e.Data.NewSHA, e.Data.Forced), e.Data)
	}
	return h.RespondList(w, r, p, total, out, nil)
}

// pushed is a pull_push's body, in Gitea's shape, and its commits. When
// git cannot list them here, the new head stands alone.
func pushed(l *api.Links, commits []gitstore.Commit, d index.TimelineData) (string, []pushedCommitJSON) {
	c := pushContentJSON{IsForcePush: d.Forced || d.OldSHA == "", CommitIDs: []string{}}
	var list []pushedCommitJSON
	switch {
	case c.IsForcePush:
		if d.OldSHA != "" {
			c.CommitIDs = append(c.CommitIDs, d.OldSHA)
		}
		c.CommitIDs = append(c.CommitIDs, d.NewSHA)
	case len(commits) == 0:
		c.CommitIDs = append(c.CommitIDs, d.NewSHA)
	default:
		for _, g := range commits {
			c.CommitIDs = append(c.CommitIDs, g.ID)
			list = append(list, pushedCommitJSON{SHA: g.ID, Subject: g.Summary(), HTMLURL: l.Html + "/commit/" + g.ID})
		}
	}
	body, _ := json.Marshal(c) // strings and a bool: cannot fail
	return string(body), list
}

func timeline(l *api.Links, r *http.Request, is index.Issue, e index.TimelineEvent) timelineJSON {
	kind := "issues"
	if is.IsPull {
		kind = "pulls"
	}
	page := l.Html + "/" + kind + "/" + strconv.FormatUint(is.Number, 10)
	j := timelineJSON{ID: e.ID, Type: e.Kind, HTMLURL: page, IssueURL: l.Html + "/issues/" + strconv.FormatUint(is.Number, 10),
		User: l.Person(e.Actor), Created: e.Created, Updated: e.Created, NewTitle: e.Data.NewTitle, OldTitle: e.Data.OldTitle,
		RemovedAssignee: e.Data.Removed && e.Kind == index.KindAssignees, Signer: e.Signer, Delegation: e.Delegation}
	if is.IsPull {
		j.PullRequestURL = page
	}
	if c := e.Comment; c != nil {
		j.ID, j.Body, j.BodyHTML, j.Updated = c.ID, c.Body, l.Render(c.Body), c.Updated
		j.HTMLURL = page + "#issuecomment-" + strconv.FormatUint(c.ID, 10)
		j.Signer, j.Delegation = c.Signer, c.Delegation
		j.Hidden, j.HiddenReason, j.Body, j.BodyHTML = l.Mod.MaskText(moderation.KindComment, moderation.CommentKey(l.RepoID, c.ID), j.Body, j.BodyHTML)
	}
	if lb := e.Data.Label; lb != nil {
		v := l.Label(*lb)
		j.Label = &v
		if !e.Data.Removed {
			j.Body = "1" // Gitea's mark of a label added; "" is one removed
		}
	}
	if e.Data.NewMilestone != 0 {
		j.Milestone = &api.MilestoneJSON{ID: e.Data.NewMilestone, Title: e.Data.NewMilestoneTitle}
	}
	if e.Data.OldMilestone != 0 {
		j.OldMilestone = &api.MilestoneJSON{ID: e.Data.OldMilestone, Title: e.Data.OldMilestoneTitle}
	}
	if e.Data.Assignee != "" {
		u := api.ToForgeUser(r, index.User{Address: e.Data.Assignee, Username: nameOf(l, r, e.Data.Assignee)})
		j.Assignee = &u
	}
	if e.Data.Ref != 0 {
		ref := &refIssueJSON{Number: e.Data.Ref, Title: e.Data.RefTitle, HTMLURL: l.Html + "/issues/" + strconv.FormatUint(e.Data.Ref, 10)}
		if e.Data.RefIsPull {
			ref.HTMLURL = l.Html + "/pulls/" + strconv.FormatUint(e.Data.Ref, 10)
			ref.PullRequest = &api.PullMetaJSON{HTMLURL: ref.HTMLURL}
		}
		j.RefIssue = ref
		if e.Data.RefComment != 0 {
			j.RefComment = &refIDJSON{ID: e.Data.RefComment}
		}
	}
	return j
}

// nameOf is the username of addr, "" when it has none (its default name
// is used then).
func nameOf(l *api.Links, r *http.Request, addr string) string {
	if l.Username == nil {
		return ""
	}
	return l.Username(r, addr)
}

// listPinned lists a repository's pinned issues and pull requests in pin
// order.
func (h *Handler) listPinned(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	list, err := h.Forge.Index().PinnedIssues(r.Context(), repo.ID)
	if err != nil {
		return err
	}
	pulls, err := h.Forge.Index().PullsOf(r.Context(), repo.ID, list)
	if err != nil {
		return err
	}
	l := h.ListLinks(r, repo)
	out := make([]api.IssueJSON, len(list))
	for i, is := range list {
		var pr *index.Pull
		if got, ok := pulls[is.Number]; ok && is.IsPull {
			pr = &got
		}
		out[i] = l.Issue(repo, is, pr)
	}
	return api.Reply(w, out)
}

func (h *Handler) setPin(w http.ResponseWriter, r *http.Request, on bool) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	pin := chainforge.IssuePin{Repo: repo.ID, Number: is.Number}
	if on {
		_, err = h.Forge.Do(r.Context(), id.User.Address, chainforge.IssuePinAction(pin))
	} else {
		_, err = h.Forge.Do(r.Context(), id.User.Address, chainforge.IssueUnpin(pin))
	}
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// pinIssue pins an issue or pull request at the top of the issue list
// (writers; at most three).
func (h *Handler) pinIssue(w http.ResponseWriter, r *http.Request) error {
	return h.setPin(w, r, true)
}

// unpinIssue unpins an issue or pull request.
func (h *Handler) unpinIssue(w http.ResponseWriter, r *http.Request) error {
	return h.setPin(w, r, false)
}

// listSubscribers lists the people subscribed to an issue.
func (h *Handler) listSubscribers(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	list, err := h.Forge.Index().Subscribers(r.Context(), repo.ID, is.Number)
	if err != nil {
		return err
	}
	out := make([]api.ForgeUserJSON, len(list))
	for i, u := range list {
		out[i] = api.ToForgeUser(r, u)
	}
	return api.Reply(w, out)
}

// checkSubscription says whether the signed-in user is subscribed to an
// issue (Gitea's WatchInfo).
func (h *Handler) checkSubscription(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	on, err := h.Forge.Index().Subscribed(r.Context(), repo.ID, is.Number, id.User.Address.Hex())
	if err != nil {
		return err
	}
	l := h.LinksFor(r, repo)
	return api.Reply(w, api.WatchInfoJSON{Subscribed: on, CreatedAt: is.Created, URL: l.Api + "/issues/" + strconv.FormatUint(is.Number, 10) + "/subscriptions",
		RepositoryURL: l.Api})
}

// setSubscription subscribes or unsubscribes {user}: 201 when it changed,
// 200 when it already was so, as Gitea answers (for both PUT and DELETE).
func (h *Handler) setSubscription(w http.ResponseWriter, r *http.Request, on bool) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	who, err := h.Forge.Owner(r.Context(), r.PathValue("user"))
	if err != nil {
		return usererr.Missingf("there is no user %s", r.PathValue("user"))
	}
	was, err := h.Forge.Index().Subscribed(r.Context(), repo.ID, is.Number, who.Hex())
	if err != nil {
		return err
	}
	if was == on {
		w.WriteHeader(http.StatusOK)
		return nil
	}
	sub := chainforge.IssueSubscribe{Repo: repo.ID, Number: is.Number}
	if who != id.User.Address {
		sub.User = who
	}
	if on {
		_, err = h.Forge.Do(r.Context(), id.User.Address, chainforge.IssueSubscribeAction(sub))
	} else {
		_, err = h.Forge.Do(r.Context(), id.User.Address, chainforge.IssueUnsubscribe(sub))
	}
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusCreated)
	return nil
}

// subscribe subscribes {user} to an issue: oneself, or anyone as a
// maintainer.
func (h *Handler) subscribe(w http.ResponseWriter, r *http.Request) error {
	return h.setSubscription(w, r, true)
}

// unsubscribe unsubscribes {user} from an issue.
func (h *Handler) unsubscribe(w http.ResponseWriter, r *http.Request) error {
	return h.setSubscription(w, r, false)
}
