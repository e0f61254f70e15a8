package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/ethereum/go-ethereum/common"
)

// A repository's collaborators and their permission; the owner adds,
// changes and removes them (repo.collaborator).

func (a *Handler) listCollaborators(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	list, err := a.Forge.Index().Collaborators(r.Context(), rec.ID)
	out := make([]api.CollaboratorJSON, 0, len(list))
	for _, c := range list {
		out = append(out, api.CollaboratorJSON{ForgeUserJSON: api.ToForgeUser(r, c.User), Permission: c.Permission})
	}
	return a.RespondList(w, r, index.Page{Number: 1, Limit: max(len(out), 1)}, int64(len(out)), out, err)
}

// collaboratorOf resolves the {collaborator} of the path and their
// permission on the path's repository.
func (a *Handler) collaboratorOf(r *http.Request) (index.Repo, common.Address, forge.Perm, error) {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return index.Repo{}, common.Address{}, forge.PermNone, err
	}
	who, err := a.Hosting.Owner(r.Context(), r.PathValue("collaborator"))
	if err != nil {
		return index.Repo{}, common.Address{}, forge.PermNone, err
	}
	p, err := a.Forge.Permission(r.Context(), rec, who)
	return rec, who, p, err
}

func (a *Handler) getCollaborator(w http.ResponseWriter, r *http.Request) error {
	rec, who, _, err := a.collaboratorOf(r)
	if err != nil {
		return err
	}
	list, err := a.Forge.Index().Collaborators(r.Context(), rec.ID)
	if err != nil {
		return err
	}
	for _, c := range list {
		if common.HexToAddress(c.User.Address) == who {
			w.WriteHeader(http.StatusNoContent)
			return nil
		}
	}
	return usererr.Missingf("%s is not a collaborator", r.PathValue("collaborator"))
}

func (a *Handler) getCollaboratorPermission(w http.ResponseWriter, r *http.Request) error {
	_, who, p, err := a.collaboratorOf(r)
	if err != nil {
		return err
	}
	u := index.User{Address: who.Hex()}
	if name, err := a.Forge.Index().Username(r.Context(), who); err == nil {
		u.Username = name
	}
	api.WriteJSON(w, http.StatusOK, map[string]any{"permission": api.GiteaRole(p), "role_name": p.String(), "user": api.ToForgeUser(r, u)})
	return nil
}

func (a *Handler) putCollaborator(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, who, _, err := a.collaboratorOf(r)
	if err != nil {
		return err
	}
	in := struct {
		Permission string `json:"permission"`
	}{Permission: "write"} // Gitea's default
	if r.ContentLength != 0 {
		if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
			return err
		}
	}
	perm := in.Permission
	if perm == "admin" { // Gitea's highest collaborator role is our maintain
		perm = "maintain"
	}
	if _, ok := chainforge.ParsePerm(perm); !ok || perm == "none" {
		return usererr.BadFieldf("permission", "permission must be read, write, maintain or admin")
	}
	if err := a.Hosting.SetCollaborator(r.Context(), id.User.Address, rec, who, perm); err != nil {
		return a.HostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) deleteCollaborator(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, who, _, err := a.collaboratorOf(r)
	if err != nil {
		return err
	}
	if err := a.Hosting.SetCollaborator(r.Context(), id.User.Address, rec, who, "none"); err != nil {
		return a.HostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
