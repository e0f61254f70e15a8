package repo

import (
	"errors"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"

	"github.com/dforge/dforge/internal/forge/gitrepos"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// Reading code, Gitea's API v1 shapes: contents, raw and media files,
// trees, blobs, refs, branches, tags, commits (with their files and, as
// text, their diff or patch); plus dForge's readme (rendered on the
// server), contributors and counts. Every read checks the repository is
// visible first (404 otherwise), then the ref and path the client names
// (400 when malformed, 404 when absent). Commits of public repositories
// carry their IPFS CID.

func (a *Handler) RegisterContents(mux *http.ServeMux) {
	const repo = "GET /api/v1/repos/{owner}/{repo}"
	mux.HandleFunc(repo+"/contents", a.Serve(a.getContents))
	mux.HandleFunc(repo+"/contents/{path...}", a.Serve(a.getContents))
	mux.HandleFunc(repo+"/raw/{path...}", a.Serve(a.getRaw))
	mux.HandleFunc(repo+"/media/{path...}", a.Serve(a.getRaw))
	mux.HandleFunc(repo+"/git/trees/{sha}", a.Serve(a.getTree))
	mux.HandleFunc(repo+"/git/blobs/{sha}", a.Serve(a.getBlob))
	mux.HandleFunc(repo+"/git/refs", a.Serve(a.listRefs))
	mux.HandleFunc(repo+"/git/refs/{ref...}", a.Serve(a.listRefs))
	mux.HandleFunc(repo+"/git/commits/{sha}", a.Serve(a.getCommit))
	mux.HandleFunc(repo+"/branches", a.Serve(a.listBranches))
	mux.HandleFunc(repo+"/branches/{branch...}", a.Serve(a.getBranch))
	mux.HandleFunc(repo+"/tags", a.Serve(a.listTags))
	mux.HandleFunc(repo+"/commits", a.Serve(a.listCommits))
	mux.HandleFunc(repo+"/readme", a.Serve(a.getReadme))
	mux.HandleFunc(repo+"/contributors", a.Serve(a.listContributors))
	mux.HandleFunc(repo+"/counts", a.Serve(a.getCounts))
	a.RegisterFileWrites(mux)
	a.RegisterCodeViews(mux)
}

// codeOf finds the path's repository and its git data.
func (a *Handler) codeOf(r *http.Request) (api.Code, error) {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return api.Code{}, err
	}
	dir, err := a.Hosting.Dir(rec)
	if err != nil {
		return api.Code{}, err
	}
	if !a.Hosting.HasGit(rec) {
		if s, ok := a.Replication(rec); ok {
			return api.Code{}, usererr.New(usererr.Unavailable, "replicating", gitrepos.PendingMessage(api.ToForgeUser(r, rec.Owner).Login+"/"+rec.Name, s))
		}
		return api.Code{}, usererr.New(usererr.NotFound, "no_git_data", "the git data of this repository is not on this node (it was created on another node)")
	}
	full := api.ToForgeUser(r, rec.Owner).Login + "/" + rec.Name
	base := api.SiteURL(r)
	return api.Code{Repo: rec, Perm: perm, Dir: dir, Api: base + "/api/v1/repos/" + full, Html: base + "/" + full}, nil
}

var errEmptyRepo = usererr.New(usererr.NotFound, "empty_repository", "this repository is empty: push a first commit")

// resolve finds the commit ref names (the default branch when empty) and
// the name to show for it.
func (a *Handler) resolve(r *http.Request, c api.Code, ref string) (string, string, error) {
	if gitstore.IsEmpty(c.Dir) {
		return "", "", errEmptyRepo
	}
	if ref == "" {
		ref = c.Repo.DefaultBranch
		if id, err := gitstore.ResolveBranch(r.Context(), c.Dir, ref); err == nil {
			return id, ref, nil
		}
		id, err := gitstore.Resolve(r.Context(), c.Dir, "") // HEAD, whatever it is
		return id, id, gitError(err)
	}
	id, err := gitstore.Resolve(r.Context(), c.Dir, ref)
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
func (a *Handler) fileAt(r *http.Request) (api.Code, gitstore.Entry, string, string, error) {
	c, err := a.codeOf(r)
	if err != nil {
		return api.Code{}, gitstore.Entry{}, "", "", err
	}
	p, err := gitstore.CleanPath(r.PathValue("path"))
	if err != nil {
		return api.Code{}, gitstore.Entry{}, "", "", gitError(err)
	}
	commit, ref, err := a.resolve(r, c, r.URL.Query().Get("ref"))
	if err != nil {
		return api.Code{}, gitstore.Entry{}, "", "", err
	}
	e, err := gitstore.Stat(r.Context(), c.Dir, commit, p)
	if err != nil {
		return api.Code{}, gitstore.Entry{}, "", "", gitError(err)
	}
	e.Path = p
	return c, e, commit, ref, nil
}

func isHex(s string) bool {
	return len(s) >= 4 && len(s) <= 64 && strings.Trim(s, "0123456789abcdef") == ""
}
