package issue

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"

	"github.com/dforge/dforge/internal/gitstore"
)

// A pull request's commits and changed files (with their patches, each
// and the page capped).

func (h *Handler) listPullCommits(w http.ResponseWriter, r *http.Request) error {
	repo, perm, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	cmp, err := h.Pulls.Compare(r.Context(), repo, pr)
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
	l := h.LinksFor(r, repo)
	c := api.Code{Repo: repo, Perm: perm, Dir: cmp.Dir, Api: l.Api, Html: l.Html}
	out := make([]api.CommitJSON, len(list))
	for i, g := range list {
		out[i] = c.Commit(g, true)
	}
	return h.RespondList(w, r, p, int64(total), out, h.WithAccounts(r, out))
}

func (h *Handler) listPullFiles(w http.ResponseWriter, r *http.Request) error {
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	cmp, err := h.Pulls.Compare(r.Context(), repo, pr)
	if err != nil {
		return err
	}
	files, err := gitstore.CompareFiles(r.Context(), cmp.Dir, cmp.From, cmp.To)
	if err != nil {
		return err
	}
	page := api.PageSlice(files, p)
	l := h.LinksFor(r, repo)
	out := make([]api.ChangedFileJSON, len(page))
	budget := api.MaxPagePatch
	for i, f := range page {
		path := api.EscapePath(f.Path)
		j := api.ChangedFileJSON{
			Filename: f.Path, Status: f.Status, Additions: f.Additions, Deletions: f.Deletions, Changes: f.Additions + f.Deletions,
			HTMLURL: l.Html + "/src/commit/" + cmp.To + "/" + path, ContentsURL: l.Api + "/contents/" + path + "?ref=" + cmp.To,
			RawURL: l.Html + "/raw/commit/" + cmp.To + "/" + path, Binary: f.Binary,
		}
		if f.OldPath != f.Path {
			j.PreviousFilename = f.OldPath
		}
		if budget <= 0 {
			j.PatchTruncated = true
		} else if !f.Binary {
			patch, cut, err := gitstore.FilePatch(r.Context(), cmp.Dir, cmp.From, cmp.To, f, min(api.MaxFilePatch, budget))
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
