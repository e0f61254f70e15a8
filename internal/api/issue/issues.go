package issue

import (
	"context"
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/usererr"
)

// Issues, comments and labels: Gitea's API v1 paths and JSON shapes, over
// the forge service (writes are forge actions relayed to the chain, or to
// the private store; reads are the SQL projection). A repository the
// viewer may not read is a 404 everywhere, as if it did not exist.

// RegisterIssues adds the issue, label and pull request routes when the
// node hosts repositories.
func (a *Handler) RegisterIssues(mux *http.ServeMux) {
	if a.Forge == nil || a.Hosting == nil {
		return
	}
	h := a
	w := func(fn api.Endpoint) http.HandlerFunc { return a.SignedIn(auth.ScopeWrite, fn) }
	const repo = "/api/v1/repos/{owner}/{repo}"
	mux.HandleFunc("GET "+repo+"/issues", h.Serve(h.listIssues))
	mux.HandleFunc("POST "+repo+"/issues", w(h.createIssue))
	mux.HandleFunc("GET "+repo+"/issues/comments", h.Serve(h.listRepoComments))
	mux.HandleFunc("GET "+repo+"/issues/{index}", h.Serve(h.getIssue))
	mux.HandleFunc("PATCH "+repo+"/issues/{index}", w(h.editIssue))
	if a.Mod != nil {
		mux.HandleFunc("DELETE "+repo+"/issues/{index}", w(h.deleteIssue))
	}
	mux.HandleFunc("GET "+repo+"/issues/{index}/comments", h.Serve(h.listComments))
	mux.HandleFunc("POST "+repo+"/issues/{index}/comments", w(h.createComment))
	// GET, PATCH and DELETE /issues/comments/{id}: registerIssueComments.
	mux.HandleFunc("GET "+repo+"/issues/{index}/reactions", h.Serve(h.listIssueReactions))
	mux.HandleFunc("POST "+repo+"/issues/{index}/reactions", w(h.postIssueReaction))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/reactions", w(h.deleteIssueReaction))
	mux.HandleFunc("GET "+repo+"/issues/{index}/timeline", h.Serve(h.listTimeline))
	mux.HandleFunc("GET "+repo+"/issues/pinned", h.Serve(h.listPinned))
	mux.HandleFunc("POST "+repo+"/issues/{index}/pin", w(h.pinIssue))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/pin", w(h.unpinIssue))
	mux.HandleFunc("GET "+repo+"/issues/{index}/subscriptions", h.Serve(h.listSubscribers))
	mux.HandleFunc("GET "+repo+"/issues/{index}/subscriptions/check", h.SignedIn(auth.ScopeRead, h.checkSubscription))
	mux.HandleFunc("PUT "+repo+"/issues/{index}/subscriptions/{user}", w(h.subscribe))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/subscriptions/{user}", w(h.unsubscribe))
	mux.HandleFunc("GET "+repo+"/issues/{index}/labels", h.Serve(h.listIssueLabels))
	mux.HandleFunc("POST "+repo+"/issues/{index}/labels", w(h.addIssueLabels))
	mux.HandleFunc("PUT "+repo+"/issues/{index}/labels", w(h.replaceIssueLabels))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/labels", w(h.clearIssueLabels))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/labels/{id}", w(h.removeIssueLabel))
	mux.HandleFunc("GET "+repo+"/labels", h.Serve(h.listLabels))
	mux.HandleFunc("POST "+repo+"/labels", w(h.createLabel))
	mux.HandleFunc("GET "+repo+"/labels/{id}", h.Serve(h.getLabel))
	mux.HandleFunc("PATCH "+repo+"/labels/{id}", w(h.editLabel))
	mux.HandleFunc("DELETE "+repo+"/labels/{id}", w(h.deleteLabel))
	mux.HandleFunc("GET "+repo+"/milestones", h.Serve(h.listMilestones))
	mux.HandleFunc("POST "+repo+"/milestones", w(h.createMilestone))
	mux.HandleFunc("GET "+repo+"/milestones/{id}", h.Serve(h.getMilestone))
	mux.HandleFunc("PATCH "+repo+"/milestones/{id}", w(h.editMilestone))
	mux.HandleFunc("DELETE "+repo+"/milestones/{id}", w(h.deleteMilestone))
	mux.HandleFunc("GET /api/v1/issues/{id}", h.Serve(h.getIssueByID))
	h.registerPulls(mux, w)
}

// issueOf resolves {owner}/{repo} and its issue or pull request {index}.
func (h *Handler) issueOf(r *http.Request) (index.Repo, forge.Perm, index.Issue, error) {
	repo, perm, err := h.RepoOf(r)
	if err != nil {
		return index.Repo{}, 0, index.Issue{}, err
	}
	n, err := strconv.ParseUint(r.PathValue("index"), 10, 64)
	if err != nil || n == 0 {
		return index.Repo{}, 0, index.Issue{}, api.IssueNotFound(r.PathValue("index"))
	}
	is, err := h.Forge.Index().Issue(r.Context(), repo.ID, n)
	if err != nil {
		return index.Repo{}, 0, index.Issue{}, err
	}
	if h.deletedHere(r, repo.ID, n) {
		return index.Repo{}, 0, index.Issue{}, api.IssueNotFound(r.PathValue("index"))
	}
	return repo, perm, is, nil
}

// deletedHere tells whether issue number of repo was deleted on this node
// (deleteIssue) and the viewer is not one of the node's admins, who still
// see it: it is then 404.
func (h *Handler) deletedHere(r *http.Request, repo, number uint64) bool {
	if h.Mod == nil {
		return false
	}
	hd, ok := h.Mod.IsHidden(moderation.KindIssue, moderation.IssueKey(repo, number))
	return ok && hd.Deleted && !h.ModViewOf(r).Admin
}

// deleteIssue is Gitea's DELETE /issues/{index}. An issue on chain cannot
// be deleted, so the repository's admins (as in Gitea, no one else) remove
// it from this node: it joins the node's hidden list marked deleted, and is
// 404 here to everyone but the node's admins; other nodes keep showing it.
func (h *Handler) deleteIssue(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	if perm < chainforge.PermMaintain { // Gitea's repository admin
		return usererr.Deniedf("only the repository's admins may delete an issue")
	}
	t := moderation.Target{Kind: moderation.KindIssue, Key: moderation.IssueKey(repo.ID, is.Number),
		Label: fmt.Sprintf("%s/%s#%d", repo.Owner.Username, repo.Name, is.Number), Subject: common.HexToAddress(is.Author.Address)}
	if _, err := h.Mod.Delete(r.Context(), id.User.Address, t); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listIssues lists a repository's issues and pull requests, as Gitea's:
// state, type, q, labels (names or ids; an issue must carry all of them),
// milestones (names or ids; any of them), created_by, assigned_by and
// mentioned_by (usernames). dForge also takes sort, as Gitea's pull list
// does: newest (the default), oldest, recentupdate, leastupdate,
// mostcomment, leastcomment or priority (newest here). An unknown sort,
// state, type or user is refused.
func (h *Handler) listIssues(w http.ResponseWriter, r *http.Request) error {
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := index.IssueFilter{Query: strings.TrimSpace(q.Get("q"))}
	if f.State, err = api.StateFilter(r); err != nil {
		return err
	}
	if f.IsPull, err = api.TypeFilter(r); err != nil {
		return err
	}
	if f.Sort, err = api.SortFilter(r); err != nil {
		return err
	}
	if f.Author, err = h.userFilter(r, "created_by"); err != nil {
		return err
	}
	if f.Assignee, err = h.userFilter(r, "assigned_by"); err != nil {
		return err
	}
	if mentioned, err := h.userFilter(r, "mentioned_by"); err != nil {
		return err
	} else if mentioned != nil {
		f.MentionName = strings.TrimSpace(q.Get("mentioned_by"))
	}
	var ok bool
	if f.Milestones, ok, err = h.milestoneFilter(r.Context(), repo, q.Get("milestones")); err != nil || !ok {
		if err == nil {
			err = h.respondIssues(w, r, repo, p, 0, nil)
		}
		return err
	}
	if f.Labels, ok, err = h.labelFilter(r.Context(), repo, api.LabelsParam(r)); err != nil || !ok {
		if err == nil {
			err = h.respondIssues(w, r, repo, p, 0, nil)
		}
		return err
	}
	list, total, err := h.issues(r.Context(), repo, f, p)
	if err != nil {
		return err
	}
	return h.respondIssues(w, r, repo, p, total, list)
}

// userFilter reads the query parameter name, a username (nil when it is
// absent); a name no one has is a 422, as nothing could match it.
func (h *Handler) userFilter(r *http.Request, name string) (*common.Address, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return nil, nil
	}
	addr, err := h.Forge.Owner(r.Context(), v)
	if ue, ok := usererr.As(err); ok && ue.Kind == usererr.NotFound {
		return nil, usererr.Unprocessablef(name, "unknown_user", "%s names %q, and there is no such user", name, v)
	}
	if err != nil {
		return nil, err
	}
	return &addr, nil
}

// labelFilter reads ?labels= (comma-separated names or ids); ok is false
// when one names no label of the repository, so nothing can match.
func (h *Handler) labelFilter(ctx context.Context, repo index.Repo, raw string) ([]uint64, bool, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, true, nil
	}
	all, err := h.Forge.Index().Labels(ctx, repo.ID)
	if err != nil {
		return nil, false, err
	}
	var ids []uint64
	for _, name := range strings.Split(raw, ",") {
		id, found := findLabel(all, strings.TrimSpace(name))
		if !found {
			return nil, false, nil
		}
		ids = append(ids, id)
	}
	return ids, true, nil
}

func findLabel(all []index.Label, key string) (uint64, bool) {
	for _, l := range all {
		if strings.EqualFold(l.Name, key) {
			return l.ID, true
		}
	}
	if id, err := strconv.ParseUint(key, 10, 64); err == nil {
		for _, l := range all {
			if l.ID == id {
				return id, true
			}
		}
	}
	return 0, false
}

// issues lists repo's issues matching f, without those deleted here.
func (h *Handler) issues(ctx context.Context, repo index.Repo, f index.IssueFilter, p index.Page) ([]index.Issue, int64, error) {
	list, total, err := h.Forge.Index().Issues(ctx, repo.ID, f, p)
	kept := h.WithoutDeleted(ctx, list)
	return kept, total - int64(len(list)-len(kept)), err
}

func (h *Handler) respondIssues(w http.ResponseWriter, r *http.Request, repo index.Repo, p index.Page, total int64, list []index.Issue) error {
	l := h.ListLinks(r, repo)
	// The pull requests' merge state, for the whole page in one read.
	pulls, err := h.Forge.Index().PullsOf(r.Context(), repo.ID, list)
	if err != nil {
		return err
	}
	b, err := l.IssuesJSON(repo, list, pulls)
	return h.RespondList(w, r, p, total, b, err)
}

// assigneeNames are Gitea's assignee and assignees in one list.
func assigneeNames(one string, many []string) []string {
	if one == "" {
		return many
	}
	return append([]string{one}, many...)
}

func (h *Handler) createIssue(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Title     string   `json:"title"`
		Body      string   `json:"body"`
		Assignee  string   `json:"assignee"`
		Assignees []string `json:"assignees"`
		Labels    []uint64 `json:"labels"`
		Milestone int64    `json:"milestone"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	if err := api.CheckTitle(in.Title); err != nil {
		return err
	}
	if err := api.CheckBody("body", in.Body); err != nil {
		return err
	}
	assignees, err := h.Forge.Assignees(r.Context(), assigneeNames(in.Assignee, in.Assignees))
	if err != nil {
		return err
	}
	milestone, err := h.issueMilestone(r.Context(), repo, in.Milestone)
	if err != nil {
		return err
	}
	res, err := h.Forge.Do(r.Context(), id.User.Address, chainforge.IssueCreate{
		Repo: repo.ID, Title: in.Title, Body: in.Body, Labels: in.Labels, Assignees: assignees, Milestone: milestone,
	})
	if err != nil {
		return err
	}
	is, err := h.Forge.Index().Issue(r.Context(), repo.ID, res.Change.Issue.Number)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, h.LinksFor(r, repo).Issue(repo, is, nil))
	return nil
}

func (h *Handler) getIssue(w http.ResponseWriter, r *http.Request) error {
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	return h.replyIssue(w, r, repo, is)
}

func (h *Handler) replyIssue(w http.ResponseWriter, r *http.Request, repo index.Repo, is index.Issue) error {
	var pr *index.Pull
	if is.IsPull {
		got, err := h.Forge.Index().Pull(r.Context(), repo.ID, is.Number)
		if err != nil {
			return err
		}
		pr = &got
	}
	return api.Reply(w, h.LinksFor(r, repo).Issue(repo, is, pr))
}

// getIssueByID serves an issue or pull request by its global id (ours: the
// spec's /issue/:id and /pr/:id pages), with the same privacy as the rest.
func (h *Handler) getIssueByID(w http.ResponseWriter, r *http.Request) error {
	raw := r.PathValue("id")
	gid, err := strconv.ParseInt(raw, 10, 64)
	repoID, number, ok := convert.ParseIssueID(gid)
	if err != nil || !ok {
		return api.IssueNotFound(raw)
	}
	repo, _, err := h.Forge.RepoByID(r.Context(), api.ViewerOf(r), repoID)
	if err != nil {
		return api.IssueNotFound(raw)
	}
	is, err := h.Forge.Index().Issue(r.Context(), repo.ID, number)
	if err != nil || h.deletedHere(r, repo.ID, number) {
		return api.IssueNotFound(raw)
	}
	return h.replyIssue(w, r, repo, is)
}

// stateChange is the close or reopen an edit asks for; "" when none.
func stateChange(is index.Issue, state, reason string) (string, string, error) {
	switch state {
	case "":
		if reason != "" && is.State == chainforge.StateOpen {
			return "", "", usererr.InvalidField("state_reason", "invalid_field", "state_reason applies when closing: send state closed with it")
		}
		return "", "", nil
	case chainforge.StateOpen, chainforge.StateClosed:
	default:
		return "", "", usererr.InvalidField("state", "invalid_state", "state must be open or closed")
	}
	if state == chainforge.StateClosed {
		switch reason {
		case "", chainforge.ReasonCompleted, chainforge.ReasonNotPlanned:
		default:
			return "", "", usererr.InvalidField("state_reason", "invalid_field", "state_reason must be completed or not_planned")
		}
		if is.IsPull && reason != "" {
			return "", "", usererr.InvalidField("state_reason", "invalid_field", "state_reason applies to issues; a pull request is closed or merged")
		}
	}
	if state == is.State {
		return "", "", nil // as Gitea: asking for the state it has is no error
	}
	return state, reason, nil
}

// editIssue applies Gitea's EditIssueOption: title, body and assignees in
// one issue.edit, then a close or reopen. Everything is checked first, so
// that a refusal leaves the issue untouched.
func (h *Handler) editIssue(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Title       *string   `json:"title"`
		Body        *string   `json:"body"`
		Assignee    *string   `json:"assignee"`
		Assignees   *[]string `json:"assignees"`
		Milestone   *int64    `json:"milestone"`
		State       *string   `json:"state"`
		StateReason string    `json:"state_reason"`
	}
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	repo, _, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	change, err := issueChange(is, in.Title, in.Body, in.Assignee, in.Assignees)
	if err != nil {
		return err
	}
	if change.Milestone, err = h.milestoneChange(r.Context(), repo, is, in.Milestone); err != nil {
		return err
	}
	if change.State, change.Reason, err = stateChange(is, api.Deref(in.State), in.StateReason); err != nil {
		return err
	}
	if err := h.Forge.EditIssue(r.Context(), id.User.Address, repo, is, change); err != nil {
		return err
	}
	is, err = h.Forge.Index().Issue(r.Context(), repo.ID, is.Number)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, h.LinksFor(r, repo).Issue(repo, is, h.pullRecord(r.Context(), repo, is)))
	return nil
}

func (h *Handler) pullRecord(ctx context.Context, repo index.Repo, is index.Issue) *index.Pull {
	if !is.IsPull {
		return nil
	}
	pr, err := h.Forge.Index().Pull(ctx, repo.ID, is.Number)
	if err != nil {
		return nil
	}
	return &pr
}

// issueChange checks the title and body an edit sets, keeping those that
// differ from is, and names its assignees (Gitea's assignee and assignees).
// An empty title leaves the title as it is, as in Gitea: its SDK always
// sends one, "" when the caller set none. A title of only spaces is still
// refused.
func issueChange(is index.Issue, title, body, assignee *string, assignees *[]string) (forge.IssueChange, error) {
	var c forge.IssueChange
	if title != nil && *title != "" && *title != is.Title {
		if err := api.CheckTitle(*title); err != nil {
			return c, err
		}
		c.Title = title
	}
	if body != nil && *body != is.Body {
		if err := api.CheckBody("body", *body); err != nil {
			return c, err
		}
		c.Body = body
	}
	// As Gitea: an assignee of "" (the SDK's pull request edit always
	// sends one) and no assignees leave them as they are; [] clears them.
	if (assignee != nil && *assignee != "") || assignees != nil {
		var many []string
		if assignees != nil {
			many = *assignees
		}
		names := assigneeNames(api.Deref(assignee), many)
		c.Assignees = &names
	}
	return c, nil
}
