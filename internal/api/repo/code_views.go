package repo

import (
	"github.com/dforge/dforge/internal/api"
	"mime"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// The code browser's reads beyond Gitea's contents: archives of a ref
// (Gitea's route, streamed from git archive), and dForge's last commit of
// each entry of a directory and blame of a file.

func (a *Handler) RegisterCodeViews(mux *http.ServeMux) {
	const repo = "GET /api/v1/repos/{owner}/{repo}"
	mux.HandleFunc(repo+"/archive/{archive...}", a.Serve(a.getArchive))
	mux.HandleFunc(repo+"/last_commits", a.Serve(a.listLastCommits))
	mux.HandleFunc(repo+"/blame/{path...}", a.Serve(a.getBlame))
}

// getArchive streams the archive of a branch, tag or commit:
// {ref}.zip or {ref}.tar.gz, each path under the repository's name.
func (a *Handler) getArchive(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	name := r.PathValue("archive")
	var ref, format, ctype string
	switch {
	case strings.HasSuffix(name, ".zip"):
		ref, format, ctype = strings.TrimSuffix(name, ".zip"), gitstore.ArchiveZip, "application/zip"
	case strings.HasSuffix(name, ".tar.gz"):
		ref, format, ctype = strings.TrimSuffix(name, ".tar.gz"), gitstore.ArchiveTarGz, "application/gzip"
	default:
		return usererr.BadFieldf("archive", "an archive is {ref}.zip or {ref}.tar.gz")
	}
	if ref == "" {
		return usererr.BadFieldf("archive", "an archive names a branch, tag or commit: {ref}.zip or {ref}.tar.gz")
	}
	commit, _, err := a.resolve(r, c, ref)
	if err != nil {
		return err
	}
	file := c.Repo.Name + "-" + strings.ReplaceAll(ref, "/", "-") + "." + format
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": file}))
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// The bytes of a commit's archive never change: a client may keep them.
	w.Header().Set("ETag", `"`+commit+"."+format+`"`)
	if r.Header.Get("If-None-Match") == w.Header().Get("ETag") {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	if err := gitstore.WriteArchive(r.Context(), c.Dir, commit, format, c.Repo.Name+"/", w); err != nil {
		// The answer has begun: the client sees a cut archive.
		a.Log.ErrorContext(r.Context(), "stream an archive", "repo", c.Repo.ID, "commit", commit, "err", err)
	}
	return nil
}

// lastCommitJSON is the last commit of one entry of a directory.
type lastCommitJSON struct {
	Name   string             `json:"name"`
	Path   string             `json:"path"`
	Commit *commitSummaryJSON `json:"commit"`
}

// commitSummaryJSON is a commit as a listing shows it.
type commitSummaryJSON struct {
	SHA       string           `json:"sha"`
	Message   string           `json:"message"`
	HTMLURL   string           `json:"html_url"`
	Author    api.IdentityJSON `json:"author"`
	Committer api.IdentityJSON `json:"committer"`
}

type lastCommitsJSON struct {
	Commit  string           `json:"commit"`
	Entries []lastCommitJSON `json:"entries"`
}

func summary(c api.Code, g gitstore.Commit) *commitSummaryJSON {
	return &commitSummaryJSON{SHA: g.ID, Message: g.Summary(), HTMLURL: c.Html + "/commit/" + g.ID,
		Author:    api.IdentityJSON{Name: g.Author.Name, Email: g.Author.Email, Date: api.Rfc3339(g.Author)},
		Committer: api.IdentityJSON{Name: g.Committer.Name, Email: g.Committer.Email, Date: api.Rfc3339(g.Committer)}}
}

// listLastCommits answers the newest commit that changed each entry of
// the directory ?path= at ?ref= (the default branch when empty), in the
// tree's order; an entry past the history searched has a null commit.
func (a *Handler) listLastCommits(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	p, err := gitstore.CleanPath(q.Get("path"))
	if err != nil {
		return gitError(err)
	}
	commit, _, err := a.resolve(r, c, q.Get("ref"))
	if err != nil {
		return err
	}
	entries, err := gitstore.Tree(r.Context(), c.Dir, commit, p)
	if err != nil {
		return gitError(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name
	}
	last, err := gitstore.LastCommits(r.Context(), c.Dir, commit, p, names)
	if err != nil {
		return err
	}
	out := lastCommitsJSON{Commit: commit, Entries: make([]lastCommitJSON, 0, len(entries))}
	for _, e := range entries {
		j := lastCommitJSON{Name: e.Name, Path: e.Path}
		if g, ok := last[e.Name]; ok {
			j.Commit = summary(c, g)
		}
		out.Entries = append(out.Entries, j)
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

// blameRangeJSON is a run of lines last changed by one commit.
type blameRangeJSON struct {
	StartLine int                `json:"start_line"`
	Lines     []string           `json:"lines"`
	Commit    *commitSummaryJSON `json:"commit"`
}

type blameJSON struct {
	Commit string           `json:"commit"`
	Path   string           `json:"path"`
	Ranges []blameRangeJSON `json:"ranges"`
}

// getBlame answers who last changed each line of a text file at ?ref=,
// as runs of lines with their commit.
func (a *Handler) getBlame(w http.ResponseWriter, r *http.Request) error {
	c, e, commit, _, err := a.fileAt(r)
	if err != nil {
		return err
	}
	switch {
	case e.Type != "blob" || e.Kind() == "symlink":
		return usererr.BadFieldf("path", "%s is not a file: only files have a blame", e.Path)
	case e.Size > api.MaxContentSize:
		return usererr.BadFieldf("path", "%s is over %d bytes: too large to blame here", e.Path, api.MaxContentSize)
	}
	data, err := gitstore.ReadBlob(r.Context(), c.Dir, e.ID, 8000)
	if err != nil {
		return err
	}
	if gitstore.IsBinary(data) {
		return usererr.BadFieldf("path", "%s is binary: only text files have a blame", e.Path)
	}
	ranges, err := gitstore.Blame(r.Context(), c.Dir, commit, e.Path)
	if err != nil {
		return err
	}
	out := blameJSON{Commit: commit, Path: e.Path, Ranges: make([]blameRangeJSON, 0, len(ranges))}
	for _, br := range ranges {
		out.Ranges = append(out.Ranges, blameRangeJSON{StartLine: br.StartLine, Lines: br.Lines, Commit: summary(c, br.Commit)})
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}
