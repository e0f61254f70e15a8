package repo

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/codesearch"
	"github.com/dforge/dforge/internal/usererr"
)

// Code search, a dForge extension (Gitea searches code in its web pages
// only): the files of default branches whose content or path holds every
// word of q, each with its matching lines and the matched words' places.
// codesearch decides what the caller may see: public repositories and the
// private ones it reads.

func (a *Handler) RegisterCodeSearch(mux *http.ServeMux) {
	if a.CodeSearch == nil || a.Hosting == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/search/code", a.Serve(a.searchCode))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/search/code", a.Serve(a.searchRepoCode))
}

// codeSearchJSON is a page of matching files.
type codeSearchJSON struct {
	Total     uint64                     `json:"total"`
	Items     []codeHitJSON              `json:"items"`
	Languages []codesearch.LanguageCount `json:"languages"`
}

// codeHitJSON is a matching file: its repository, path, language, link
// and matching lines (ranges are [start, end) in characters).
type codeHitJSON struct {
	Repository codeRepoJSON      `json:"repository"`
	Path       string            `json:"path"`
	Language   string            `json:"language"`
	HTMLURL    string            `json:"html_url"`
	Lines      []codesearch.Line `json:"lines"`
}

type codeRepoJSON struct {
	ID       uint64 `json:"id"`
	FullName string `json:"full_name"`
}

// searchCode (a dForge extension) searches the code of every repository
// the caller reads: the files whose content or path holds every word of q,
// with their matching lines; repo=owner/name narrows it to one, language=
// to one language. No word in q is a 422.
func (a *Handler) searchCode(w http.ResponseWriter, r *http.Request) error {
	var id uint64
	if full := r.URL.Query().Get("repo"); full != "" {
		owner, name, ok := strings.Cut(full, "/")
		if !ok || owner == "" || name == "" {
			return usererr.BadFieldf("repo", "repo must be owner/name")
		}
		rec, _, err := a.Hosting.Repo(r.Context(), api.ViewerOf(r), owner, name)
		if err != nil {
			return err
		}
		id = rec.ID
	}
	return a.codeSearchIn(w, r, id)
}

// searchRepoCode (a dForge extension) searches the code of the
// repository's default branch as searchCode does.
func (a *Handler) searchRepoCode(w http.ResponseWriter, r *http.Request) error {
	rec, _, err := a.RepoOf(r)
	if err != nil {
		return err
	}
	return a.codeSearchIn(w, r, rec.ID)
}

func (a *Handler) codeSearchIn(w http.ResponseWriter, r *http.Request, repo uint64) error {
	p, err := api.PageWithLimit(r, 10)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	res, err := a.CodeSearch.Search(r.Context(), api.ViewerOf(r), codesearch.Query{Text: q.Get("q"), Language: q.Get("language"),
		Repo: repo, Page: p.Number, Limit: min(p.Limit, 50)})
	if err != nil {
		return err
	}
	base := api.SiteURL(r)
	out := codeSearchJSON{Total: res.Total, Items: make([]codeHitJSON, 0, len(res.Items)), Languages: res.Languages}
	for _, h := range res.Items {
		link := base + "/" + h.Repo + "/src/" + api.EscapePath(h.Path)
		if len(h.Lines) > 0 {
			link += "#L" + strconv.Itoa(h.Lines[0].Number)
		}
		out.Items = append(out.Items, codeHitJSON{Repository: codeRepoJSON{ID: h.RepoID, FullName: h.Repo}, Path: h.Path,
			Language: h.Language, HTMLURL: link, Lines: h.Lines})
	}
	w.Header().Set("X-Total-Count", strconv.FormatUint(res.Total, 10))
	return api.Reply(w, out)
}
