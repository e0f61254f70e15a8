package repo

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/actions"
	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Runs' artifacts, Gitea's Actions API: readers list and download them,
// writers delete them. A private repository's are 404 to non-readers,
// as its runs are (RepoOf).

func (a *Handler) RegisterActionArtifacts(mux *http.ServeMux) {
	if a.Actions == nil || a.Hosting == nil {
		return
	}
	const base = "/api/v1/repos/{owner}/{repo}/actions"
	mux.HandleFunc("GET "+base+"/artifacts", a.Serve(a.listArtifacts))
	mux.HandleFunc("GET "+base+"/runs/{run}/artifacts", a.Serve(a.listRunArtifacts))
	mux.HandleFunc("GET "+base+"/artifacts/{artifact}", a.Serve(a.getArtifact))
	mux.HandleFunc("DELETE "+base+"/artifacts/{artifact}", a.SignedIn(auth.ScopeWrite, a.deleteArtifact))
	mux.HandleFunc("GET "+base+"/artifacts/{artifact}/zip", a.Serve(a.downloadArtifact))
}

// artifactJSON is Gitea's ActionArtifact, with dForge's cid.
type artifactJSON struct {
	ID                 int64               `json:"id"`
	Name               string              `json:"name"`
	SizeInBytes        int64               `json:"size_in_bytes"`
	URL                string              `json:"url"`
	ArchiveDownloadURL string              `json:"archive_download_url"`
	Expired            bool                `json:"expired"`
	WorkflowRun        artifactWorkflowRun `json:"workflow_run"`
	CreatedAt          string              `json:"created_at"`
	UpdatedAt          string              `json:"updated_at"`
	ExpiresAt          string              `json:"expires_at"`
	// CID is the artifact's UnixFS root in the blockstore (a public
	// repository's; "" for a private one's, which stays on this node).
	CID string `json:"cid"`
}

// artifactWorkflowRun is Gitea's ActionWorkflowRun as an artifact names it.
type artifactWorkflowRun struct {
	ID           int64  `json:"id"`
	RepositoryID uint64 `json:"repository_id"`
	HeadSHA      string `json:"head_sha"`
	HeadBranch   string `json:"head_branch"`
}

// artifactListJSON is Gitea's ActionArtifactsResponse.
type artifactListJSON struct {
	Artifacts []artifactJSON `json:"artifacts"`
	Total     int64          `json:"total_count"`
}

func (a *Handler) artifactJSON(r *http.Request, rec index.Repo, run actions.Run, art actions.Artifact) artifactJSON {
	self := fmt.Sprintf("%s/api/v1/repos/%s/%s/actions/artifacts/%d", api.SiteURL(r), rec.Owner.Username, rec.Name, art.ID)
	branch, _ := strings.CutPrefix(run.Ref, "refs/heads/")
	return artifactJSON{ID: art.ID, Name: art.Name, SizeInBytes: art.Size, URL: self, ArchiveDownloadURL: self + "/zip",
		Expired: art.Status == actions.ArtifactExpired, CID: art.CID,
		WorkflowRun: artifactWorkflowRun{ID: art.RunID, RepositoryID: rec.ID, HeadSHA: run.SHA, HeadBranch: branch},
		CreatedAt:   msTime(art.Created), UpdatedAt: msTime(art.Updated), ExpiresAt: msTime(art.Expires)}
}

// writeArtifacts answers a page of artifacts with their runs.
func (a *Handler) writeArtifacts(w http.ResponseWriter, r *http.Request, rec index.Repo, f actions.ArtifactFilter) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	f.Name, f.Limit, f.Offset = r.URL.Query().Get("name"), p.Limit, (p.Number-1)*p.Limit
	list, total, err := a.Actions.Artifacts(r.Context(), rec.ID, f)
	if err != nil {
		return err
	}
	out := artifactListJSON{Artifacts: []artifactJSON{}, Total: total}
	runs := map[int64]actions.Run{}
	for _, art := range list {
		run, ok := runs[art.RunID]
		if !ok {
			if run, err = a.Actions.RunByID(r.Context(), rec.ID, art.RunID); err != nil {
				return err
			}
			runs[art.RunID] = run
		}
		out.Artifacts = append(out.Artifacts, a.artifactJSON(r, rec, run, art))
	}
	w.Header().Set("X-Total-Count", strconv.FormatInt(total, 10))
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *Handler) listArtifacts(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	return a.writeArtifacts(w, r, rec, actions.ArtifactFilter{})
}

func (a *Handler) listRunArtifacts(w http.ResponseWriter, r *http.Request) error {
	rec, run, err := a.runOf(r)
	if err != nil {
		return err
	}
	return a.writeArtifacts(w, r, rec, actions.ArtifactFilter{Run: run.ID})
}

// artifactOf is the path's repository, artifact and its run, and the
// caller's permission.
func (a *Handler) artifactOf(r *http.Request) (index.Repo, actions.Run, actions.Artifact, chainforge.Perm, error) {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return index.Repo{}, actions.Run{}, actions.Artifact{}, perm, err
	}
	id, err := strconv.ParseInt(r.PathValue("artifact"), 10, 64)
	if err != nil || id <= 0 {
		return index.Repo{}, actions.Run{}, actions.Artifact{}, perm, usererr.Missingf("the repository has no artifact %s", r.PathValue("artifact"))
	}
	art, err := a.Actions.ArtifactByID(r.Context(), rec.ID, id)
	if err != nil {
		return index.Repo{}, actions.Run{}, actions.Artifact{}, perm, err
	}
	run, err := a.Actions.RunByID(r.Context(), rec.ID, art.RunID)
	return rec, run, art, perm, err
}

func (a *Handler) getArtifact(w http.ResponseWriter, r *http.Request) error {
	rec, run, art, _, err := a.artifactOf(r)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, a.artifactJSON(r, rec, run, art))
	return nil
}

func (a *Handler) deleteArtifact(w http.ResponseWriter, r *http.Request) error {
	rec, _, art, perm, err := a.artifactOf(r)
	if err != nil {
		return err
	}
	if perm < chainforge.PermWrite {
		return usererr.Deniedf("only the repository's writers may delete its artifacts")
	}
	if err := a.Actions.DeleteArtifact(r.Context(), rec.ID, art.ID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// downloadArtifact sends the caller, who may read the repository, to a
// short-lived signed URL of the zip, as Gitea does for v4 artifacts.
func (a *Handler) downloadArtifact(w http.ResponseWriter, r *http.Request) error {
	_, _, art, _, err := a.artifactOf(r)
	if err != nil {
		return err
	}
	if art.Status != actions.ArtifactReady {
		return usererr.Missingf("the artifact %q has expired", art.Name)
	}
	http.Redirect(w, r, a.Actions.ArtifactURL(api.SiteURL(r), art.ID, 15*time.Minute), http.StatusFound)
	return nil
}
