package org

import (
	"net/http"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/api"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Organizations, as Gitea's API has them (/orgs, /user/orgs, members).
// They are on chain (org.* actions), so their memberships are public:
// members and public members are the same list.

func (a *Handler) RegisterOrgs(mux *http.ServeMux) {
	if a.Hosting == nil {
		return
	}
	user := a.SignedIn
	a.RegisterRepoTeams(mux)
	mux.HandleFunc("POST /api/v1/orgs", user(auth.ScopeWrite, a.createOrg))
	mux.HandleFunc("GET /api/v1/orgs", a.Serve(a.listOrgs))
	mux.HandleFunc("GET /api/v1/orgs/{org}", a.Serve(a.getOrg))
	mux.HandleFunc("PATCH /api/v1/orgs/{org}", user(auth.ScopeWrite, a.editOrg))
	mux.HandleFunc("DELETE /api/v1/orgs/{org}", user(auth.ScopeWrite, a.deleteOrg))
	mux.HandleFunc("GET /api/v1/user/orgs", user(auth.ScopeRead, a.listMyOrgs))
	mux.HandleFunc("GET /api/v1/users/{username}/orgs", a.Serve(a.listUserOrgs))
	mux.HandleFunc("GET /api/v1/orgs/{org}/repos", a.Serve(a.listOrgRepos))
	mux.HandleFunc("POST /api/v1/orgs/{org}/repos", user(auth.ScopeWrite, a.createOrgRepo))
	// Gitea's older path, which its Go SDK still posts to.
	mux.HandleFunc("POST /api/v1/org/{org}/repos", user(auth.ScopeWrite, a.createOrgRepo))
	mux.HandleFunc("GET /api/v1/orgs/{org}/members", a.Serve(a.listOrgMembers))
	mux.HandleFunc("GET /api/v1/orgs/{org}/members/{username}", a.Serve(a.checkOrgMember))
	mux.HandleFunc("DELETE /api/v1/orgs/{org}/members/{username}", user(auth.ScopeWrite, a.removeOrgMember))
	mux.HandleFunc("GET /api/v1/orgs/{org}/public_members", a.Serve(a.listOrgMembers))
	mux.HandleFunc("GET /api/v1/orgs/{org}/public_members/{username}", a.Serve(a.checkOrgMember))
	mux.HandleFunc("PUT /api/v1/orgs/{org}/public_members/{username}", user(auth.ScopeWrite, a.publicizeOrgMember))
	mux.HandleFunc("DELETE /api/v1/orgs/{org}/public_members/{username}", user(auth.ScopeWrite, a.concealOrgMember))
	a.RegisterTeams(mux)
}

func orgsJSON(r *http.Request, list []index.Org) []api.OrgJSON {
	out := make([]api.OrgJSON, 0, len(list))
	for _, o := range list {
		out = append(out, api.ToOrgJSON(r, o))
	}
	return out
}

// orgOf finds the {org} of the path.
func (a *Handler) orgOf(r *http.Request) (index.Org, error) {
	name := r.PathValue("org")
	if tx.CheckLine("org", name) != nil {
		return index.Org{}, usererr.Missingf("organization %s does not exist", name)
	}
	return a.Forge.Index().OrgByName(r.Context(), name)
}

// orgBody is Gitea's CreateOrgOption and EditOrgOption; absent fields
// are nil.
type orgBody struct {
	UserName    *string `json:"username"`
	FullName    *string `json:"full_name"`
	Email       *string `json:"email"`
	Description *string `json:"description"`
	Website     *string `json:"website"`
	Location    *string `json:"location"`
	Visibility  *string `json:"visibility"`
	// Gitea's; every team's access on dForge is the owners' to change.
	RepoAdminChangeTeamAccess *bool `json:"repo_admin_change_team_access"`
}

// checkVisibility refuses Gitea's limited and private visibilities: an
// organization is on chain, which everyone reads.
func checkVisibility(v *string) error {
	if v == nil || *v == "" || *v == chainforge.VisibilityPublic {
		return nil
	}
	if *v == "limited" || *v == "private" {
		return usererr.BadFieldf("visibility", "organizations on dForge are public: they are on chain, which everyone can read")
	}
	return usererr.BadFieldf("visibility", "visibility must be public, limited or private")
}

func (a *Handler) createOrg(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in orgBody
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if strings.TrimSpace(api.Deref(in.UserName)) == "" {
		return usererr.BadFieldf("username", "username (the organization's name) is required")
	}
	if err := names.Validate(*in.UserName); err != nil {
		return usererr.New(usererr.Unprocessable, "invalid_name", strings.TrimPrefix(err.Error(), names.ErrInvalid.Error()+": ")).On("username")
	}
	if err := checkVisibility(in.Visibility); err != nil {
		return err
	}
	if err := api.CheckChainLines(api.TextField{Name: "full_name", Value: api.Deref(in.FullName)}); err != nil {
		return err
	}
	if err := checkOrgWebsite(in.Website); err != nil {
		return err
	}
	res, err := a.Forge.Do(r.Context(), id.User.Address, chainforge.OrgCreate{
		Name: *in.UserName, FullName: api.Deref(in.FullName), Description: api.Deref(in.Description),
		Website: api.Deref(in.Website), Location: api.Deref(in.Location), Visibility: chainforge.VisibilityPublic,
	})
	if err != nil {
		return err
	}
	o, err := a.Forge.Index().OrgByID(r.Context(), res.Change.Orgs[0].ID)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, api.ToOrgJSON(r, o))
	return nil
}

func (a *Handler) getOrg(w http.ResponseWriter, r *http.Request) error {
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	return api.Reply(w, api.ToOrgJSON(r, o))
}

// checkOrgWebsite refuses a website that is not an http(s) address (a
// javascript: link on the organization's page), as repository and user
// settings do.
func checkOrgWebsite(w *string) error {
	if w == nil {
		return nil
	}
	// Control characters are the text rules' refusal (invalid_text), as
	// for every field; the address's form is checked after.
	if err := api.CheckChainLines(api.TextField{Name: "website", Value: *w}); err != nil {
		return err
	}
	if !chainforge.ValidWebsite(*w) {
		return usererr.BadFieldf("website", "website must be empty or an http:// or https:// address of at most %d bytes", chainforge.MaxWebsite)
	}
	return nil
}

// editOrg sets the fields sent, as Gitea does; an empty visibility
// leaves it.
func (a *Handler) editOrg(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	var in orgBody
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if err := checkVisibility(in.Visibility); err != nil {
		return err
	}
	if err := api.CheckChainLines(api.TextField{Name: "full_name", Value: api.Deref(in.FullName)}); err != nil {
		return err
	}
	if err := checkOrgWebsite(in.Website); err != nil {
		return err
	}
	up := chainforge.OrgUpdate{Org: o.ID, FullName: in.FullName, Description: in.Description, Website: in.Website, Location: in.Location}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, up); err != nil {
		return err
	}
	if o, err = a.Forge.Index().OrgByID(r.Context(), o.ID); err != nil {
		return err
	}
	return api.Reply(w, api.ToOrgJSON(r, o))
}

func (a *Handler) deleteOrg(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, chainforge.OrgDelete{Org: o.ID}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) listOrgsOf(w http.ResponseWriter, r *http.Request, member *common.Address) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Forge.Index().Orgs(r.Context(), member, p)
	return a.RespondList(w, r, p, total, orgsJSON(r, list), err)
}

func (a *Handler) listOrgs(w http.ResponseWriter, r *http.Request) error {
	return a.listOrgsOf(w, r, nil)
}

func (a *Handler) listMyOrgs(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.listOrgsOf(w, r, &id.User.Address)
}

func (a *Handler) listUserOrgs(w http.ResponseWriter, r *http.Request) error {
	who, err := a.Hosting.Owner(r.Context(), r.PathValue("username"))
	if err != nil {
		return err
	}
	return a.listOrgsOf(w, r, &who)
}

func (a *Handler) listOrgRepos(w http.ResponseWriter, r *http.Request) error {
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	owner := common.HexToAddress(o.Address)
	return a.ListRepos(w, r, index.RepoFilter{Owner: &owner}, false)
}

// createOrgRepo is createRepo under an organization: its owners, and the
// members of teams that may create repositories, make them.
func (a *Handler) createOrgRepo(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	var in struct {
		Name          string `json:"name"`
		Description   string `json:"description"`
		Private       bool   `json:"private"`
		AutoInit      bool   `json:"auto_init"`
		DefaultBranch string `json:"default_branch"`
		Readme        string `json:"readme"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if in.Readme != "" && in.Readme != "Default" {
		return usererr.BadFieldf("readme", `readme names a README template; the only one is "Default"`)
	}
	opts := gitrepos.CreateOptions{Name: in.Name, Description: in.Description, DefaultBranch: in.DefaultBranch, Private: in.Private, Org: o.ID}
	if in.AutoInit {
		name := api.UsernameOf(id.User)
		opts.README = api.DefaultReadme(in.Name, in.Description)
		opts.Author = gitstore.Signature{Name: name, Email: api.NoreplyEmail(r, name), When: time.Now()}
	}
	rec, err := a.Hosting.Create(r.Context(), id.User.Address, opts)
	if err != nil {
		return a.HostingError(w, r, err)
	}
	perm, err := a.Forge.Permission(r.Context(), rec, id.User.Address)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, a.RepoJSON(r, rec, perm))
	return nil
}

func (a *Handler) listOrgMembers(w http.ResponseWriter, r *http.Request) error {
	o, err := a.orgOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Forge.Index().OrgMembers(r.Context(), o.ID, p)
	return a.RespondList(w, r, p, total, a.usersJSON(r, list), err)
}

func (a *Handler) usersJSON(r *http.Request, list []index.User) []api.ForgeUserJSON {
	out := make([]api.ForgeUserJSON, 0, len(list))
	for _, u := range list {
		out = append(out, api.ToForgeUser(r, u))
	}
	return out
}

// orgMemberOf resolves the {org} and {username} of the path and whether
// that user is a member.
func (a *Handler) orgMemberOf(r *http.Request) (index.Org, common.Address, bool, error) {
	o, err := a.orgOf(r)
	if err != nil {
		return o, common.Address{}, false, err
	}
	who, err := a.Hosting.Owner(r.Context(), r.PathValue("username"))
	if err != nil {
		return o, who, false, err
	}
	member, err := a.Forge.Index().IsOrgMember(r.Context(), o.ID, who)
	return o, who, member, err
}

// checkOrgMember is 204 for a member, 404 for anyone else (Gitea's).
func (a *Handler) checkOrgMember(w http.ResponseWriter, r *http.Request) error {
	_, _, member, err := a.orgMemberOf(r)
	if err != nil {
		return err
	}
	if !member {
		return usererr.Missingf("%s is not a member of %s", r.PathValue("username"), r.PathValue("org"))
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) removeOrgMember(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	o, who, _, err := a.orgMemberOf(r)
	if err != nil {
		return err
	}
	if _, err := a.Forge.Do(r.Context(), id.User.Address, chainforge.OrgMemberRemove{Org: o.ID, User: who}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// publicizeOrgMember is Gitea's "make my membership public": on chain it
// always is, so a member publicizing themselves changes nothing.
func (a *Handler) publicizeOrgMember(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	_, who, member, err := a.orgMemberOf(r)
	if err != nil {
		return err
	}
	if who != id.User.Address {
		return usererr.Deniedf("only members themselves publicize their membership")
	}
	if !member {
		return usererr.Missingf("%s is not a member of %s", r.PathValue("username"), r.PathValue("org"))
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// concealOrgMember cannot hide a membership: the chain shows it to all.
func (a *Handler) concealOrgMember(w http.ResponseWriter, r *http.Request) error {
	if _, _, _, err := a.orgMemberOf(r); err != nil {
		return err
	}
	return usererr.Unprocessablef("username", "membership_public", "memberships are on chain, which everyone can read; leave the organization to end one")
}
