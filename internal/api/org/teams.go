package org

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/dforge/dforge/internal/api"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Teams of organizations, as Gitea's API has them. Teams are on chain
// (team.* actions), so anyone may read them; their owners change them.

func (a *Handler) RegisterTeams(mux *http.ServeMux) {
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/orgs/{org}/teams", a.Serve(a.listOrgTeams))
	mux.HandleFunc("POST /api/v1/orgs/{org}/teams", user(auth.ScopeWrite, a.createTeam))
	mux.HandleFunc("GET /api/v1/orgs/{org}/teams/search", a.Serve(a.searchOrgTeams))
	mux.HandleFunc("GET /api/v1/teams/{id}", a.Serve(a.getOrgTeam))
	mux.HandleFunc("PATCH /api/v1/teams/{id}", user(auth.ScopeWrite, a.editTeam))
	mux.HandleFunc("DELETE /api/v1/teams/{id}", user(auth.ScopeWrite, a.deleteTeam))
	mux.HandleFunc("GET /api/v1/teams/{id}/members", a.Serve(a.listTeamMembers))
	mux.HandleFunc("GET /api/v1/teams/{id}/members/{username}", a.Serve(a.getTeamMember))
	mux.HandleFunc("PUT /api/v1/teams/{id}/members/{username}", user(auth.ScopeWrite, a.setTeamMember(true)))
	mux.HandleFunc("DELETE /api/v1/teams/{id}/members/{username}", user(auth.ScopeWrite, a.setTeamMember(false)))
	mux.HandleFunc("GET /api/v1/teams/{id}/repos", a.Serve(a.listTeamRepos))
	mux.HandleFunc("GET /api/v1/teams/{id}/repos/{org}/{repo}", a.Serve(a.getTeamRepo))
	mux.HandleFunc("PUT /api/v1/teams/{id}/repos/{org}/{repo}", user(auth.ScopeWrite, a.setTeamRepo(true)))
	mux.HandleFunc("DELETE /api/v1/teams/{id}/repos/{org}/{repo}", user(auth.ScopeWrite, a.setTeamRepo(false)))
	mux.HandleFunc("GET /api/v1/user/teams", user(auth.ScopeRead, a.listMyTeams))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/teams", a.Serve(a.listRepoTeams))
}

// teamsJSON shapes a list, reading each team's organization once.
func (a *Handler) teamsJSON(r *http.Request, list []index.Team) ([]api.TeamJSON, error) {
	orgs := map[uint64]index.Org{}
	out := make([]api.TeamJSON, 0, len(list))
	for _, t := range list {
		o, ok := orgs[t.Org]
		if !ok {
			var err error
			if o, err = a.Forge.Index().OrgByID(r.Context(), t.Org); err != nil {
				return nil, err
			}
			orgs[t.Org] = o
		}
		out = append(out, api.ToTeamJSON(r, t, o))
	}
	return out, nil
}

// teamOf finds the {id} of the path and its organization.
func (a *Handler) teamOf(r *http.Request) (index.Team, index.Org, error) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil {
		return index.Team{}, index.Org{}, usererr.Missingf("team %s does not exist", r.PathValue("id"))
	}
	t, err := a.Forge.Index().TeamByID(r.Context(), id)
	if err != nil {
		return t, index.Org{}, err
	}
	o, err := a.Forge.Index().OrgByID(r.Context(), t.Org)
	return t, o, err
}

func (a *Handler) listTeams(w http.ResponseWriter, r *http.Request, f index.TeamFilter, wrap bool) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Forge.Index().Teams(r.Context(), f, p)
	if err != nil {
		return err
	}
	out, err := a.teamsJSON(r, list)
	if wrap {
		return a.RespondList(w, r, p, total, map[string]any{"ok": true, "data": out}, err)
	}
	return a.RespondList(w, r, p, total, out, err)
}

func (a *Handler) listOrgTeams(w http.ResponseWriter, r *http.Request) error {
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	return a.listTeams(w, r, index.TeamFilter{Org: o.ID}, false)
}

// searchOrgTeams is Gitea's team search: {ok, data}, by q in the name
// (and the description with include_desc).
func (a *Handler) searchOrgTeams(w http.ResponseWriter, r *http.Request) error {
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	inDesc, _ := strconv.ParseBool(q.Get("include_desc"))
	return a.listTeams(w, r, index.TeamFilter{Org: o.ID, Query: q.Get("q"), InDescription: inDesc}, true)
}

func (a *Handler) listMyTeams(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.listTeams(w, r, index.TeamFilter{Member: &id.User.Address}, false)
}

// listRepoTeams lists the teams with access to an organization's
// repository; a user's repository has none.
func (a *Handler) listRepoTeams(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	o, ok, err := a.Forge.Index().OrgAt(r.Context(), rec.OwnerAddress())
	if err != nil {
		return err
	}
	if !ok {
		return usererr.Missingf("%s belongs to a user: only an organization's repositories have teams", rec.Name)
	}
	return a.listTeams(w, r, index.TeamFilter{Org: o.ID, Repo: rec.ID}, false)
}

// teamBody is Gitea's CreateTeamOption and EditTeamOption.
type teamBody struct {
	Name                    *string            `json:"name"`
	Description             *string            `json:"description"`
	Permission              *string            `json:"permission"`
	Units                   *[]string          `json:"units"`
	UnitsMap                *map[string]string `json:"units_map"`
	IncludesAllRepositories *bool              `json:"includes_all_repositories"`
	CanCreateOrgRepo        *bool              `json:"can_create_org_repo"`
}

// units reads the units of in: the list, else the keys of the map, in
// Gitea's order of units.
func (in teamBody) units() *[]string {
	if in.Units != nil || in.UnitsMap == nil {
		return in.Units
	}
	list := []string{}
	for _, u := range teamUnitOrder {
		if _, ok := (*in.UnitsMap)[u]; ok {
			list = append(list, u)
		}
	}
	for u := range *in.UnitsMap {
		if !slices.Contains(teamUnitOrder, u) {
			list = append(list, u) // the chain names what is wrong with it
			break
		}
	}
	return &list
}

var teamUnitOrder = []string{"repo.code", "repo.issues", "repo.ext_issues", "repo.wiki", "repo.ext_wiki", "repo.pulls",
	"repo.releases", "repo.projects", "repo.packages", "repo.actions"}

// checkTeamPermission refuses "owner", which is the Owners team's alone,
// and any other name than read, write or admin.
func checkTeamPermission(p *string) error {
	if p == nil {
		return nil
	}
	switch *p {
	case chainforge.TeamRead, chainforge.TeamWrite, chainforge.TeamAdmin:
		return nil
	}
	return usererr.BadFieldf("permission", "permission must be read, write or admin")
}

func (a *Handler) createTeam(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	var in teamBody
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if in.Name == nil || *in.Name == "" {
		return usererr.BadFieldf("name", "name is required")
	}
	if in.Permission == nil || *in.Permission == "" {
		in.Permission = api.Ptr(chainforge.TeamRead)
	}
	if err := checkTeamPermission(in.Permission); err != nil {
		return err
	}
	c := chainforge.TeamCreate{Org: o.ID, Name: *in.Name, Description: api.Deref(in.Description), Permission: *in.Permission}
	if u := in.units(); u != nil {
		c.Units = *u
	}
	c.IncludesAllRepos = in.IncludesAllRepositories != nil && *in.IncludesAllRepositories
	c.CanCreateOrgRepo = in.CanCreateOrgRepo != nil && *in.CanCreateOrgRepo
	res, err := a.Forge.Do(r.Context(), id.User.Address, c)
	if err != nil {
		return err
	}
	t, err := a.Forge.Index().TeamByID(r.Context(), res.Change.Teams[0].ID)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, api.ToTeamJSON(r, t, o))
	return nil
}

func (a *Handler) getOrgTeam(w http.ResponseWriter, r *http.Request) error {
	t, o, err := a.teamOf(r)
	if err != nil {
		return err
	}
	return api.Reply(w, api.ToTeamJSON(r, t, o))
}

func (a *Handler) editTeam(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	t, o, err := a.teamOf(r)
	if err != nil {
		return err
	}
	var in teamBody
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	// Gitea's clients send the Owners team's own name and permission back
	// with an edit; what does not change is no change.
	if in.Name != nil && *in.Name == t.Name {
		in.Name = nil
	}
	if in.Permission != nil && (*in.Permission == t.Permission || *in.Permission == "") {
		in.Permission = nil
	}
	if in.IncludesAllRepositories != nil && *in.IncludesAllRepositories == t.IncludesAllRepos {
		in.IncludesAllRepositories = nil
	}
	if in.CanCreateOrgRepo != nil && *in.CanCreateOrgRepo == t.CanCreateOrgRepo {
		in.CanCreateOrgRepo = nil
	}
	if err := checkTeamPermission(in.Permission); err != nil {
		return err
	}
	edit := chainforge.TeamEdit{Team: t.ID, Name: in.Name, Description: in.Description, Permission: in.Permission,
		Units: in.units(), IncludesAllRepos: in.IncludesAllRepositories, CanCreateOrgRepo: in.CanCreateOrgRepo}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, edit); err != nil {
		return err
	}
	if t, err = a.Forge.Index().TeamByID(r.Context(), t.ID); err != nil {
		return err
	}
	return api.Reply(w, api.ToTeamJSON(r, t, o))
}

func (a *Handler) deleteTeam(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	t, _, err := a.teamOf(r)
	if err != nil {
		return err
	}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, chainforge.TeamDelete{Team: t.ID}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) listTeamMembers(w http.ResponseWriter, r *http.Request) error {
	t, _, err := a.teamOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Forge.Index().TeamMembers(r.Context(), t.ID, p)
	return a.RespondList(w, r, p, total, a.usersJSON(r, list), err)
}

// teamMemberOf resolves the {id} and {username} of the path.
func (a *Handler) teamMemberOf(r *http.Request) (index.Team, common.Address, error) {
	t, _, err := a.teamOf(r)
	if err != nil {
		return t, common.Address{}, err
	}
	who, err := a.Hosting.Owner(r.Context(), r.PathValue("username"))
	return t, who, err
}

// getTeamMember is the member as a user, 404 for anyone else.
func (a *Handler) getTeamMember(w http.ResponseWriter, r *http.Request) error {
	t, who, err := a.teamMemberOf(r)
	if err != nil {
		return err
	}
	in, err := a.Forge.Index().IsTeamMember(r.Context(), t.ID, who)
	if err != nil {
		return err
	}
	if !in {
		return usererr.Missingf("%s is not a member of team %s", r.PathValue("username"), t.Name)
	}
	name, err := a.Forge.Index().Username(r.Context(), who)
	if err != nil {
		return err
	}
	return api.Reply(w, api.ToForgeUser(r, index.User{Address: who.Hex(), Username: name}))
}

func (a *Handler) setTeamMember(on bool) api.Endpoint {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := api.RequireUser(r)
		if err != nil {
			return err
		}
		t, who, err := a.teamMemberOf(r)
		if err != nil {
			return err
		}
		var action chainforge.Action = chainforge.TeamMemberAdd{Team: t.ID, User: who}
		if !on {
			action = chainforge.TeamMemberRemove{Team: t.ID, User: who}
		}
		if _, err := a.Forge.Do(r.Context(), id.User.Address, action); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}

func (a *Handler) listTeamRepos(w http.ResponseWriter, r *http.Request) error {
	t, _, err := a.teamOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Forge.Index().TeamRepos(r.Context(), t, p)
	if err != nil {
		return err
	}
	out, err := a.ReposJSON(r, list)
	return a.RespondList(w, r, p, total, out, err)
}

// teamRepoOf resolves the {id} and the {org}/{repo} of the path.
func (a *Handler) teamRepoOf(r *http.Request) (index.Team, index.Repo, error) {
	t, _, err := a.teamOf(r)
	if err != nil {
		return t, index.Repo{}, err
	}
	rec, _, err := a.Hosting.Repo(r.Context(), api.ViewerOf(r), r.PathValue("org"), r.PathValue("repo"))
	return t, rec, err
}

// getTeamRepo is the repository when the team has access to it, else 404.
func (a *Handler) getTeamRepo(w http.ResponseWriter, r *http.Request) error {
	t, rec, err := a.teamRepoOf(r)
	if err != nil {
		return err
	}
	held, err := a.Forge.Index().TeamHolds(r.Context(), t, rec)
	if err != nil {
		return err
	}
	if held {
		perm, err := a.Forge.Permission(r.Context(), rec, api.ViewerOf(r))
		if err != nil {
			return err
		}
		return api.Reply(w, a.RepoJSON(r, rec, perm))
	}
	return usererr.Missingf("team %s has no access to %s", t.Name, rec.Name)
}

func (a *Handler) setTeamRepo(on bool) api.Endpoint {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := api.RequireUser(r)
		if err != nil {
			return err
		}
		t, rec, err := a.teamRepoOf(r)
		if err != nil {
			return err
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
