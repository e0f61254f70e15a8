package issue

import (
	"context"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/gitea/convert"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/timetrack"
	"github.com/dforge/dforge/internal/usererr"
)

// Time tracked on issues, Gitea's /times routes, over timetrack
// (node-local: a person's own bookkeeping, never on chain).

func (a *Handler) RegisterTrackedTimes(mux *http.ServeMux) {
	if a.TrackedTimes == nil || a.Forge == nil || a.Hosting == nil {
		return
	}
	h := a
	const repo = "/api/v1/repos/{owner}/{repo}"
	mux.HandleFunc("GET "+repo+"/times", a.SignedIn(auth.ScopeRead, h.listRepoTimes))
	mux.HandleFunc("GET "+repo+"/issues/{index}/times", a.SignedIn(auth.ScopeRead, h.listIssueTimes))
	mux.HandleFunc("POST "+repo+"/issues/{index}/times", a.SignedIn(auth.ScopeWrite, h.addTime))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/times", a.SignedIn(auth.ScopeWrite, h.resetTimes))
	mux.HandleFunc("DELETE "+repo+"/issues/{index}/times/{id}", a.SignedIn(auth.ScopeWrite, h.deleteTime))
}

// trackedTimeJSON is Gitea's TrackedTime.
type trackedTimeJSON struct {
	ID       int64          `json:"id"`
	Created  string         `json:"created"`
	Time     int64          `json:"time"`
	UserID   int64          `json:"user_id"`
	UserName string         `json:"user_name"`
	IssueID  int64          `json:"issue_id"`
	Issue    *api.IssueJSON `json:"issue,omitempty"`
}

// timesJSON converts ts, each with its issue (read once per issue).
func (h *Handler) timesJSON(r *http.Request, repo index.Repo, ts []timetrack.Time) ([]trackedTimeJSON, error) {
	issues := map[uint64]*api.IssueJSON{}
	l := h.LinksFor(r, repo)
	out := make([]trackedTimeJSON, 0, len(ts))
	for _, t := range ts {
		if h.deletedHere(r, repo.ID, t.Issue) {
			continue // its issue is 404 here to this viewer
		}
		is, ok := issues[t.Issue]
		if !ok {
			got, err := h.Forge.Index().Issue(r.Context(), repo.ID, t.Issue)
			if err != nil {
				return nil, err
			}
			j := l.Issue(repo, got, nil)
			is, issues[t.Issue] = &j, &j
		}
		out = append(out, trackedTimeJSON{ID: t.ID, Created: t.Created.Format(time.RFC3339), Time: t.Seconds,
			UserID: api.UserIDOf(r, t.User), UserName: h.nameOf(r.Context(), t.User), IssueID: convert.IssueID(repo.ID, t.Issue), Issue: is})
	}
	return out, nil
}

// nameOf is addr's user name, or its default one.
func (a *Handler) nameOf(ctx context.Context, addr common.Address) string {
	if a.Index != nil {
		if name, err := a.Index.Username(ctx, addr); err == nil && name != "" {
			return name
		}
	}
	return names.Default(addr)
}

// timeFilter reads ?user=, ?since= and ?before= (RFC 3339).
func (h *Handler) timeFilter(r *http.Request) (timetrack.Filter, error) {
	q := r.URL.Query()
	var f timetrack.Filter
	if name := q.Get("user"); name != "" {
		addr, err := h.Forge.Owner(r.Context(), name)
		if err != nil {
			return f, usererr.Missingf("there is no user %s", name)
		}
		f.User = &addr
	}
	for _, p := range []struct {
		name string
		at   *time.Time
	}{{"since", &f.Since}, {"before", &f.Before}} {
		if raw := q.Get(p.name); raw != "" {
			t, err := time.Parse(time.RFC3339, raw)
			if err != nil {
				return f, usererr.BadFieldf(p.name, "%s must be a time in RFC 3339 form, such as 2024-05-01T10:00:00Z", p.name)
			}
			*p.at = t
		}
	}
	return f, nil
}

func (h *Handler) listTimes(w http.ResponseWriter, r *http.Request, repo index.Repo, perm forge.Perm, f timetrack.Filter) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	ts, total, err := h.TrackedTimes.List(r.Context(), perm, id.User.Address, repo.ID, f, p.Limit, (p.Number-1)*p.Limit)
	if err != nil {
		return err
	}
	out, err := h.timesJSON(r, repo, ts)
	return h.RespondList(w, r, p, total, out, err)
}

func (h *Handler) listRepoTimes(w http.ResponseWriter, r *http.Request) error {
	repo, perm, err := h.RepoOf(r)
	if err != nil {
		return err
	}
	f, err := h.timeFilter(r)
	if err != nil {
		return err
	}
	return h.listTimes(w, r, repo, perm, f)
}

func (h *Handler) listIssueTimes(w http.ResponseWriter, r *http.Request) error {
	repo, perm, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	f, err := h.timeFilter(r)
	if err != nil {
		return err
	}
	f.Issue = is.Number
	return h.listTimes(w, r, repo, perm, f)
}

func (h *Handler) addTime(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	var in struct {
		Time     int64     `json:"time"`
		Created  time.Time `json:"created"`
		UserName string    `json:"user_name"`
	}
	if err := api.Decode(w, r, api.MaxRepoBody, &in); err != nil {
		return err
	}
	who := id.User.Address
	if in.UserName != "" && in.UserName != api.UsernameOf(id.User) {
		// Gitea lets admins add time in someone else's name; here the
		// time is one's own.
		return usererr.Deniedf("you may add only your own time")
	}
	t, err := h.TrackedTimes.Add(r.Context(), perm, repo.ID, is.Number, who, in.Time, in.Created)
	if err != nil {
		return err
	}
	out, err := h.timesJSON(r, repo, []timetrack.Time{t})
	if err != nil {
		return err
	}
	return api.Reply(w, out[0])
}

func (h *Handler) resetTimes(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	if err := h.TrackedTimes.Reset(r.Context(), perm, repo.ID, is.Number, id.User.Address); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (h *Handler) deleteTime(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, perm, is, err := h.issueOf(r)
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		return usererr.Missingf("issue #%d has no tracked time %s", is.Number, r.PathValue("id"))
	}
	if err := h.TrackedTimes.Delete(r.Context(), perm, repo.ID, is.Number, id.User.Address, n); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
