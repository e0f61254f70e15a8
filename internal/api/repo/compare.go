package repo

import (
	"context"
	"errors"
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strings"
	"time"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// Compare, Gitea's GET /compare/{base}...{head}: the commits head has that
// base lacks, and the files changed since their merge base (what a pull
// request from head into base would show), with their patches capped as
// a pull request's are. head may be a branch of another repository of the
// fork network, as a pull request's head is: owner:branch or
// owner/repo:branch.

// maxCompareCommits bounds the commits a compare lists (total_commits
// still counts them all).
const maxCompareCommits = 250

// compareJSON is Gitea's Compare, plus files.
type compareJSON struct {
	TotalCommits int                   `json:"total_commits"`
	Commits      []api.CommitJSON      `json:"commits"`
	Files        []api.ChangedFileJSON `json:"files"`
}

func (a *Handler) compare(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	baseRef, headRef, ok := strings.Cut(r.PathValue("basehead"), "...")
	if !ok || baseRef == "" || headRef == "" {
		return usererr.BadFieldf("basehead", "compare names base...head, such as main...feature")
	}
	base, _, err := a.resolve(r, c, baseRef)
	if err != nil {
		return err
	}
	head, done, err := a.compareHead(r, c, headRef)
	if err != nil {
		return err
	}
	defer done()
	span := base + ".." + head
	total, err := gitstore.Count(r.Context(), c.Dir, span, "")
	if err != nil {
		return err
	}
	list, err := gitstore.Log(r.Context(), c.Dir, span, gitstore.LogOptions{Limit: maxCompareCommits, Files: true})
	if err != nil {
		return err
	}
	out := compareJSON{TotalCommits: total, Commits: make([]api.CommitJSON, 0, len(list)), Files: []api.ChangedFileJSON{}}
	for _, g := range list {
		out.Commits = append(out.Commits, c.Commit(g, true))
	}
	if err := a.WithAccounts(r, out.Commits); err != nil {
		return err
	}
	from, err := gitstore.MergeBase(r.Context(), c.Dir, base, head)
	if err != nil {
		return err
	}
	if from == "" {
		from = base // unrelated histories: the whole difference
	}
	if out.Files, err = compareFiles(r, c, from, head); err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}

// compareHead is the commit ref names for a compare in c's repository: a
// branch, tag or commit of it, or owner:branch (owner/repo:branch) of a
// repository of its fork network. Another repository's commits are
// fetched into c's under a ref of their own, which done deletes.
func (a *Handler) compareHead(r *http.Request, c api.Code, ref string) (id string, done func(), err error) {
	done = func() {}
	if !strings.Contains(ref, ":") {
		id, _, err = a.resolve(r, c, ref)
		return id, done, err
	}
	ctx := r.Context()
	repo, branch, err := a.HeadOf(ctx, api.ViewerOf(r), c.Repo, ref)
	if err != nil {
		return "", done, err
	}
	if repo.ID == c.Repo.ID {
		id, _, err = a.resolve(r, c, branch)
		return id, done, err
	}
	// 1. The branch in its own repository.
	full := api.ToForgeUser(r, repo.Owner).Login + "/" + repo.Name
	dir, err := a.Hosting.Dir(repo)
	if err != nil {
		return "", done, err
	}
	if !a.Hosting.HasGit(repo) {
		return "", done, usererr.New(usererr.NotFound, "no_git_data", "the git data of "+full+" is not on this node")
	}
	id, err = gitstore.ResolveBranch(ctx, dir, branch)
	if err != nil {
		if errors.Is(err, gitstore.ErrRefNotFound) || errors.Is(err, gitstore.ErrInvalidRef) {
			return "", done, usererr.New(usererr.NotFound, "branch_not_found", fmt.Sprintf("%s has no branch %q", full, branch))
		}
		return "", done, fmt.Errorf("resolve %s:%s: %w", full, branch, err)
	}
	// 2. Its commits into this repository, so one git directory holds both
	// sides. A fetch by id needs uploadpack.allowAnySHA1InWant; fall back
	// to the branch for an older repository.
	tmp := fmt.Sprintf("refs/dforge/compare/%d", time.Now().UnixNano())
	if err := gitstore.FetchRef(ctx, c.Dir, dir, id, tmp); err != nil {
		if err := gitstore.FetchRef(ctx, c.Dir, dir, "refs/heads/"+branch, tmp); err != nil {
			return "", done, fmt.Errorf("fetch %s:%s: %w", full, branch, err)
		}
		if id, _, err = gitstore.CommitOf(ctx, c.Dir, tmp); err != nil {
			return "", done, fmt.Errorf("read the fetched head: %w", err)
		}
	}
	done = func() { _ = gitstore.DeleteRef(context.WithoutCancel(ctx), c.Dir, tmp) }
	return id, done, nil
}

// compareFiles is the files changed from from to to, with patches within
// the page budget.
func compareFiles(r *http.Request, c api.Code, from, to string) ([]api.ChangedFileJSON, error) {
	files, err := gitstore.CompareFiles(r.Context(), c.Dir, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]api.ChangedFileJSON, 0, len(files))
	budget := api.MaxPagePatch
	for _, f := range files {
		path := api.EscapePath(f.Path)
		j := api.ChangedFileJSON{
			Filename: f.Path, Status: f.Status, Additions: f.Additions, Deletions: f.Deletions, Changes: f.Additions + f.Deletions,
			HTMLURL: c.Html + "/src/commit/" + to + "/" + path, ContentsURL: c.Api + "/contents/" + path + "?ref=" + to,
			RawURL: c.Html + "/raw/commit/" + to + "/" + path, Binary: f.Binary,
		}
		if f.OldPath != f.Path {
			j.PreviousFilename = f.OldPath
		}
		if budget <= 0 {
			j.PatchTruncated = true
		} else if !f.Binary {
			patch, cut, err := gitstore.FilePatch(r.Context(), c.Dir, from, to, f, min(api.MaxFilePatch, budget))
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
