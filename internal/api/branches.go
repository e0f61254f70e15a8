package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/gitstore"
)

// Branches: the list and one branch (Gitea's Branch, with the viewer's
// push and merge rights and the branch's protection).

func (a *API) listBranches(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	branches, err := gitstore.Branches(r.Context(), c.dir)
	if err != nil {
		return err
	}
	out := []branchJSON{}
	for _, b := range pageSlice(branches, p) {
		out = append(out, c.branch(b))
	}
	return a.respondList(w, r, p, int64(len(branches)), out, nil)
}

func (a *API) getBranch(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	name := r.PathValue("branch")
	if _, err := gitstore.ResolveBranch(r.Context(), c.dir, name); err != nil {
		return gitError(err)
	}
	branches, err := gitstore.Branches(r.Context(), c.dir)
	if err != nil {
		return err
	}
	for _, b := range branches {
		if b.Name == name {
			writeJSON(w, http.StatusOK, c.branch(b))
			return nil
		}
	}
	return gitError(gitstore.ErrRefNotFound)
}
