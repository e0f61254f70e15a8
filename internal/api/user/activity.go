package user

import (
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Node-wide reads for the home page: recent activity and top contributors
// over public repositories (the SQL projection), and the node's team (its
// configured maintainers). These are dForge's own; Gitea has no node-wide
// feed of this shape.

// RegisterActivity adds the home page's reads. The team needs no index
// (names then are the default ones); the feeds do.
func (a *Handler) RegisterActivity(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/node/team", a.Serve(a.getTeam))
	if a.Index == nil {
		return
	}
	mux.HandleFunc("GET /api/v1/activity", a.Serve(a.listActivity))
	mux.HandleFunc("GET /api/v1/contributors/top", a.Serve(a.listTopContributors))
}

// listActivity lists the actions in public repositories, newest first:
// repositories created, issues and pull requests opened, comments,
// reviews, merges and pushes.
func (a *Handler) listActivity(w http.ResponseWriter, r *http.Request) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	items, total, err := a.Index.RecentActivity(r.Context(), p)
	return a.RespondList(w, r, p, total, a.ModViewOf(r).MaskActivities(items), err)
}

// The top contributors' window of chain time, and the list's sizes.
const (
	contributorWindow      = 30 * 24 * time.Hour
	defaultTopContributors = 5
	maxTopContributors     = 50
)

// listTopContributors lists the accounts with the most contributions to
// public repositories over the last 30 days of chain time (before the
// latest block): pushes, pull requests opened and merged (counted for
// their author), reviews, issues opened and comments. Ties go to the
// lower address.
func (a *Handler) listTopContributors(w http.ResponseWriter, r *http.Request) error {
	limit := defaultTopContributors
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return usererr.InvalidField("limit", "invalid_limit",
				fmt.Sprintf("limit must be a whole number from 1 to %d (0 is the default, %d)", maxTopContributors, defaultTopContributors))
		}
		if n > 0 {
			limit = min(n, maxTopContributors)
		}
	}
	list, err := a.Index.TopContributors(r.Context(), contributorWindow, limit)
	return a.Respond(w, r, list, err)
}

// getTeam lists the node's maintainers (serve --maintainer), in the order
// configured, with their usernames: the claimed one, else the default.
func (a *Handler) getTeam(w http.ResponseWriter, r *http.Request) error {
	team := make([]index.User, 0, len(a.Maintainers))
	for _, addr := range a.Maintainers {
		name := names.Default(addr)
		if a.Index != nil {
			var err error
			if name, err = a.Index.Username(r.Context(), addr); err != nil {
				return err
			}
		}
		team = append(team, index.User{Address: addr.Hex(), Username: name})
	}
	api.WriteJSON(w, http.StatusOK, team)
	return nil
}
