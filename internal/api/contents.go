package api

import (
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Reading code, Gitea's API v1 shapes: contents, raw and media files,
// trees, blobs, refs, branches, tags, commits (with their files and, as
// text, their diff or patch); plus dForge's readme (rendered on the
// server), contributors and counts. Every read checks the repository is
// visible first (404 otherwise), then the ref and path the client names
// (400 when malformed, 404 when absent). Commits of public repositories
// carry their IPFS CID.

const (
	// maxContentSize is the largest file the contents API inlines; a
	// larger one comes with too_large and no content (raw serves it).
	maxContentSize = 1 << 20
	// maxReadmeSize is the largest README rendered.
	maxReadmeSize = 1 << 20
	// maxJSONDiff caps the diff a commit's JSON carries (diff_truncated).
	maxJSONDiff = 1 << 20
	// treePageSize is Gitea's default page of a git tree.
	treePageSize = 1000
)

func (a *API) registerContents(mux *http.ServeMux) {
	const repo = "GET /api/v1/repos/{owner}/{repo}"
	mux.HandleFunc(repo+"/contents", a.serve(a.getContents))
	mux.HandleFunc(repo+"/contents/{path...}", a.serve(a.getContents))
	mux.HandleFunc(repo+"/raw/{path...}", a.serve(a.getRaw))
	mux.HandleFunc(repo+"/media/{path...}", a.serve(a.getRaw))
	mux.HandleFunc(repo+"/git/trees/{sha}", a.serve(a.getTree))
	mux.HandleFunc(repo+"/git/blobs/{sha}", a.serve(a.getBlob))
	mux.HandleFunc(repo+"/git/refs", a.serve(a.listRefs))
	mux.HandleFunc(repo+"/git/refs/{ref...}", a.serve(a.listRefs))
	mux.HandleFunc(repo+"/git/commits/{sha}", a.serve(a.getCommit))
	mux.HandleFunc(repo+"/branches", a.serve(a.listBranches))
	mux.HandleFunc(repo+"/branches/{branch...}", a.serve(a.getBranch))
	mux.HandleFunc(repo+"/tags", a.serve(a.listTags))
	mux.HandleFunc(repo+"/commits", a.serve(a.listCommits))
	mux.HandleFunc(repo+"/readme", a.serve(a.getReadme))
	mux.HandleFunc(repo+"/contributors", a.serve(a.listContributors))
	mux.HandleFunc(repo+"/counts", a.serve(a.getCounts))
}

// code is a visible repository with its git data on this node.
type code struct {
	repo index.Repo
	perm forge.Perm
	dir  string
	api  string // the repository's API URL
	html string // its page
}

// codeOf finds the path's repository and its git data.
func (a *API) codeOf(r *http.Request) (code, error) {
	rec, perm, err := a.repoOf(r)
	if err != nil {
		return code{}, err
	}
	dir, err := a.hosting.Dir(rec)
	if err != nil {
		return code{}, err
	}
	if !a.hosting.HasGit(rec) {
		if s, ok := a.replication(rec); ok {
			return code{}, usererr.New(usererr.Unavailable, "replicating", gitrepos.PendingMessage(toForgeUser(r, rec.Owner).Login+"/"+rec.Name, s))
		}
		return code{}, usererr.New(usererr.NotFound, "no_git_data", "the git data of this repository is not on this node (it was created on another node)")
	}
	full := toForgeUser(r, rec.Owner).Login + "/" + rec.Name
	base := siteURL(r)
	return code{repo: rec, perm: perm, dir: dir, api: base + "/api/v1/repos/" + full, html: base + "/" + full}, nil
}

var errEmptyRepo = usererr.New(usererr.NotFound, "empty_repository", "this repository is empty: push a first commit")

// resolve finds the commit ref names (the default branch when empty) and
// the name to show for it.
func (a *API) resolve(r *http.Request, c code, ref string) (string, string, error) {
	if gitstore.IsEmpty(c.dir) {
		return "", "", errEmptyRepo
	}
	if ref == "" {
		ref = c.repo.DefaultBranch
		if id, err := gitstore.ResolveBranch(r.Context(), c.dir, ref); err == nil {
			return id, ref, nil
		}
		id, err := gitstore.Resolve(r.Context(), c.dir, "") // HEAD, whatever it is
		return id, id, gitError(err)
	}
	id, err := gitstore.Resolve(r.Context(), c.dir, ref)
	return id, ref, gitError(err)
}

// gitError turns gitstore's client errors into user errors.
func gitError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gitstore.ErrInvalidPath):
		return usererr.InvalidField("path", "invalid_path",
			"a path is relative to the repository's root, with no '.' or '..' segments, backslashes or control characters")
	case errors.Is(err, gitstore.ErrInvalidRef):
		return usererr.InvalidField("ref", "invalid_ref", "that is not a branch, tag or commit name")
	case errors.Is(err, gitstore.ErrRefNotFound):
		return usererr.New(usererr.NotFound, "ref_not_found", "there is no such branch, tag or commit")
	case errors.Is(err, gitstore.ErrPathNotFound):
		return usererr.New(usererr.NotFound, "path_not_found", "there is no such file or directory at this ref")
	}
	return err
}

// fileAt resolves the request's ref and {path...} to an entry.
func (a *API) fileAt(r *http.Request) (code, gitstore.Entry, string, string, error) {
	c, err := a.codeOf(r)
	if err != nil {
		return code{}, gitstore.Entry{}, "", "", err
	}
	p, err := gitstore.CleanPath(r.PathValue("path"))
	if err != nil {
		return code{}, gitstore.Entry{}, "", "", gitError(err)
	}
	commit, ref, err := a.resolve(r, c, r.URL.Query().Get("ref"))
	if err != nil {
		return code{}, gitstore.Entry{}, "", "", err
	}
	e, err := gitstore.Stat(r.Context(), c.dir, commit, p)
	if err != nil {
		return code{}, gitstore.Entry{}, "", "", gitError(err)
	}
	e.Path = p
	return c, e, commit, ref, nil
}

// escapePath escapes each segment of a repository path for a URL.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// linksJSON is Gitea's FileLinksResponse.
type linksJSON struct {
	Self *string `json:"self"`
	Git  *string `json:"git"`
	HTML *string `json:"html"`
}

// contentJSON is Gitea's ContentsResponse, with dForge's notices for files
// it does not inline.
type contentJSON struct {
	Name            string    `json:"name"`
	Path            string    `json:"path"`
	SHA             string    `json:"sha"`
	LastCommitSHA   string    `json:"last_commit_sha"`
	Type            string    `json:"type"`
	Size            int64     `json:"size"`
	Encoding        *string   `json:"encoding"`
	Content         *string   `json:"content"`
	Target          *string   `json:"target"`
	URL             *string   `json:"url"`
	HTMLURL         *string   `json:"html_url"`
	GitURL          *string   `json:"git_url"`
	DownloadURL     *string   `json:"download_url"`
	SubmoduleGitURL *string   `json:"submodule_git_url"`
	Links           linksJSON `json:"_links"`
	// TooLarge: the file is over maxContentSize; Binary: it has a NUL in
	// its first 8000 bytes (git's test). Neither is inlined.
	TooLarge bool `json:"too_large"`
	Binary   bool `json:"binary"`
}

func ptr(s string) *string { return &s }

func (c code) content(e gitstore.Entry, ref string) contentJSON {
	q := "?ref=" + url.QueryEscape(ref)
	self := c.api + "/contents/" + escapePath(e.Path) + q
	kind := "src/branch/"
	if strings.Trim(ref, "0123456789abcdef") == "" && len(ref) >= 7 {
		kind = "src/commit/"
	}
	htmlURL := c.html + "/" + kind + escapePath(ref) + "/" + escapePath(e.Path)
	j := contentJSON{Name: e.Name, Path: e.Path, SHA: e.ID, Type: e.Kind(), Size: e.Size, URL: &self, HTMLURL: &htmlURL}
	switch e.Type {
	case "tree":
		j.GitURL = ptr(c.api + "/git/trees/" + e.ID)
	case "blob":
		j.GitURL = ptr(c.api + "/git/blobs/" + e.ID)
		j.DownloadURL = ptr(c.api + "/raw/" + escapePath(e.Path) + q)
	}
	j.Links = linksJSON{Self: j.URL, Git: j.GitURL, HTML: j.HTMLURL}
	return j
}

func (a *API) getContents(w http.ResponseWriter, r *http.Request) error {
	c, e, commit, ref, err := a.fileAt(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	// 1. A directory lists its entries, without content.
	if e.Type == "tree" {
		entries, err := gitstore.Tree(ctx, c.dir, commit, e.Path)
		if err != nil {
			return gitError(err)
		}
		out := make([]contentJSON, 0, len(entries))
		for _, child := range entries {
			out = append(out, c.content(child, ref))
		}
		writeJSON(w, http.StatusOK, out)
		return nil
	}
	// 2. A file, a symlink or a submodule, with its last commit.
	j := c.content(e, ref)
	if last, err := gitstore.Log(ctx, c.dir, commit, gitstore.LogOptions{Path: e.Path, Limit: 1}); err == nil && len(last) == 1 {
		j.LastCommitSHA = last[0].ID
	}
	if e.Type != "blob" {
		writeJSON(w, http.StatusOK, j)
		return nil
	}
	// 3. The content, unless it is too large or binary.
	if e.Size > maxContentSize {
		j.TooLarge = true
		writeJSON(w, http.StatusOK, j)
		return nil
	}
	data, err := gitstore.ReadBlob(ctx, c.dir, e.ID, maxContentSize)
	if err != nil {
		return err
	}
	if e.Kind() == "symlink" {
		j.Target = ptr(string(data))
	}
	if gitstore.IsBinary(data) {
		j.Binary = true
		writeJSON(w, http.StatusOK, j)
		return nil
	}
	j.Encoding, j.Content = ptr("base64"), ptr(base64.StdEncoding.EncodeToString(data))
	writeJSON(w, http.StatusOK, j)
	return nil
}

// rawType is what a raw file is served as: text as plain text, images,
// audio, video and PDF as themselves (for <img> and friends), the rest
// as bytes. Nothing is ever served as HTML or script.
func rawType(head []byte, name string) string {
	if strings.EqualFold(path.Ext(name), ".svg") {
		return "image/svg+xml"
	}
	if !gitstore.IsBinary(head) {
		return "text/plain; charset=utf-8"
	}
	sniffed := http.DetectContentType(head)
	for _, ok := range []string{"image/", "audio/", "video/", "application/pdf"} {
		if strings.HasPrefix(sniffed, ok) {
			return sniffed
		}
	}
	return "application/octet-stream"
}

// getRaw streams a file (raw and media alike: there is no LFS), with
// headers that keep a browser from running anything in it.
func (a *API) getRaw(w http.ResponseWriter, r *http.Request) error {
	c, e, _, _, err := a.fileAt(r)
	if err != nil {
		return err
	}
	if e.Type != "blob" {
		return usererr.Newf(usererr.NotFound, "path_not_found", "%s is not a file", e.Path)
	}
	etag := `"` + e.ID + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	if c.repo.Private {
		h.Set("Cache-Control", "private, no-cache")
	} else {
		h.Set("Cache-Control", "public, no-cache")
	}
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	blob, err := gitstore.OpenBlob(r.Context(), c.dir, e.ID)
	if err != nil {
		return err
	}
	defer blob.Close()
	head := make([]byte, 8000)
	n, err := io.ReadFull(blob, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read blob %s: %w", e.ID, err)
	}
	disposition := "inline"
	if r.URL.Query().Has("download") {
		disposition = "attachment"
	}
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": e.Name}))
	h.Set("Content-Type", rawType(head[:n], e.Name))
	h.Set("Content-Length", strconv.FormatInt(e.Size, 10))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	if _, err := w.Write(head[:n]); err != nil {
		return nil
	}
	if _, err := io.Copy(w, blob); err != nil {
		a.log.DebugContext(r.Context(), "raw file stream ended early", "path", e.Path, "err", err)
	}
	return nil
}

// gitEntryJSON and gitTreeJSON are Gitea's GitEntry and GitTreeResponse.
type gitEntryJSON struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"`
	Size int64  `json:"size"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

type gitTreeJSON struct {
	SHA        string         `json:"sha"`
	URL        string         `json:"url"`
	Entries    []gitEntryJSON `json:"tree"`
	Truncated  bool           `json:"truncated"`
	Page       int            `json:"page"`
	TotalCount int            `json:"total_count"`
}

func (a *API) getTree(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	page, perPage := 1, treePageSize
	if v := q.Get("page"); v != "" {
		// Bounded so (page-1)*perPage cannot overflow into a negative slice index.
		if page, err = strconv.Atoi(v); err != nil || page < 0 || page > math.MaxInt32 {
			return usererr.InvalidField("page", "invalid_page", "page must be a whole number from 1 up (0 is the first page)")
		}
		page = max(page, 1) // as pageOf: 0 is the default
	}
	if v := q.Get("per_page"); v != "" {
		if perPage, err = strconv.Atoi(v); err != nil || perPage < 0 || perPage > math.MaxInt32 {
			return usererr.InvalidField("per_page", "invalid_limit", "per_page must be a whole number from 1 up (0 is the default)")
		}
		if perPage == 0 {
			perPage = treePageSize
		}
		perPage = min(perPage, 10*treePageSize)
	}
	sha := r.PathValue("sha")
	if !isHex(sha) { // a branch or tag: its commit's tree
		if sha, _, err = a.resolve(r, c, sha); err != nil {
			return err
		}
	}
	entries, err := gitstore.TreeByID(r.Context(), c.dir, sha, q.Get("recursive") == "true" || q.Get("recursive") == "1")
	if err != nil {
		return gitError(err)
	}
	out := gitTreeJSON{SHA: sha, URL: c.api + "/git/trees/" + sha, Page: page, TotalCount: len(entries), Entries: []gitEntryJSON{}}
	from := min(len(entries), (page-1)*perPage)
	to := min(len(entries), from+perPage)
	out.Truncated = to < len(entries)
	for _, e := range entries[from:to] {
		kind := "blobs"
		if e.Type == "tree" {
			kind = "trees"
		}
		out.Entries = append(out.Entries, gitEntryJSON{Path: e.Path, Mode: e.Mode, Type: e.Type, Size: e.Size, SHA: e.ID, URL: c.api + "/git/" + kind + "/" + e.ID})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func isHex(s string) bool {
	return len(s) >= 4 && len(s) <= 64 && strings.Trim(s, "0123456789abcdef") == ""
}

// getBlob is Gitea's GitBlobResponse: a blob by id, base64.
func (a *API) getBlob(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	sha := r.PathValue("sha")
	if !isHex(sha) {
		return usererr.InvalidField("sha", "invalid_ref", "a blob is named by its id (hex)")
	}
	typ, err := gitstore.ObjectType(r.Context(), c.dir, sha)
	if err != nil || typ != "blob" {
		return gitError(gitstore.ErrRefNotFound)
	}
	data, err := gitstore.ReadBlob(r.Context(), c.dir, sha, maxContentSize+1)
	if err != nil {
		return err
	}
	out := map[string]any{"sha": sha, "url": c.api + "/git/blobs/" + sha, "size": len(data), "too_large": len(data) > maxContentSize,
		"encoding": nil, "content": nil}
	if len(data) <= maxContentSize {
		out["encoding"], out["content"] = "base64", base64.StdEncoding.EncodeToString(data)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// refJSON is Gitea's Reference.
type refJSON struct {
	Ref    string `json:"ref"`
	URL    string `json:"url"`
	Object struct {
		Type string `json:"type"`
		SHA  string `json:"sha"`
		URL  string `json:"url"`
	} `json:"object"`
}

func (a *API) listRefs(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	prefix := "refs/"
	if sub := strings.TrimPrefix(r.PathValue("ref"), "refs/"); sub != "" {
		if _, err := gitstore.CleanPath(sub); err != nil {
			return usererr.InvalidField("ref", "invalid_ref", "that is not a ref name")
		}
		prefix += sub
	}
	refs, err := gitstore.RefNames(r.Context(), c.dir, "refs/")
	if err != nil {
		return err
	}
	out := []refJSON{}
	for _, ref := range refs {
		if !strings.HasPrefix(ref.Name, prefix) {
			continue
		}
		j := refJSON{Ref: ref.Name, URL: c.api + "/git/" + escapePath(ref.Name)}
		j.Object.SHA = ref.ID
		j.Object.Type, _ = gitstore.ObjectType(r.Context(), c.dir, ref.ID)
		j.Object.URL = c.api + "/git/" + j.Object.Type + "s/" + ref.ID
		if j.Object.Type == "commit" {
			j.Object.URL = c.api + "/git/commits/" + ref.ID
		}
		out = append(out, j)
	}
	if len(out) == 0 && prefix != "refs/" {
		return usererr.Newf(usererr.NotFound, "ref_not_found", "no ref starts with %s", prefix)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// --- commits ---

// identityJSON is Gitea's CommitUser.
type identityJSON struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

type commitMetaJSON struct {
	URL     string `json:"url"`
	SHA     string `json:"sha"`
	Created string `json:"created,omitempty"`
}

type commitFileJSON struct {
	Filename         string `json:"filename"`
	PreviousFilename string `json:"previous_filename,omitempty"`
	Status           string `json:"status"`
	Additions        int    `json:"additions"`
	Deletions        int    `json:"deletions"`
	Changes          int    `json:"changes"`
	Binary           bool   `json:"binary"`
}

type commitStatsJSON struct {
	Total     int `json:"total"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
}

// commitJSON is Gitea's Commit, with the commit's IPFS CID (public
// repositories) and, when asked for, its diff.
type commitJSON struct {
	commitMetaJSON
	HTMLURL string `json:"html_url"`
	Commit  struct {
		URL          string         `json:"url"`
		Author       identityJSON   `json:"author"`
		Committer    identityJSON   `json:"committer"`
		Message      string         `json:"message"`
		Tree         commitMetaJSON `json:"tree"`
		Verification any            `json:"verification"`
	} `json:"commit"`
	Author        *forgeUserJSON   `json:"author"`
	Committer     *forgeUserJSON   `json:"committer"`
	Parents       []commitMetaJSON `json:"parents"`
	Files         []commitFileJSON `json:"files,omitempty"`
	Stats         *commitStatsJSON `json:"stats,omitempty"`
	CID           string           `json:"cid,omitempty"`
	Diff          *string          `json:"diff,omitempty"`
	DiffTruncated *bool            `json:"diff_truncated,omitempty"`
}

func rfc3339(s gitstore.Signature) string {
	if s.When.IsZero() {
		return ""
	}
	return s.When.Format("2006-01-02T15:04:05Z07:00")
}

// cidOf is a git object's CID, for a public repository only: a private
// one's objects are never blocks.
func (c code) cidOf(id string) string {
	if c.repo.Private {
		return ""
	}
	if cid := blocks.CIDForGitObject(id); cid.Defined() {
		return cid.String()
	}
	return ""
}

func (c code) commit(g gitstore.Commit, files bool) commitJSON {
	var j commitJSON
	api := c.api + "/git/commits/" + g.ID
	j.commitMetaJSON = commitMetaJSON{URL: api, SHA: g.ID, Created: rfc3339(g.Committer)}
	j.HTMLURL = c.html + "/commit/" + g.ID
	j.Commit.URL = api
	j.Commit.Author = identityJSON{Name: g.Author.Name, Email: g.Author.Email, Date: rfc3339(g.Author)}
	j.Commit.Committer = identityJSON{Name: g.Committer.Name, Email: g.Committer.Email, Date: rfc3339(g.Committer)}
	j.Commit.Message = g.Message
	j.Commit.Tree = commitMetaJSON{URL: c.api + "/git/trees/" + g.Tree, SHA: g.Tree, Created: j.Created}
	j.Parents = []commitMetaJSON{}
	for _, p := range g.Parents {
		j.Parents = append(j.Parents, commitMetaJSON{URL: c.api + "/git/commits/" + p, SHA: p})
	}
	j.CID = c.cidOf(g.ID)
	if files && g.Files != nil {
		j.Files = make([]commitFileJSON, 0, len(g.Files))
		for _, f := range g.Files {
			fj := commitFileJSON{Filename: f.Path, Status: f.Status, Additions: f.Additions, Deletions: f.Deletions,
				Changes: f.Additions + f.Deletions, Binary: f.Binary}
			if f.OldPath != f.Path {
				fj.PreviousFilename = f.OldPath
			}
			j.Files = append(j.Files, fj)
		}
		add, del := g.Additions(), g.Deletions()
		j.Stats = &commitStatsJSON{Total: add + del, Additions: add, Deletions: del}
	}
	return j
}

// boolParam reads a true/false query parameter with a default.
func boolParam(r *http.Request, name string, def bool) bool {
	switch r.URL.Query().Get(name) {
	case "true", "1":
		return true
	case "false", "0":
		return false
	}
	return def
}

func (a *API) listCommits(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	filter, err := gitstore.CleanPath(q.Get("path"))
	if err != nil {
		return gitError(err)
	}
	if gitstore.IsEmpty(c.dir) {
		return a.respondList(w, r, p, 0, []commitJSON{}, nil)
	}
	commit, _, err := a.resolve(r, c, q.Get("sha"))
	if err != nil {
		return err
	}
	files := boolParam(r, "files", true) || boolParam(r, "stat", false)
	list, err := gitstore.Log(r.Context(), c.dir, commit, gitstore.LogOptions{Path: filter, Skip: (p.Number - 1) * p.Limit, Limit: p.Limit, Files: files})
	if err != nil {
		return err
	}
	total, err := gitstore.Count(r.Context(), c.dir, commit, filter)
	out := make([]commitJSON, 0, len(list))
	for _, g := range list {
		out = append(out, c.commit(g, files))
	}
	return a.respondList(w, r, p, int64(total), out, err)
}

// getCommit answers /git/commits/{sha}: the commit as JSON (?diff=true
// adds its diff, capped at maxJSONDiff), or with .diff or .patch its
// changes as text, streamed whole.
func (a *API) getCommit(w http.ResponseWriter, r *http.Request) error {
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
	g, err := gitstore.CommitByID(r.Context(), c.dir, sha)
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
		if err := gitstore.WriteCommitDiff(r.Context(), c.dir, g, f, 0, w); err != nil {
			a.log.ErrorContext(r.Context(), "stream commit diff", "commit", g.ID, "err", err)
		}
		return nil
	}
	j := c.commit(g, true)
	if boolParam(r, "diff", false) {
		diff, truncated, err := gitstore.CommitDiff(r.Context(), c.dir, g, maxJSONDiff)
		if err != nil {
			return err
		}
		j.Diff, j.DiffTruncated = &diff, &truncated
	}
	writeJSON(w, http.StatusOK, j)
	return nil
}

// --- branches and tags ---

// payloadUserJSON and payloadCommitJSON are Gitea's PayloadUser and
// PayloadCommit, as a branch shows its newest commit.
type payloadUserJSON struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

type payloadCommitJSON struct {
	ID           string          `json:"id"`
	Message      string          `json:"message"`
	URL          string          `json:"url"`
	Author       payloadUserJSON `json:"author"`
	Committer    payloadUserJSON `json:"committer"`
	Verification any             `json:"verification"`
	Timestamp    string          `json:"timestamp"`
	Added        []string        `json:"added"`
	Removed      []string        `json:"removed"`
	Modified     []string        `json:"modified"`
	CID          string          `json:"cid,omitempty"`
}

// branchJSON is Gitea's Branch.
type branchJSON struct {
	Name                          string            `json:"name"`
	Commit                        payloadCommitJSON `json:"commit"`
	Protected                     bool              `json:"protected"`
	RequiredApprovals             int               `json:"required_approvals"`
	EnableStatusCheck             bool              `json:"enable_status_check"`
	StatusCheckContexts           []string          `json:"status_check_contexts"`
	UserCanPush                   bool              `json:"user_can_push"`
	UserCanMerge                  bool              `json:"user_can_merge"`
	EffectiveBranchProtectionName string            `json:"effective_branch_protection_name"`
}

func (c code) branch(b gitstore.Branch) branchJSON {
	g := b.Commit
	protected := false
	for _, p := range c.repo.ProtectedBranches {
		protected = protected || p == b.Name
	}
	j := branchJSON{
		Name: b.Name, Protected: protected, StatusCheckContexts: []string{},
		UserCanPush: c.perm >= forge.PermWrite, UserCanMerge: c.perm >= forge.PermMaintain,
		Commit: payloadCommitJSON{
			ID: g.ID, Message: g.Message, URL: c.html + "/commit/" + g.ID, Timestamp: rfc3339(g.Committer), CID: c.cidOf(g.ID),
			Author:    payloadUserJSON{Name: g.Author.Name, Email: g.Author.Email},
			Committer: payloadUserJSON{Name: g.Committer.Name, Email: g.Committer.Email},
		},
	}
	if protected {
		j.EffectiveBranchProtectionName = b.Name
	}
	return j
}

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

// tagJSON is Gitea's Tag.
type tagJSON struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	ID      string `json:"id"`
	Commit  *struct {
		commitMetaJSON
		CID string `json:"cid,omitempty"`
	} `json:"commit"`
	ZipballURL string `json:"zipball_url"`
	TarballURL string `json:"tarball_url"`
}

func (a *API) listTags(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	tags, err := gitstore.Tags(r.Context(), c.dir)
	if err != nil {
		return err
	}
	out := []tagJSON{}
	for _, t := range pageSlice(tags, p) {
		j := tagJSON{Name: t.Name, Message: t.Message, ID: t.ID}
		if t.Commit != "" {
			j.Commit = &struct {
				commitMetaJSON
				CID string `json:"cid,omitempty"`
			}{commitMetaJSON{URL: c.api + "/git/commits/" + t.Commit, SHA: t.Commit}, c.cidOf(t.Commit)}
		}
		out = append(out, j)
	}
	return a.respondList(w, r, p, int64(len(tags)), out, nil)
}

// --- dForge's own: readme, contributors, counts ---

// readmeNames are the READMEs looked for, best first (any case).
var readmeNames = []string{"readme.md", "readme.markdown", "readme", "readme.txt", "readme.rst"}

func (a *API) getReadme(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	dir, err := gitstore.CleanPath(q.Get("dir"))
	if err != nil {
		return gitError(err)
	}
	commit, _, err := a.resolve(r, c, q.Get("ref"))
	if err != nil {
		return err
	}
	entries, err := gitstore.Tree(r.Context(), c.dir, commit, dir)
	if err != nil {
		return gitError(err)
	}
	var found *gitstore.Entry
	for _, want := range readmeNames {
		for i, e := range entries {
			if e.Type == "blob" && strings.ToLower(e.Name) == want {
				found = &entries[i]
				break
			}
		}
		if found != nil {
			break
		}
	}
	if found == nil {
		return usererr.Missingf("this directory has no README")
	}
	data, err := gitstore.ReadBlob(r.Context(), c.dir, found.ID, maxReadmeSize)
	if err != nil {
		return err
	}
	var out string
	switch ext := strings.ToLower(path.Ext(found.Name)); {
	case gitstore.IsBinary(data):
		out = ""
	case ext == ".md" || ext == ".markdown":
		if out, err = a.markdown.RenderStored(data); err != nil {
			return err
		}
	default:
		out = "<pre>" + html.EscapeString(string(data)) + "</pre>"
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": found.Name, "path": found.Path, "sha": found.ID, "size": found.Size,
		"truncated": found.Size > maxReadmeSize, "html": out})
	return nil
}

type contributorJSON struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Commits int    `json:"commits"`
}

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

// countsJSON is what a repository's home shows in its header.
type countsJSON struct {
	Commits    int    `json:"commits"`
	Branches   int    `json:"branches"`
	Tags       int    `json:"tags"`
	Stars      uint64 `json:"stars"`
	Forks      uint64 `json:"forks"`
	Watchers   uint64 `json:"watchers"`
	OpenIssues uint64 `json:"open_issues"`
	OpenPulls  uint64 `json:"open_pulls"`
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
