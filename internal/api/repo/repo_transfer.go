package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Repository transfers, Gitea's routes: a transfer to a user (or to an
// organization the caller may not create repositories in) is an offer,
// 201 with the repository as it stays; one that is done at once is 202
// with the repository under its new owner. The recipient accepts (202)
// or rejects (200) an offer; its owners cancel it with the same reject.
// The forge module decides who may; a stranger is 403, nothing pending
// 404.

func (a *Handler) RegisterRepoTransfer(mux *http.ServeMux) {
	user := a.SignedIn
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/transfer", user(auth.ScopeWrite, a.transferRepo))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/transfer/accept", user(auth.ScopeWrite, a.acceptTransfer))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/transfer/reject", user(auth.ScopeWrite, a.rejectTransfer))
}

func (a *Handler) transferRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		NewOwner string  `json:"new_owner"`
		TeamIDs  []int64 `json:"team_ids"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	teams := make([]uint64, 0, len(in.TeamIDs))
	for _, t := range in.TeamIDs {
		if t <= 0 {
			return usererr.BadFieldf("team_ids", "team %d does not exist", t)
		}
		teams = append(teams, uint64(t))
	}
	after, pending, err := a.Hosting.Transfer(r.Context(), id.User.Address, rec, in.NewOwner, teams)
	if err != nil {
		return a.HostingError(w, r, err)
	}
	if pending {
		return a.writeRepoFor(w, r, http.StatusCreated, after)
	}
	return a.writeRepoFor(w, r, http.StatusAccepted, after)
}

func (a *Handler) acceptTransfer(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	moved, err := a.Hosting.AcceptTransfer(r.Context(), id.User.Address, rec)
	if err != nil {
		return a.HostingError(w, r, err)
	}
	return a.writeRepoFor(w, r, http.StatusAccepted, moved)
}

func (a *Handler) rejectTransfer(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	kept, err := a.Hosting.RejectTransfer(r.Context(), id.User.Address, rec)
	if err != nil {
		return err
	}
	return a.writeRepoFor(w, r, http.StatusOK, kept)
}

// writeRepoFor answers rec with the caller's permission on it now.
func (a *Handler) writeRepoFor(w http.ResponseWriter, r *http.Request, status int, rec index.Repo) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	p, err := a.Forge.Permission(r.Context(), rec, id.User.Address)
	if err != nil {
		return err
	}
	api.WriteJSON(w, status, a.RepoJSON(r, rec, p))
	return nil
}
