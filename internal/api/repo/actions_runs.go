package repo

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Workflow runs and jobs, Gitea's Actions API (1.23+): what any reader of
// the repository may see.

func (a *Handler) RegisterActionRuns(mux *http.ServeMux) {
	if a.Actions == nil || a.Hosting == nil {
		return
	}
	const base = "/api/v1/repos/{owner}/{repo}/actions"
	mux.HandleFunc("GET "+base+"/runs", a.Serve(a.listRuns))
	mux.HandleFunc("GET "+base+"/runs/{run}", a.Serve(a.getRun))
	mux.HandleFunc("GET "+base+"/runs/{run}/jobs", a.Serve(a.listRunJobs))
	mux.HandleFunc("GET "+base+"/jobs/{job}", a.Serve(a.getJob))
	mux.HandleFunc("GET "+base+"/jobs/{job}/logs", a.Serve(a.jobLogs))
	mux.HandleFunc("GET "+base+"/tasks", a.Serve(a.listTasks))
}

// workflowRunJSON is Gitea's ActionWorkflowRun.
type workflowRunJSON struct {
	ID           int64        `json:"id"`
	URL          string       `json:"url"`
	HTMLURL      string       `json:"html_url"`
	DisplayTitle string       `json:"display_title"`
	Path         string       `json:"path"`
	Event        string       `json:"event"`
	RunAttempt   int64        `json:"run_attempt"`
	RunNumber    int64        `json:"run_number"`
	HeadSHA      string       `json:"head_sha"`
	HeadBranch   string       `json:"head_branch"`
	Status       string       `json:"status"`
	Conclusion   string       `json:"conclusion,omitempty"`
	Actor        api.UserJSON `json:"actor"`
	TriggerActor api.UserJSON `json:"trigger_actor"`
	StartedAt    string       `json:"started_at,omitempty"`
	CompletedAt  string       `json:"completed_at,omitempty"`
	CreatedAt    string       `json:"created_at"`
	// State is dForge's state: blocked, waiting, running, success,
	// failure, cancelled or skipped.
	State string `json:"state"`
	// Error is why the workflow could not run (dForge's): the parser's
	// message for a malformed file.
	Error string `json:"error,omitempty"`
	// NeedApproval is Gitea's flag of a first-time contributor's pull
	// request from a fork, which runs once a writer approves it.
	NeedApproval bool `json:"need_approval"`
	// ApprovedBy is the writer who approved it, in whose name its
	// statuses are posted.
	ApprovedBy *api.UserJSON `json:"approved_by,omitempty"`
}

// workflowJobJSON is Gitea's ActionWorkflowJob.
type workflowJobJSON struct {
	ID         int64              `json:"id"`
	URL        string             `json:"url"`
	HTMLURL    string             `json:"html_url"`
	RunID      int64              `json:"run_id"`
	RunURL     string             `json:"run_url"`
	Name       string             `json:"name"`
	Labels     []string           `json:"labels"`
	RunAttempt int64              `json:"run_attempt"`
	HeadSHA    string             `json:"head_sha"`
	HeadBranch string             `json:"head_branch"`
	Status     string             `json:"status"`
	Conclusion string             `json:"conclusion,omitempty"`
	RunnerID   int64              `json:"runner_id"`
	Steps      []workflowStepJSON `json:"steps"`
	// dForge's: its state, its key in the workflow, the keys of the jobs
	// it needs, and how many log rows it has.
	State       string   `json:"state"`
	Key         string   `json:"key"`
	Needs       []string `json:"needs"`
	LogRows     int64    `json:"log_rows"`
	StartedAt   string   `json:"started_at,omitempty"`
	CompletedAt string   `json:"completed_at,omitempty"`
}

// workflowStepJSON is Gitea's ActionWorkflowStep.
type workflowStepJSON struct {
	Name        string `json:"name"`
	Number      int    `json:"number"`
	Status      string `json:"status"`
	Conclusion  string `json:"conclusion,omitempty"`
	StartedAt   string `json:"started_at,omitempty"`
	CompletedAt string `json:"completed_at,omitempty"`
	// dForge's: its state and its rows of the job's log.
	State     string `json:"state"`
	LogIndex  int64  `json:"log_index"`
	LogLength int64  `json:"log_length"`
}

// ghStatus is GitHub's status and conclusion for a dForge state.
func ghStatus(st string) (status, conclusion string) {
	switch st {
	case actions.StatusBlocked, actions.StatusWaiting:
		return "queued", ""
	case actions.StatusRunning:
		return "in_progress", ""
	}
	return "completed", st
}

func done(st string) bool {
	_, c := ghStatus(st)
	return c != ""
}

func msTime(ms int64) string {
	if ms == 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}

func (a *Handler) runJSON(r *http.Request, rec index.Repo, run actions.Run) workflowRunJSON {
	status, conclusion := ghStatus(run.Status)
	base := api.SiteURL(r)
	actor := a.actorJSON(r, run.Actor)
	branch, _ := strings.CutPrefix(run.Ref, "refs/heads/")
	var approver *api.UserJSON
	if run.ApprovedBy != "" {
		u := a.actorJSON(r, run.ApprovedBy)
		approver = &u
	}
	return workflowRunJSON{NeedApproval: run.NeedApproval, ApprovedBy: approver, ID: run.ID, URL: fmt.Sprintf("%s/api/v1/repos/%s/%s/actions/runs/%d", base, rec.Owner.Username, rec.Name, run.ID),
		HTMLURL: fmt.Sprintf("%s/%s/%s/actions/runs/%d", base, rec.Owner.Username, rec.Name, run.ID), DisplayTitle: run.Title,
		Path: run.Workflow, Event: run.Event, RunAttempt: 1, RunNumber: run.Number, HeadSHA: run.SHA, HeadBranch: branch,
		Status: status, Conclusion: conclusion, Actor: actor, TriggerActor: actor, StartedAt: msTime(run.Started), CompletedAt: msTime(run.Stopped), Error: run.Error,
		CreatedAt: msTime(run.Created), State: run.Status}
}

// actorJSON is the user who started a run, as the chain names them.
func (a *Handler) actorJSON(r *http.Request, address string) api.UserJSON {
	addr := common.HexToAddress(address)
	if p, err := a.Forge.Index().PersonByAddress(r.Context(), addr); err == nil {
		return api.PersonJSON(r, p)
	}
	return api.PersonJSON(r, index.Person{User: index.User{Address: addr.Hex(), Username: a.DefaultName(r.Context(), addr)}, ID: api.UserIDOf(r, addr)})
}

func (a *Handler) jobJSON(r *http.Request, rec index.Repo, run actions.Run, j actions.Job) workflowJobJSON {
	status, conclusion := ghStatus(j.Status)
	api1 := fmt.Sprintf("%s/api/v1/repos/%s/%s/actions", api.SiteURL(r), rec.Owner.Username, rec.Name)
	branch, _ := strings.CutPrefix(run.Ref, "refs/heads/")
	out := workflowJobJSON{ID: j.ID, URL: fmt.Sprintf("%s/jobs/%d", api1, j.ID), HTMLURL: fmt.Sprintf("%s/%s/%s/actions/runs/%d", api.SiteURL(r), rec.Owner.Username, rec.Name, run.ID),
		RunID: run.ID, RunURL: fmt.Sprintf("%s/runs/%d", api1, run.ID), Name: j.Name, Labels: j.RunsOn, RunAttempt: 1, HeadSHA: run.SHA, HeadBranch: branch,
		Status: status, Conclusion: conclusion, RunnerID: j.RunnerID, Steps: []workflowStepJSON{}, StartedAt: msTime(j.Started), CompletedAt: msTime(j.Stopped),
		State: j.Status, Key: j.Key, Needs: j.Needs, LogRows: j.LogRows}
	if out.Labels == nil {
		out.Labels = []string{}
	}
	if out.Needs == nil {
		out.Needs = []string{}
	}
	for i, name := range j.StepNames {
		sp := actions.Step{}
		if i < len(j.Steps) {
			sp = j.Steps[i]
		}
		st := actions.StatusRunning
		if sp.Result != "" {
			st = sp.Result
		} else if sp.Started == 0 {
			st = actions.StatusWaiting
		}
		if done(j.Status) && sp.Result == "" && sp.Started == 0 {
			st = actions.StatusSkipped // the job ended before it
		}
		s, c := ghStatus(st)
		out.Steps = append(out.Steps, workflowStepJSON{Name: name, Number: i + 1, Status: s, Conclusion: c, StartedAt: msTime(sp.Started), CompletedAt: msTime(sp.Stopped),
			State: st, LogIndex: sp.LogIndex, LogLength: sp.LogLength})
	}
	return out
}

func (a *Handler) listRuns(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := actions.RunFilter{Workflow: q.Get("workflow"), Event: q.Get("event"), Status: q.Get("status"), Actor: q.Get("actor"), Limit: p.Limit, Offset: (p.Number - 1) * p.Limit}
	if b := q.Get("branch"); b != "" {
		f.Ref = "refs/heads/" + b
	}
	if who := q.Get("actor"); who != "" { // a name or an address
		if !common.IsHexAddress(who) {
			addr, err := a.Hosting.Owner(r.Context(), who)
			if err != nil { // no such user: no runs of theirs
				addr = common.Address{}
			}
			who = addr.Hex()
		}
		f.Actor = strings.ToLower(common.HexToAddress(who).Hex())
	}
	runs, total, err := a.Actions.Runs(r.Context(), rec.ID, f)
	if err != nil {
		return err
	}
	out := struct {
		Runs  []workflowRunJSON `json:"workflow_runs"`
		Total int64             `json:"total_count"`
	}{Runs: []workflowRunJSON{}, Total: total}
	for _, run := range runs {
		out.Runs = append(out.Runs, a.runJSON(r, rec, run))
	}
	w.Header().Set("X-Total-Count", strconv.FormatInt(total, 10))
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

// runOf is the path's repository and run.
func (a *Handler) runOf(r *http.Request) (index.Repo, actions.Run, error) {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return index.Repo{}, actions.Run{}, err
	}
	run, err := a.runIn(r, rec)
	return rec, run, err
}

// runIn is the run the path names in repository rec.
func (a *Handler) runIn(r *http.Request, rec index.Repo) (actions.Run, error) {
	id, err := strconv.ParseInt(r.PathValue("run"), 10, 64)
	if err != nil || id <= 0 {
		return actions.Run{}, usererr.Missingf("the repository has no run %s", r.PathValue("run"))
	}
	return a.Actions.RunByID(r.Context(), rec.ID, id)
}

func (a *Handler) getRun(w http.ResponseWriter, r *http.Request) error {
	rec, run, err := a.runOf(r)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, a.runJSON(r, rec, run))
	return nil
}

func (a *Handler) listRunJobs(w http.ResponseWriter, r *http.Request) error {
	rec, run, err := a.runOf(r)
	if err != nil {
		return err
	}
	jobs, err := a.Actions.Jobs(r.Context(), run.ID)
	if err != nil {
		return err
	}
	out := struct {
		Jobs  []workflowJobJSON `json:"jobs"`
		Total int               `json:"total_count"`
	}{Jobs: []workflowJobJSON{}, Total: len(jobs)}
	for _, j := range jobs {
		out.Jobs = append(out.Jobs, a.jobJSON(r, rec, run, j))
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

// jobOf is the path's repository, job and the job's run.
func (a *Handler) jobOf(r *http.Request) (index.Repo, actions.Run, actions.Job, error) {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return index.Repo{}, actions.Run{}, actions.Job{}, err
	}
	id, err := strconv.ParseInt(r.PathValue("job"), 10, 64)
	if err != nil || id <= 0 {
		return index.Repo{}, actions.Run{}, actions.Job{}, usererr.Missingf("the repository has no job %s", r.PathValue("job"))
	}
	j, err := a.Actions.JobByID(r.Context(), rec.ID, id)
	if err != nil {
		return index.Repo{}, actions.Run{}, actions.Job{}, err
	}
	run, err := a.Actions.RunByID(r.Context(), rec.ID, j.RunID)
	return rec, run, j, err
}

func (a *Handler) getJob(w http.ResponseWriter, r *http.Request) error {
	rec, run, j, err := a.jobOf(r)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, a.jobJSON(r, rec, run, j))
	return nil
}

// jobLogs is the job's whole log as text, one line per row with its time,
// as Gitea's download.
func (a *Handler) jobLogs(w http.ResponseWriter, r *http.Request) error {
	_, _, j, err := a.jobOf(r)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="job-%d.log"`, j.ID))
	const batch = 5000
	for from := int64(0); ; from += batch {
		rows, err := a.Actions.Log(r.Context(), j.ID, from, batch)
		if err != nil {
			return err
		}
		for _, l := range rows {
			fmt.Fprintf(w, "%s %s\n", time.UnixMilli(l.Time).UTC().Format(time.RFC3339Nano), l.Content)
		}
		if len(rows) < batch {
			return nil
		}
	}
}

// actionTaskJSON is Gitea's ActionTask.
type actionTaskJSON struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	HeadBranch   string `json:"head_branch"`
	HeadSHA      string `json:"head_sha"`
	RunNumber    int64  `json:"run_number"`
	Event        string `json:"event"`
	DisplayTitle string `json:"display_title"`
	Status       string `json:"status"`
	WorkflowID   string `json:"workflow_id"`
	URL          string `json:"url"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	RunStartedAt string `json:"run_started_at,omitempty"`
}

// listTasks is Gitea's GET …/actions/tasks: the repository's jobs,
// newest first, with Gitea's states.
func (a *Handler) listTasks(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	tasks, total, err := a.Actions.Tasks(r.Context(), rec.ID, p.Limit, (p.Number-1)*p.Limit)
	if err != nil {
		return err
	}
	out := struct {
		Tasks []actionTaskJSON `json:"workflow_runs"`
		Total int64            `json:"total_count"`
	}{Tasks: []actionTaskJSON{}, Total: total}
	for _, t := range tasks {
		branch, _ := strings.CutPrefix(t.Run.Ref, "refs/heads/")
		updated := max(t.Job.Stopped, t.Job.Started, t.Run.Created)
		out.Tasks = append(out.Tasks, actionTaskJSON{ID: t.Job.ID, Name: t.Job.Name, HeadBranch: branch, HeadSHA: t.Run.SHA, RunNumber: t.Run.Number,
			Event: t.Run.Event, DisplayTitle: t.Run.Title, Status: t.Job.Status, WorkflowID: t.Run.Workflow,
			URL:       fmt.Sprintf("%s/%s/%s/actions/runs/%d", api.SiteURL(r), rec.Owner.Username, rec.Name, t.Run.ID),
			CreatedAt: msTime(t.Run.Created), UpdatedAt: msTime(updated), RunStartedAt: msTime(t.Run.Started)})
	}
	w.Header().Set("X-Total-Count", strconv.FormatInt(total, 10))
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}
