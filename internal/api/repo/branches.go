package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// Branches: the list and one branch (Gitea's Branch, with the viewer's
// push and merge rights and the branch's protection).

func (a *Handler) listBranches(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	branches, err := gitstore.Branches(r.Context(), c.Dir)
	if err != nil {
		return err
	}
	rules, err := a.Forge.Index().Protections(r.Context(), c.Repo.ID)
	if err != nil {
		return err
	}
	pushes, err := a.Forge.Index().LastPushes(r.Context(), c.Repo.ID)
	if err != nil {
		return err
	}
	out := []api.BranchJSON{}
	for _, b := range api.PageSlice(branches, p) {
		out = append(out, withPush(r, withRule(c.Branch(b), rules), pushes))
	}
	return a.RespondList(w, r, p, int64(len(branches)), out, nil)
}

func (a *Handler) getBranch(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	name := r.PathValue("branch")
	if _, err := gitstore.ResolveBranch(r.Context(), c.Dir, name); err != nil {
		return gitError(err)
	}
	j, err := a.branchNamed(r, c, name)
	if ue, ok := usererr.As(err); ok && ue.Kind == usererr.NotFound {
		return gitError(gitstore.ErrRefNotFound)
	} else if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, j)
	return nil
}
