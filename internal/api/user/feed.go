package user

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/api/itemjson"
	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// The feed: what the accounts a user follows, and the repositories they
// watch or star, have done, read from the activity projection Home's list
// reads too (internal/index/activity.go). /user/feed is dForge's own, in
// Home's shape; the /activities/feeds routes are Gitea's, in its shape.

func (a *Handler) RegisterFeed(mux *http.ServeMux) {
	if a.Forge == nil || a.Auth == nil || a.Hosting == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/user/feed", a.SignedIn(auth.ScopeRead, a.listMyFeed))
	mux.HandleFunc("GET /api/v1/users/{username}/activities/feeds", a.Serve(a.listUserActivityFeeds))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/activities/feeds", a.Serve(a.listRepoActivityFeeds))
}

// listMyFeed lists, newest first, the signed-in user's own actions and
// those of the accounts they follow and in the repositories they watch or
// star: repositories created, issues and pull requests opened, comments,
// reviews, merges and pushes, in the shape of GET /activity. This route is
// dForge's own; Gitea's nearest is /users/{username}/activities/feeds.
// Private repositories' actions appear only to those who may read them,
// and never under a public-only token.
func (a *Handler) listMyFeed(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	me := id.User.Address
	items, total, err := a.Forge.Activities(r.Context(), me, index.ActivityFilter{FeedOf: &me}, p)
	return a.RespondList(w, r, p, total, a.ModViewOf(r).MaskActivities(items), err)
}

// listUserActivityFeeds lists a user's feed as Gitea does: what they
// follow, or with only-performed-by=true their own actions; date
// (YYYY-MM-DD, UTC) keeps one day's.
func (a *Handler) listUserActivityFeeds(w http.ResponseWriter, r *http.Request) error {
	who, err := a.accountOf(r, r.PathValue("username"))
	if err != nil {
		return err
	}
	f, p, err := activityQuery(r)
	if err != nil {
		return err
	}
	if r.URL.Query().Get("only-performed-by") == "true" {
		f.Actor = &who
	} else {
		f.FeedOf = &who
	}
	return a.respondActivities(w, r, f, p, api.UserIDOf(r, who))
}

// listRepoActivityFeeds lists a repository's actions as Gitea does,
// newest first; date (YYYY-MM-DD, UTC) keeps one day's.
func (a *Handler) listRepoActivityFeeds(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	f, p, err := activityQuery(r)
	if err != nil {
		return err
	}
	f.Repo = rec.ID
	return a.respondActivities(w, r, f, p, 0)
}

// activityQuery reads the page and Gitea's date parameter.
func activityQuery(r *http.Request) (index.ActivityFilter, index.Page, error) {
	var f index.ActivityFilter
	p, err := api.PageOf(r)
	if err != nil {
		return f, p, err
	}
	if v := r.URL.Query().Get("date"); v != "" {
		day, err := time.Parse(time.DateOnly, v)
		if err != nil {
			return f, p, usererr.BadFieldf("date", "date must be a day as YYYY-MM-DD, not %q", v)
		}
		f.SinceNS, f.BeforeNS = day.UnixNano(), day.Add(24*time.Hour).UnixNano()
	}
	return f, p, nil
}

// respondActivities answers a page of f's actions in Gitea's shape; user
// is the feed's owner (Gitea's user_id), 0 for a repository's.
func (a *Handler) respondActivities(w http.ResponseWriter, r *http.Request, f index.ActivityFilter, p index.Page, user int64) error {
	viewer := api.ViewerOf(r)
	items, total, err := a.Forge.Activities(r.Context(), viewer, f, p)
	if err != nil {
		return err
	}
	repos := map[uint64]*api.RepoItem{} // nil: the viewer cannot read it
	type shown struct {
		it   index.Activity
		repo *api.RepoItem
	}
	list := make([]shown, 0, len(items))
	for _, it := range a.ModViewOf(r).MaskActivities(items) {
		repo, ok := repos[it.Repo.ID]
		if !ok {
			// The list was filtered by the same rule; one that turns
			// Hidden in between is left out of its row, not shown.
			if repo, err = a.RepoItemOf(r, it.Repo.ID); err != nil {
				return err
			}
			repos[it.Repo.ID] = repo
		}
		if repo == nil {
			continue
		}
		list = append(list, shown{it, repo})
	}
	// Each item is kept encoded by everything it shows (api.ActivityKey),
	// its repository by what its JSON is kept by.
	var out api.EncodedJSON[[]activityJSON] // named, for the OpenAPI document
	out, err = api.EncodeItems(a.API, len(list), func(i int, k *itemjson.Key) error {
		api.ActivityKey(r, k, list[i].it, list[i].repo.Key, user)
		return nil
	}, func(i int) activityJSON { return giteaActivity(r, list[i].it, list[i].repo.Shape(a.API, r), user) })
	return a.RespondList(w, r, p, total, out, err)
}

// activityJSON is Gitea's Activity.
type activityJSON struct {
	ID        int64             `json:"id"`
	UserID    int64             `json:"user_id"`
	OpType    string            `json:"op_type"`
	ActUserID int64             `json:"act_user_id"`
	ActUser   api.ForgeUserJSON `json:"act_user"`
	RepoID    uint64            `json:"repo_id"`
	Repo      *api.RepoJSON     `json:"repo"`
	CommentID uint64            `json:"comment_id"`
	// Comment is not filled: comment_id names it for GET
	// /repos/{owner}/{repo}/issues/comments/{id}.
	Comment   *api.CommentJSON `json:"comment"`
	RefName   string           `json:"ref_name"`
	IsPrivate bool             `json:"is_private"`
	Content   string           `json:"content"`
	Created   string           `json:"created"`
}

func giteaActivity(r *http.Request, it index.Activity, repo *api.RepoJSON, user int64) activityJSON {
	actor := api.ToForgeUser(r, it.Actor)
	if user == 0 {
		user = actor.ID
	}
	j := activityJSON{
		ID: it.ID, UserID: user, OpType: giteaOpType(it), ActUserID: actor.ID, ActUser: actor, RepoID: it.Repo.ID, Repo: repo,
		CommentID: it.CommentID, RefName: it.Ref, IsPrivate: it.Repo.Private, Created: it.Time,
	}
	// Gitea's content for an issue's actions is "number|text".
	switch {
	case it.Type == "comment":
		j.Content = strconv.FormatUint(it.Number, 10) + "|" + it.Content
	case it.Number != 0:
		j.Content = strconv.FormatUint(it.Number, 10) + "|" + it.Title
	}
	return j
}

// giteaOpType is Gitea's op_type for an action.
func giteaOpType(it index.Activity) string {
	switch it.Type {
	case "repo.create":
		return "create_repo"
	case "push":
		if strings.HasPrefix(it.Ref, "refs/tags/") {
			return "push_tag"
		}
		return "commit_repo"
	case "issue.open":
		return "create_issue"
	case "pr.open":
		return "create_pull_request"
	case "comment":
		if it.IsPull {
			return "comment_pull"
		}
		return "comment_issue"
	case "review":
		switch it.State {
		case "approve":
			return "approve_pull_request"
		case "request_changes":
			return "reject_pull_request"
		}
		return "comment_pull"
	case "pr.merge":
		return "merge_pull_request"
	}
	return it.Type
}
