package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/deploykeys"
	"github.com/dforge/dforge/internal/usererr"
)

// A repository's deploy keys, Gitea's /repos/{owner}/{repo}/keys, over
// deploykeys (node-local: they are credentials). Its admins alone see
// and manage them; a repository the caller cannot read is a 404.

func (a *Handler) RegisterDeployKeys(mux *http.ServeMux) {
	if a.DeployKeys == nil || a.Hosting == nil {
		return
	}
	const keys = "/api/v1/repos/{owner}/{repo}/keys"
	mux.HandleFunc("GET "+keys, a.SignedIn(auth.ScopeRead, a.listDeployKeys))
	mux.HandleFunc("POST "+keys, a.SignedIn(auth.ScopeWrite, a.createDeployKey))
	mux.HandleFunc("GET "+keys+"/{id}", a.SignedIn(auth.ScopeRead, a.getDeployKey))
	mux.HandleFunc("DELETE "+keys+"/{id}", a.SignedIn(auth.ScopeWrite, a.deleteDeployKey))
}

// deployKeyJSON is Gitea's DeployKey.
type deployKeyJSON struct {
	ID          int64  `json:"id"`
	KeyID       int64  `json:"key_id"`
	Key         string `json:"key"`
	URL         string `json:"url"`
	Title       string `json:"title"`
	Fingerprint string `json:"fingerprint"`
	CreatedAt   string `json:"created_at"`
	ReadOnly    bool   `json:"read_only"`
	// Repository is the key's, as Gitea gives it to the repository's
	// admins (appendPrivateInformation), the only ones who see keys here.
	Repository *api.RepoJSON `json:"repository,omitempty"`
}

func toDeployKeyJSON(r *http.Request, repo *api.RepoJSON, k deploykeys.Key) deployKeyJSON {
	return deployKeyJSON{Repository: repo, ID: k.ID, KeyID: k.ID, Key: k.Key, Title: k.Title, Fingerprint: k.Fingerprint, ReadOnly: k.ReadOnly,
		URL:       api.SiteURL(r) + "/api/v1/repos/" + r.PathValue("owner") + "/" + r.PathValue("repo") + "/keys/" + strconv.FormatInt(k.ID, 10),
		CreatedAt: k.Created.Format(time.RFC3339)}
}

func (a *Handler) listDeployKeys(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	keys, total, err := a.DeployKeys.List(r.Context(), perm, repo.ID, r.URL.Query().Get("fingerprint"), p.Limit, (p.Number-1)*p.Limit)
	out := make([]deployKeyJSON, 0, len(keys))
	rj := a.RepoJSON(r, repo, perm)
	for _, k := range keys {
		out = append(out, toDeployKeyJSON(r, &rj, k))
	}
	return a.RespondList(w, r, p, total, out, err)
}

func (a *Handler) createDeployKey(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		Title    string `json:"title"`
		Key      string `json:"key"`
		ReadOnly bool   `json:"read_only"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	k, err := a.DeployKeys.Add(r.Context(), perm, id.User.Address, repo.ID, in.Title, in.Key, in.ReadOnly)
	if err != nil {
		return err
	}
	rj := a.RepoJSON(r, repo, perm)
	api.WriteJSON(w, http.StatusCreated, toDeployKeyJSON(r, &rj, k))
	return nil
}

// deployKeyID reads {id}: one that is no number names no key.
func deployKeyID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, usererr.Missingf("the repository has no deploy key %s", r.PathValue("id"))
	}
	return id, nil
}

func (a *Handler) getDeployKey(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	id, err := deployKeyID(r)
	if err != nil {
		return err
	}
	k, err := a.DeployKeys.Get(r.Context(), perm, repo.ID, id)
	if err != nil {
		return err
	}
	rj := a.RepoJSON(r, repo, perm)
	return api.Reply(w, toDeployKeyJSON(r, &rj, k))
}

func (a *Handler) deleteDeployKey(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	id, err := deployKeyID(r)
	if err != nil {
		return err
	}
	if err := a.DeployKeys.Delete(r.Context(), perm, repo.ID, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
