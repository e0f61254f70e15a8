package api

import (
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// Compare, Gitea's GET /compare/{base}...{head}: the commits head has that
// base lacks, and the files changed since their merge base (what a pull
// request from head into base would show), with their patches capped as
// a pull request's are.

// maxCompareCommits bounds the commits a compare lists (total_commits
// still counts them all).
const maxCompareCommits = 250

// compareJSON is Gitea's Compare, plus files.
type compareJSON struct {
	TotalCommits int               `json:"total_commits"`
	Commits      []commitJSON      `json:"commits"`
	Files        []changedFileJSON `json:"files"`
}

func (a *API) compare(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	baseRef, headRef, ok := strings.Cut(r.PathValue("basehead"), "...")
	if !ok || baseRef == "" || headRef == "" {
		return usererr.BadFieldf("basehead", "compare names base...head, such as main...feature")
	}
	if strings.Contains(headRef, ":") {
		return usererr.BadFieldf("basehead", "comparing with another repository's branch (owner:branch) is not supported; compare branches of this repository")
	}
	base, _, err := a.resolve(r, c, baseRef)
	if err != nil {
		return err
	}
	head, _, err := a.resolve(r, c, headRef)
	if err != nil {
		return err
	}
	span := base + ".." + head
	total, err := gitstore.Count(r.Context(), c.dir, span, "")
	if err != nil {
		return err
	}
	list, err := gitstore.Log(r.Context(), c.dir, span, gitstore.LogOptions{Limit: maxCompareCommits, Files: true})
	if err != nil {
		return err
	}
	out := compareJSON{TotalCommits: total, Commits: make([]commitJSON, 0, len(list)), Files: []changedFileJSON{}}
	for _, g := range list {
		out.Commits = append(out.Commits, c.commit(g, true))
	}
	if err := a.withAccounts(r, out.Commits); err != nil {
		return err
	}
	from, err := gitstore.MergeBase(r.Context(), c.dir, base, head)
	if err != nil {
		return err
	}
	if from == "" {
		from = base // unrelated histories: the whole difference
	}
	if out.Files, err = compareFiles(r, c, from, head); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// compareFiles is the files changed from from to to, with patches within
// the page budget.
func compareFiles(r *http.Request, c code, from, to string) ([]changedFileJSON, error) {
	files, err := gitstore.CompareFiles(r.Context(), c.dir, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]changedFileJSON, 0, len(files))
	budget := maxPagePatch
	for _, f := range files {
		path := escapePath(f.Path)
		j := changedFileJSON{
			Filename: f.Path, Status: f.Status, Additions: f.Additions, Deletions: f.Deletions, Changes: f.Additions + f.Deletions,
			HTMLURL: c.html + "/src/commit/" + to + "/" + path, ContentsURL: c.api + "/contents/" + path + "?ref=" + to,
			RawURL: c.html + "/raw/commit/" + to + "/" + path, Binary: f.Binary,
		}
		if f.OldPath != f.Path {
			j.PreviousFilename = f.OldPath
		}
		if budget <= 0 {
			j.PatchTruncated = true
		} else if !f.Binary {
			patch, cut, err := gitstore.FilePatch(r.Context(), c.dir, from, to, f, min(maxFilePatch, budget))
			if err != nil {
				return nil, err
			}
			j.Patch, j.PatchTruncated = patch, cut
			budget -= len(patch)
		}
		out = append(out, j)
	}
	return out, nil
}
