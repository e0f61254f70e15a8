package api

import (
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
)

// dForge's own: a repository's contributors (commits per author) and the
// counts its page shows.

func (a *API) listContributors(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	if gitstore.IsEmpty(c.dir) {
		return a.respondList(w, r, p, 0, []contributorJSON{}, nil)
	}
	commit, _, err := a.resolve(r, c, r.URL.Query().Get("ref"))
	if err != nil {
		return err
	}
	list, err := gitstore.Contributors(r.Context(), c.dir, commit)
	if err != nil {
		return err
	}
	out := []contributorJSON{}
	for _, ct := range pageSlice(list, p) {
		out = append(out, contributorJSON{Name: ct.Name, Email: ct.Email, Commits: ct.Commits})
	}
	return a.respondList(w, r, p, int64(len(list)), out, nil)
}

func (a *API) getCounts(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.repoOf(r)
	if err != nil {
		return err
	}
	out := countsJSON{Stars: rec.Stars, Forks: rec.Forks, Watchers: rec.Watchers, OpenIssues: rec.OpenIssues, OpenPulls: rec.OpenPulls}
	c, err := a.codeOf(r)
	if err != nil || gitstore.IsEmpty(c.dir) {
		writeJSON(w, http.StatusOK, out) // no git data here, or none yet
		return nil
	}
	ctx := r.Context()
	refs, err := gitstore.RefNames(ctx, c.dir, "refs/")
	if err != nil {
		return err
	}
	for _, ref := range refs {
		switch {
		case strings.HasPrefix(ref.Name, "refs/heads/"):
			out.Branches++
		case strings.HasPrefix(ref.Name, "refs/tags/"):
			out.Tags++
		}
	}
	if commit, _, err := a.resolve(r, c, ""); err == nil {
		if out.Commits, err = gitstore.Count(ctx, c.dir, commit, ""); err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
