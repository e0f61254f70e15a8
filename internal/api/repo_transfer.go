package api

import (
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

func (a *API) RegisterRepoTransfer(mux *http.ServeMux) {
	user := a.SignedIn
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/transfer", user(auth.ScopeWrite, a.transferRepo))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/transfer/accept", user(auth.ScopeWrite, a.acceptTransfer))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/transfer/reject", user(auth.ScopeWrite, a.rejectTransfer))
}

// repoTransferJSON is Gitea's RepoTransfer.
type repoTransferJSON struct {
	Doer      ForgeUserJSON `json:"doer"`
	Recipient ForgeUserJSON `json:"recipient"`
	Teams     []TeamJSON    `json:"teams"`
}

func (a *API) transferRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
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
	if err := Decode(w, r, MaxRepoBody, &in); err != nil {
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

func (a *API) acceptTransfer(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
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

func (a *API) rejectTransfer(w http.ResponseWriter, r *http.Request) error {
	id, err := RequireUser(r)
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
func (a *API) writeRepoFor(w http.ResponseWriter, r *http.Request, status int, rec index.Repo) error {
	id, err := RequireUser(r)
	if err != nil {
		return err
	}
	p, err := a.Forge.Permission(r.Context(), rec, id.User.Address)
	if err != nil {
		return err
	}
	WriteJSON(w, status, a.RepoJSON(r, rec, p))
	return nil
}

// repoTransfer shapes rec's pending transfer; nil when it has none (an
// answer projected since the row was read) or it cannot be read, which
// the log tells.
func (a *API) repoTransfer(r *http.Request, rec index.Repo) *repoTransferJSON {
	t, ok, err := a.Forge.Index().RepoTransfer(r.Context(), rec.ID)
	if err != nil {
		a.Log.WarnContext(r.Context(), "read a pending transfer", "repo", rec.ID, "err", err)
	}
	if !ok {
		return nil
	}
	j := &repoTransferJSON{Doer: ToForgeUser(r, t.Doer), Recipient: ToForgeUser(r, t.Recipient), Teams: []TeamJSON{}}
	for _, tid := range t.Teams {
		team, err := a.Forge.Index().TeamByID(r.Context(), tid)
		if err != nil {
			continue // deleted since the offer: it will not get the repository
		}
		o, err := a.Forge.Index().OrgByID(r.Context(), team.Org)
		if err != nil {
			continue
		}
		j.Teams = append(j.Teams, ToTeamJSON(r, team, o))
	}
	return j
}
