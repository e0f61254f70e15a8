package repo

import (
	"github.com/dforge/dforge/internal/api"
	"math"
	"net/http"
	"strconv"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// A git tree by id or ref, paged as Gitea's GitTreeResponse, optionally
// recursive.

func (a *Handler) getTree(w http.ResponseWriter, r *http.Request) error {
	c, err := a.codeOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	page, perPage := 1, api.TreePageSize
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
			perPage = api.TreePageSize
		}
		perPage = min(perPage, 10*api.TreePageSize)
	}
	sha := r.PathValue("sha")
	if !isHex(sha) { // a branch or tag: its commit's tree
		if sha, _, err = a.resolve(r, c, sha); err != nil {
			return err
		}
	}
	entries, err := gitstore.TreeByID(r.Context(), c.Dir, sha, q.Get("recursive") == "true" || q.Get("recursive") == "1")
	if err != nil {
		return gitError(err)
	}
	out := api.GitTreeJSON{SHA: sha, URL: c.Api + "/git/trees/" + sha, Page: page, TotalCount: len(entries), Entries: []api.GitEntryJSON{}}
	from := min(len(entries), (page-1)*perPage)
	to := min(len(entries), from+perPage)
	out.Truncated = to < len(entries)
	for _, e := range entries[from:to] {
		kind := "blobs"
		if e.Type == "tree" {
			kind = "trees"
		}
		out.Entries = append(out.Entries, api.GitEntryJSON{Path: e.Path, Mode: e.Mode, Type: e.Type, Size: e.Size, SHA: e.ID, URL: c.Api + "/git/" + kind + "/" + e.ID})
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}
