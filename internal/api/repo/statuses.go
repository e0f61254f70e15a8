package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Commit statuses, Gitea's shapes: CI results on a commit, on chain
// (status.create; writers set them). The combined status is the worst
// state of the latest status of each context.

func (a *Handler) RegisterStatuses(mux *http.ServeMux) {
	if a.Hosting == nil {
		return
	}
	const repo = "/api/v1/repos/{owner}/{repo}"
	mux.HandleFunc("POST "+repo+"/statuses/{sha}", a.SignedIn(auth.ScopeWrite, a.createStatus))
	mux.HandleFunc("GET "+repo+"/statuses/{sha}", a.Serve(a.listStatuses))
	mux.HandleFunc("GET "+repo+"/commits/{commitish}/statuses", a.Serve(a.listStatuses))
	mux.HandleFunc("GET "+repo+"/commits/{commitish}/status", a.Serve(a.getCombinedStatus))
}

// combinedStatusJSON is Gitea's CombinedStatus.
type combinedStatusJSON struct {
	State      string                 `json:"state"`
	SHA        string                 `json:"sha"`
	TotalCount int                    `json:"total_count"`
	Statuses   []api.CommitStatusJSON `json:"statuses"`
	Repository api.RepoJSON           `json:"repository"`
	CommitURL  string                 `json:"commit_url"`
	URL        string                 `json:"url"`
}

func (a *Handler) createStatus(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		State       string `json:"state"`
		TargetURL   string `json:"target_url"`
		Description string `json:"description"`
		Context     string `json:"context"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if err := api.CheckChainLines(api.TextField{Name: "target_url", Value: in.TargetURL}); err != nil {
		return err
	}
	sha := strings.ToLower(r.PathValue("sha"))
	res, err := a.Forge.Do(r.Context(), id.User.Address, chainforge.StatusCreate{
		Repo: rec.ID, SHA: sha, State: in.State, Context: in.Context, Description: in.Description, TargetURL: in.TargetURL,
	})
	if err != nil {
		return err
	}
	st, err := a.Forge.Index().CommitStatusByID(r.Context(), rec.ID, res.Change.Status.ID)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, a.ToStatus(r, a.repoAPI(r, rec), st))
	return nil
}

// statusSHA is the commit of the path: {sha} as given, or {commitish} (a
// branch, tag or commit; a branch with a slash is sent escaped) resolved.
func (a *Handler) statusSHA(r *http.Request) (index.Repo, string, error) {
	if sha := r.PathValue("sha"); sha != "" {
		rec, _, err := a.RepoOf(r)
		if err != nil {
			return index.Repo{}, "", err
		}
		if !isHex(strings.ToLower(sha)) {
			return index.Repo{}, "", usererr.BadFieldf("sha", "sha must be a commit id")
		}
		return rec, strings.ToLower(sha), nil
	}
	c, err := a.codeOf(r)
	if err != nil {
		return index.Repo{}, "", err
	}
	sha, _, err := a.resolve(r, c, r.PathValue("commitish"))
	return c.Repo, sha, err
}

func (a *Handler) listStatuses(w http.ResponseWriter, r *http.Request) error {
	rec, sha, err := a.statusSHA(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Forge.Index().CommitStatuses(r.Context(), rec.ID, sha, p)
	if err != nil {
		return err
	}
	apiURL := a.repoAPI(r, rec)
	out := make([]api.CommitStatusJSON, 0, len(list))
	for _, st := range list {
		out = append(out, a.ToStatus(r, apiURL, st))
	}
	return a.RespondList(w, r, p, total, out, nil)
}

func (a *Handler) getCombinedStatus(w http.ResponseWriter, r *http.Request) error {
	rec, sha, err := a.statusSHA(r)
	if err != nil {
		return err
	}
	_, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	list, err := a.Forge.Index().LatestStatuses(r.Context(), rec.ID, sha)
	if err != nil {
		return err
	}
	apiURL := a.repoAPI(r, rec)
	out := combinedStatusJSON{SHA: sha, TotalCount: len(list), Statuses: []api.CommitStatusJSON{}, Repository: a.RepoJSON(r, rec, perm),
		CommitURL: apiURL + "/commits/" + sha, URL: apiURL + "/commits/" + sha + "/status"}
	states := make([]string, 0, len(list))
	for _, st := range list {
		out.Statuses = append(out.Statuses, a.ToStatus(r, apiURL, st))
		states = append(states, st.State)
	}
	out.State = api.CombinedState(states)
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

// repoAPI is rec's API URL.
func (a *Handler) repoAPI(r *http.Request, rec index.Repo) string {
	return api.SiteURL(r) + "/api/v1/repos/" + api.ToForgeUser(r, rec.Owner).Login + "/" + rec.Name
}
