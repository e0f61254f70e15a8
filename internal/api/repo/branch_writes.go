package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Creating, renaming and deleting branches, Gitea's routes and shapes
// (rename as Gitea 1.22's PATCH); each is a push recorded on chain (or in
// the private store) before git moves the ref. Branch protection rules
// (protections.go) and compare (compare.go) are registered here too.

func (a *Handler) RegisterBranchWrites(mux *http.ServeMux) {
	if a.Hosting == nil {
		return
	}
	const repo = "/api/v1/repos/{owner}/{repo}"
	user := a.SignedIn
	mux.HandleFunc("POST "+repo+"/branches", user(auth.ScopeWrite, a.createBranch))
	mux.HandleFunc("DELETE "+repo+"/branches/{branch...}", user(auth.ScopeWrite, a.deleteBranch))
	mux.HandleFunc("PATCH "+repo+"/branches/{branch...}", user(auth.ScopeWrite, a.renameBranch))
	mux.HandleFunc("GET "+repo+"/branch_protections", a.Serve(a.listProtections))
	mux.HandleFunc("POST "+repo+"/branch_protections", user(auth.ScopeWrite, a.createProtection))
	mux.HandleFunc("GET "+repo+"/branch_protections/{name...}", a.Serve(a.getProtection))
	mux.HandleFunc("PATCH "+repo+"/branch_protections/{name...}", user(auth.ScopeWrite, a.editProtection))
	mux.HandleFunc("DELETE "+repo+"/branch_protections/{name...}", user(auth.ScopeWrite, a.deleteProtection))
	mux.HandleFunc("GET "+repo+"/compare/{basehead...}", a.Serve(a.compare))
}

func (a *Handler) createBranch(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	var in struct {
		NewBranchName string `json:"new_branch_name"`
		OldBranchName string `json:"old_branch_name"`
		OldRefName    string `json:"old_ref_name"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	from := in.OldRefName
	if from == "" {
		from = in.OldBranchName
	}
	if gitstore.IsEmpty(c.Dir) {
		return errEmptyRepo
	}
	if _, err := a.Hosting.CreateBranch(r.Context(), id.User.Address, c.Repo, in.NewBranchName, from); err != nil {
		return a.HostingError(w, r, err)
	}
	j, err := a.branchNamed(r, c, in.NewBranchName)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, j)
	return nil
}

func (a *Handler) deleteBranch(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	if err := a.Hosting.DeleteBranch(r.Context(), id.User.Address, rec, r.PathValue("branch")); err != nil {
		return a.HostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) renameBranch(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	var in struct {
		Name string `json:"name"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	if err := a.Hosting.RenameBranch(r.Context(), id.User.Address, rec, r.PathValue("branch"), in.Name); err != nil {
		return a.HostingError(w, r, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// branchNamed is branch name of c as Gitea's Branch, with its rule.
func (a *Handler) branchNamed(r *http.Request, c api.Code, name string) (api.BranchJSON, error) {
	branches, err := gitstore.Branches(r.Context(), c.Dir)
	if err != nil {
		return api.BranchJSON{}, err
	}
	rules, err := a.Forge.Index().Protections(r.Context(), c.Repo.ID)
	if err != nil {
		return api.BranchJSON{}, err
	}
	pushes, err := a.Forge.Index().LastPushes(r.Context(), c.Repo.ID)
	if err != nil {
		return api.BranchJSON{}, err
	}
	for _, b := range branches {
		if b.Name == name {
			return withPush(r, withRule(c.Branch(b), rules), pushes), nil
		}
	}
	return api.BranchJSON{}, usererr.Missingf("branch %s does not exist", name)
}

// withPush adds the last push to the branch, if the chain has one.
func withPush(r *http.Request, j api.BranchJSON, pushes map[string]index.Push) api.BranchJSON {
	if p, ok := pushes[j.Name]; ok {
		pusher := api.ToForgeUser(r, p.Pusher)
		at := p.Time
		j.PushedAt, j.Pusher = &at, &pusher
	}
	return j
}

// withRule adds the branch's protection rule, if it has one, to j: its
// exact rule, else the first-created matching pattern (rules come by
// name; the chain's creation order is approximated by created time).
func withRule(j api.BranchJSON, rules []index.Protection) api.BranchJSON {
	var rule *index.Protection
	for i, p := range rules {
		if p.Branch == j.Name {
			rule = &rules[i]
			break
		}
		if chainforge.IsRulePattern(p.Branch) && chainforge.RuleMatches(p.Branch, j.Name) && (rule == nil || p.Created < rule.Created) {
			rule = &rules[i]
		}
	}
	if rule != nil {
		p := *rule
		j.Protected, j.EffectiveBranchProtectionName = true, p.Branch
		j.RequiredApprovals, j.EnableStatusCheck, j.StatusCheckContexts = int(p.RequiredApprovals), p.EnableStatusCheck, p.StatusCheckContexts
		if !p.EnablePush {
			j.UserCanPush = false
		}
	}
	return j
}
