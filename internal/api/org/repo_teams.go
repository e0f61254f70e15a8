package org

import (
	"context"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/api"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// A repository's teams by name (/repos/{owner}/{repo}/teams/{team}, over
// the team.repo.* actions) and a user's permissions in an organization,
// as Gitea answers them.

func (a *Handler) RegisterRepoTeams(mux *http.ServeMux) {
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/teams/{team}", a.Serve(a.getRepoTeam))
	mux.HandleFunc("PUT /api/v1/repos/{owner}/{repo}/teams/{team}", user(auth.ScopeWrite, a.setRepoTeam(true)))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/teams/{team}", user(auth.ScopeWrite, a.setRepoTeam(false)))
	mux.HandleFunc("GET /api/v1/users/{username}/orgs/{org}/permissions", a.Serve(a.getOrgPermissions))
}

// repoTeamOf resolves the path's repository, its organization and the
// organization's team named {team}, in any case.
func (a *Handler) repoTeamOf(r *http.Request) (index.Repo, index.Org, index.Team, error) {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return rec, index.Org{}, index.Team{}, err
	}
	ix := a.Forge.Index()
	o, ok, err := ix.OrgAt(r.Context(), rec.OwnerAddress())
	if err != nil {
		return rec, o, index.Team{}, err
	}
	if !ok {
		return rec, o, index.Team{}, usererr.Missingf("%s belongs to a user: only an organization's repositories have teams", rec.Name)
	}
	t, err := a.teamByName(r.Context(), o, r.PathValue("team"))
	return rec, o, t, err
}

// teamByName is o's team called name, in any case.
func (a *Handler) teamByName(ctx context.Context, o index.Org, name string) (index.Team, error) {
	if tx.CheckLine("team", name) == nil && name != "" {
		list, _, err := a.Forge.Index().Teams(ctx, index.TeamFilter{Org: o.ID, Query: name}, index.Page{Number: 1, Limit: api.MaxLimit})
		if err != nil {
			return index.Team{}, err
		}
		for _, t := range list {
			if strings.EqualFold(t.Name, name) {
				return t, nil
			}
		}
	}
	return index.Team{}, usererr.Missingf("%s has no team %s", o.Name, name)
}

// getRepoTeam is the team when it has access to the repository, else 404.
func (a *Handler) getRepoTeam(w http.ResponseWriter, r *http.Request) error {
	rec, o, t, err := a.repoTeamOf(r)
	if err != nil {
		return err
	}
	held, err := a.Forge.Index().TeamHolds(r.Context(), t, rec)
	if err != nil {
		return err
	}
	if !held {
		return usererr.Missingf("team %s has no access to %s", t.Name, rec.Name)
	}
	return api.Reply(w, api.ToTeamJSON(r, t, o))
}

// setRepoTeam gives the team access to the repository or takes it back;
// as in Gitea, adding a team that has access, or removing one that has
// none, is refused with 422.
func (a *Handler) setRepoTeam(on bool) api.Endpoint {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := api.RequireUser(r)
		if err != nil {
			return err
		}
		rec, _, t, err := a.repoTeamOf(r)
		if err != nil {
			return err
		}
		held, err := a.Forge.Index().TeamHolds(r.Context(), t, rec)
		if err != nil {
			return err
		}
		if held == on {
			if on {
				return usererr.Unprocessablef("team", "team_has_access", "team %s already has access to %s", t.Name, rec.Name)
			}
			return usererr.Unprocessablef("team", "team_has_no_access", "team %s has no access to %s", t.Name, rec.Name)
		}
		var action chainforge.Action = chainforge.TeamRepoAdd{Team: t.ID, Repo: rec.ID}
		if !on {
			action = chainforge.TeamRepoRemove{Team: t.ID, Repo: rec.ID}
		}
		if _, err := a.Forge.Do(r.Context(), id.User.Address, action); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}

// orgPermissionsJSON is Gitea's OrganizationPermissions.
type orgPermissionsJSON struct {
	IsOwner             bool `json:"is_owner"`
	IsAdmin             bool `json:"is_admin"`
	CanWrite            bool `json:"can_write"`
	CanRead             bool `json:"can_read"`
	CanCreateRepository bool `json:"can_create_repository"`
}

// getOrgPermissions is what {username} may do in {org}: as in Gitea, the
// best access of the user's teams there, each level implying those below,
// and repository creation for owners and teams allowed it.
func (a *Handler) getOrgPermissions(w http.ResponseWriter, r *http.Request) error {
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	name := r.PathValue("username")
	if tx.CheckLine("username", name) != nil {
		return usererr.Missingf("There is no user with that name.")
	}
	who, err := a.Forge.Owner(r.Context(), name)
	if err != nil && a.Auth != nil {
		// Someone signed in here who has done nothing on chain yet.
		var u auth.User
		u, err = a.Auth.UserByName(r.Context(), name)
		who = u.Address
	}
	if err != nil {
		return err
	}
	teams, _, err := a.Forge.Index().Teams(r.Context(), index.TeamFilter{Org: o.ID, Member: &who}, index.Page{Number: 1, Limit: api.MaxLimit})
	if err != nil {
		return err
	}
	return api.Reply(w, orgPermissions(teams, o))
}

func orgPermissions(teams []index.Team, o index.Org) orgPermissionsJSON {
	best, create := chainforge.PermNone, false
	for _, t := range teams {
		p := chainforge.TeamPerm(t.Permission)
		if t.ID == o.OwnersTeam {
			p = chainforge.PermOwner
		}
		best = max(best, p)
		create = create || t.CanCreateOrgRepo || p == chainforge.PermOwner
	}
	return orgPermissionsJSON{IsOwner: best >= chainforge.PermOwner, IsAdmin: best >= chainforge.PermMaintain,
		CanWrite: best >= chainforge.PermWrite, CanRead: best >= chainforge.PermRead, CanCreateRepository: create}
}
