package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/gitstore"
)

// A pull request's commits and changed files (with their patches, each
// and the page capped).

func (h *issuesAPI) listPullCommits(w http.ResponseWriter, r *http.Request) error {
	repo, perm, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	cmp, err := h.pulls.Compare(r.Context(), repo, pr)
	if err != nil {
		return err
	}
	span := cmp.From + ".." + cmp.To
	total, err := gitstore.Count(r.Context(), cmp.Dir, span, "")
	if err != nil {
		return err
	}
	list, err := gitstore.Log(r.Context(), cmp.Dir, span, gitstore.LogOptions{Skip: (p.Number - 1) * p.Limit, Limit: p.Limit, Files: true})
	if err != nil {
		return err
	}
	l := h.linksFor(r, repo)
	c := code{repo: repo, perm: perm, dir: cmp.Dir, api: l.api, html: l.html}
	out := make([]commitJSON, len(list))
	for i, g := range list {
		out[i] = c.commit(g, true)
	}
	return h.RespondList(w, r, p, int64(total), out, h.withAccounts(r, out))
}

func (h *issuesAPI) listPullFiles(w http.ResponseWriter, r *http.Request) error {
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	cmp, err := h.pulls.Compare(r.Context(), repo, pr)
	if err != nil {
		return err
	}
	files, err := gitstore.CompareFiles(r.Context(), cmp.Dir, cmp.From, cmp.To)
	if err != nil {
		return err
	}
	page := PageSlice(files, p)
	l := h.linksFor(r, repo)
	out := make([]changedFileJSON, len(page))
	budget := maxPagePatch
	for i, f := range page {
		path := escapePath(f.Path)
		j := changedFileJSON{
			Filename: f.Path, Status: f.Status, Additions: f.Additions, Deletions: f.Deletions, Changes: f.Additions + f.Deletions,
			HTMLURL: l.html + "/src/commit/" + cmp.To + "/" + path, ContentsURL: l.api + "/contents/" + path + "?ref=" + cmp.To,
			RawURL: l.html + "/raw/commit/" + cmp.To + "/" + path, Binary: f.Binary,
		}
		if f.OldPath != f.Path {
			j.PreviousFilename = f.OldPath
		}
		if budget <= 0 {
			j.PatchTruncated = true
		} else if !f.Binary {
			patch, cut, err := gitstore.FilePatch(r.Context(), cmp.Dir, cmp.From, cmp.To, f, min(maxFilePatch, budget))
			if err != nil {
				return err
			}
			j.Patch, j.PatchTruncated = patch, cut
			budget -= len(patch)
		}
		out[i] = j
	}
	return h.RespondList(w, r, p, int64(len(files)), out, nil)
}
