package repo

import (
	"net/http"
	"strconv"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// What writers do to runs (cancel, re-run, approve, dispatch) and owners to
// runners, in Gitea's and GitHub's routes.

func (a *Handler) RegisterActionControls(mux *http.ServeMux) {
	if a.Actions == nil || a.Hosting == nil {
		return
	}
	const base = "/api/v1/repos/{owner}/{repo}/actions"
	mux.HandleFunc("POST "+base+"/runs/{run}/cancel", a.SignedIn(auth.ScopeWrite, a.cancelRun))
	mux.HandleFunc("POST "+base+"/runs/{run}/approve", a.SignedIn(auth.ScopeWrite, a.approveRun))
	mux.HandleFunc("POST "+base+"/runs/{run}/rerun", a.SignedIn(auth.ScopeWrite, a.rerun(false)))
	mux.HandleFunc("POST "+base+"/runs/{run}/rerun-failed-jobs", a.SignedIn(auth.ScopeWrite, a.rerun(true)))
	mux.HandleFunc("GET "+base+"/workflows", a.Serve(a.listWorkflows))
	mux.HandleFunc("POST "+base+"/workflows/{file}/dispatches", a.SignedIn(auth.ScopeWrite, a.dispatch))
	mux.HandleFunc("GET "+base+"/runners", a.SignedIn(auth.ScopeRead, a.listRepoRunners))
	mux.HandleFunc("DELETE "+base+"/runners/{id}", a.SignedIn(auth.ScopeWrite, a.deleteRepoRunner))
}

// writableRun is the path's run, and its repository, when the caller may write to
// that repository.
func (a *Handler) writableRun(r *http.Request) (index.Repo, actions.Run, error) {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return index.Repo{}, actions.Run{}, err
	}
	if perm < chainforge.PermWrite {
		return index.Repo{}, actions.Run{}, usererr.Deniedf("only the repository's writers may do this")
	}
	run, err := a.runIn(r, rec)
	return rec, run, err
}

func (a *Handler) cancelRun(w http.ResponseWriter, r *http.Request) error {
	_, run, err := a.writableRun(r)
	if err != nil {
		return err
	}
	if err := a.Actions.Cancel(r.Context(), run.Repo, run.ID); err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusAccepted, struct{}{})
	return nil
}

// approveRun lets a first-time contributor's run go on; its statuses are
// then posted in the approving writer's name.
func (a *Handler) approveRun(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, run, err := a.writableRun(r)
	if err != nil {
		return err
	}
	next, err := a.Actions.Approve(r.Context(), run.Repo, run.ID, id.User.Address)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, a.runJSON(r, rec, next))
	return nil
}

func (a *Handler) rerun(failedOnly bool) api.Endpoint {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := api.RequireUser(r)
		if err != nil {
			return err
		}
		rec, run, err := a.writableRun(r)
		if err != nil {
			return err
		}
		next, err := a.Actions.Rerun(r.Context(), run.Repo, run.ID, id.User.Address, failedOnly)
		if err != nil {
			return err
		}
		api.WriteJSON(w, http.StatusCreated, a.runJSON(r, rec, next))
		return nil
	}
}

// workflowJSON is Gitea's ActionWorkflow.
type workflowJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Path     string `json:"path"`
	State    string `json:"state"`
	URL      string `json:"url"`
	HTMLURL  string `json:"html_url"`
	BadgeURL string `json:"badge_url"`
}

func (a *Handler) listWorkflows(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	wfs, err := a.Actions.Workflows(r.Context(), rec.ID)
	if err != nil {
		return err
	}
	site := api.SiteURL(r) + "/" + rec.Owner.Username + "/" + rec.Name
	out := struct {
		Workflows []workflowJSON `json:"workflows"`
		Total     int            `json:"total_count"`
	}{Workflows: []workflowJSON{}, Total: len(wfs)}
	for _, wf := range wfs {
		out.Workflows = append(out.Workflows, workflowJSON{ID: wf.ID, Name: wf.Name, Path: wf.Path, State: "active",
			URL:     api.SiteURL(r) + "/api/v1/repos/" + rec.Owner.Username + "/" + rec.Name + "/actions/workflows/" + wf.ID,
			HTMLURL: site + "/actions?workflow=" + wf.ID, BadgeURL: site + "/actions/workflows/" + wf.ID + "/badge.svg"})
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *Handler) dispatch(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	if perm < chainforge.PermWrite {
		return usererr.Deniedf("only the repository's writers may run its workflows")
	}
	var in struct {
		Ref    string            `json:"ref"`
		Inputs map[string]string `json:"inputs"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if _, err := a.Actions.Dispatch(r.Context(), rec.ID, r.PathValue("file"), in.Ref, in.Inputs, id.User.Address); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// runnerJSON is Gitea's ActionRunner.
type runnerJSON struct {
	ID         int64             `json:"id"`
	Name       string            `json:"name"`
	Status     string            `json:"status"`
	Busy       bool              `json:"busy"`
	Ephemeral  bool              `json:"ephemeral"`
	Labels     []runnerLabelJSON `json:"labels"`
	Version    string            `json:"version"`
	LastOnline string            `json:"last_online,omitempty"`
}

type runnerLabelJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
}

// ownedRepo is the path's repository when the caller owns it.
func (a *Handler) ownedRepo(r *http.Request) (actions.Scope, error) {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return actions.Scope{}, err
	}
	if perm < chainforge.PermOwner {
		return actions.Scope{}, usererr.Deniedf("only the repository's admins manage its runners")
	}
	return actions.Scope{Repo: rec.ID}, nil
}

func (a *Handler) listRepoRunners(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.ownedRepo(r)
	if err != nil {
		return err
	}
	runners, err := a.Actions.Runners(r.Context(), sc)
	if err != nil {
		return err
	}
	out := struct {
		Runners []runnerJSON `json:"runners"`
		Total   int          `json:"total_count"`
	}{Runners: []runnerJSON{}, Total: len(runners)}
	for _, rn := range runners {
		busy, err := a.Actions.Busy(r.Context(), rn.ID)
		if err != nil {
			return err
		}
		j := runnerJSON{ID: rn.ID, Name: rn.Name, Status: "offline", Busy: busy, Labels: []runnerLabelJSON{}, Version: rn.Version, LastOnline: msTime(rn.LastOnline)}
		if a.Actions.Online(rn) {
			j.Status = "idle"
			if busy {
				j.Status = "active"
			}
		}
		for i, l := range rn.Labels {
			j.Labels = append(j.Labels, runnerLabelJSON{ID: int64(i + 1), Name: l, Type: "custom"})
		}
		out.Runners = append(out.Runners, j)
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *Handler) deleteRepoRunner(w http.ResponseWriter, r *http.Request) error {
	sc, err := a.ownedRepo(r)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return usererr.Missingf("no runner %s here", r.PathValue("id"))
	}
	if err := a.Actions.DeleteRunner(r.Context(), sc, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
