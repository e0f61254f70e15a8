package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
)

// Commits: a branch's history (/commits, paged, optionally with a path
// filter) and one commit (/git/commits/{sha}) with its files and, as text,
// its diff or patch.

func (a *Handler) listCommits(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	filter, err := gitstore.CleanPath(q.Get("path"))
	if err != nil {
		return gitError(err)
	}
	if gitstore.IsEmpty(c.Dir) {
		return a.RespondList(w, r, p, 0, []api.CommitJSON{}, nil)
	}
	commit, _, err := a.resolve(r, c, q.Get("sha"))
	if err != nil {
		return err
	}
	files := api.BoolParam(r, "files", true) || api.BoolParam(r, "stat", false)
	list, err := gitstore.Log(r.Context(), c.Dir, commit, gitstore.LogOptions{Path: filter, Skip: (p.Number - 1) * p.Limit, Limit: p.Limit, Files: files})
	if err != nil {
		return err
	}
	total, err := gitstore.Count(r.Context(), c.Dir, commit, filter)
	if err != nil {
		return err
	}
	out, err := a.CommitsJSON(r, c, list, files, filter)
	return a.RespondList(w, r, p, int64(total), out, err)
}

// getCommit answers /git/commits/{sha}: the commit as JSON (?diff=true
// adds its diff, capped at maxJSONDiff), or with .diff or .patch its
// changes as text, streamed whole.
func (a *Handler) getCommit(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	sha, format := r.PathValue("sha"), ""
	for _, ext := range []string{".diff", ".patch"} {
		if s, ok := strings.CutSuffix(sha, ext); ok {
			sha, format = s, ext
		}
	}
	if !isHex(sha) {
		if sha, _, err = a.resolve(r, c, sha); err != nil {
			return err
		}
	}
	g, err := gitstore.CommitByID(r.Context(), c.Dir, sha)
	if err != nil {
		return gitError(err)
	}
	switch format {
	case ".diff", ".patch":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		f := gitstore.FormatDiff
		if format == ".patch" {
			f = gitstore.FormatPatch
		}
		if err := gitstore.WriteCommitDiff(r.Context(), c.Dir, g, f, 0, w); err != nil {
			a.Log.ErrorContext(r.Context(), "stream commit diff", "commit", g.ID, "err", err)
		}
		return nil
	}
	j := c.Commit(g, true)
	one := []api.CommitJSON{j}
	if err := a.WithAccounts(r, one); err != nil {
		return err
	}
	j = one[0]
	if api.BoolParam(r, "diff", false) {
		diff, truncated, err := gitstore.CommitDiff(r.Context(), c.Dir, g, api.MaxJSONDiff)
		if err != nil {
			return err
		}
		j.Diff, j.DiffTruncated = &diff, &truncated
	}
	api.WriteJSON(w, http.StatusOK, j)
	return nil
}
