package user

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/api"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// Notifications, as Gitea's API shapes them: threads the indexer derives
// from chain events (internal/index/notify.go), read state kept on this
// node. A user only ever reaches their own threads: another's id is a 404.

// RegisterNotifications adds the notification routes.
func (a *Handler) RegisterNotifications(mux *http.ServeMux) {
	if a.Index == nil || a.Auth == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/notifications", user(auth.ScopeRead, a.listNotifications))
	mux.HandleFunc("PUT /api/v1/notifications", user(auth.ScopeWrite, a.readNotifications))
	mux.HandleFunc("GET /api/v1/notifications/new", user(auth.ScopeRead, a.newNotifications))
	mux.HandleFunc("GET /api/v1/notifications/stream", user(auth.ScopeRead, a.streamNotifications))
	mux.HandleFunc("GET /api/v1/notifications/threads/{id}", user(auth.ScopeRead, a.getNotification))
	mux.HandleFunc("PATCH /api/v1/notifications/threads/{id}", user(auth.ScopeWrite, a.readNotification))
	if a.Forge != nil && a.Hosting != nil {
		mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/notifications", user(auth.ScopeRead, a.listNotifications))
		mux.HandleFunc("PUT /api/v1/repos/{owner}/{repo}/notifications", user(auth.ScopeWrite, a.readNotifications))
	}
}

// notifySubjectTypes are the subject types a filter may name, in Gitea's
// spelling (it accepts them in any case) plus dForge's Transfer, Reward
// and Proposal, and the node-local Message and Ticket.
var notifySubjectTypes = map[string]string{"issue": "Issue", "pull": "Pull", "commit": "Commit", "repository": "Repository",
	"transfer": "Transfer", "reward": index.SubjectReward, "proposal": index.SubjectProposal,
	"message": "Message", "ticket": "Ticket", "topic": index.SubjectTopic}

var notifyStatuses = map[string]bool{"unread": true, "read": true, "pinned": true}

// notificationFilter reads the query of a list or a mark: status-types,
// subject-type, since, before, the path's repository, and the user's
// preferences. statuses is the default status set when none is asked for.
func (a *Handler) notificationFilter(r *http.Request, id *auth.Identity, statuses []string) (index.NotificationFilter, error) {
	q := r.URL.Query()
	f := index.NotificationFilter{User: id.User.Address, Statuses: statuses, PublicOnly: id.PublicOnly()}
	if q.Get("all") == "true" {
		f.Statuses = nil
	}
	if v := q["status-types"]; len(v) > 0 {
		f.Statuses = nil
		for _, s := range v {
			if !notifyStatuses[s] {
				return f, usererr.BadFieldf("status-types", "status-types must be unread, read or pinned, not %q", s)
			}
			f.Statuses = append(f.Statuses, s)
		}
	}
	for _, s := range q["subject-type"] {
		t, ok := notifySubjectTypes[lower(s)]
		if !ok {
			return f, usererr.BadFieldf("subject-type", "subject-type must be issue, pull, commit, repository, transfer, reward, proposal or topic, not %q", s)
		}
		f.SubjectTypes = append(f.SubjectTypes, t)
	}
	var err error
	if f.SinceNS, err = api.TimeParam(r, "since"); err != nil {
		return f, err
	}
	if f.BeforeNS, err = api.TimeParam(r, "before"); err != nil {
		return f, err
	}
	f.Participating = q.Get("participating") == "true"
	if r.PathValue("repo") != "" {
		rec, _, err := a.RepoOf(r)
		if err != nil {
			return f, err
		}
		f.Repo = rec.ID
	}
	hidden, err := a.HiddenReasons(r, id)
	f.HideReasons = hidden
	return f, err
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func (a *Handler) listNotifications(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	f, err := a.notificationFilter(r, id, []string{"unread", "pinned"})
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Index.Notifications(r.Context(), f, p)
	if err != nil {
		return err
	}
	out, err := a.ThreadItems(r, list)
	return a.RespondList(w, r, p, total, out, err)
}

// readNotifications marks the threads the query picks (by default the
// unread ones updated before last_read_at, or now) with to-status (by
// default read), and answers them, as Gitea does, with 205.
func (a *Handler) readNotifications(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	f, err := a.notificationFilter(r, id, []string{"unread"})
	if err != nil {
		return err
	}
	f.HideReasons = nil // marking read what the preferences hide is harmless
	if f.BeforeNS, err = api.TimeParam(r, "last_read_at"); err != nil {
		return err
	}
	to, err := toStatus(r)
	if err != nil {
		return err
	}
	ids, err := a.Index.MarkNotifications(r.Context(), f, to)
	if err != nil {
		return err
	}
	out := make([]index.Notification, 0, len(ids))
	for _, n := range ids {
		if t, err := a.Index.NotificationByID(r.Context(), id.User.Address, n); err == nil {
			out = append(out, t)
		}
	}
	api.WriteJSON(w, http.StatusResetContent, a.ThreadsJSON(r, out))
	return nil
}

func toStatus(r *http.Request) (string, error) {
	to := r.URL.Query().Get("to-status")
	if to == "" {
		return "read", nil
	}
	if !notifyStatuses[to] {
		return "", usererr.BadFieldf("to-status", "to-status must be unread, read or pinned, not %q", to)
	}
	return to, nil
}

func (a *Handler) newNotifications(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	n, err := a.UnreadCount(r, id)
	if err != nil {
		return err
	}
	return api.Reply(w, api.NewNotificationsJSON{New: n})
}

// threadOf is the path's thread id; one that cannot be an id is a 404,
// as a thread of another user is.
func threadOf(r *http.Request) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		return 0, usererr.Missingf("notification thread %q not found", r.PathValue("id"))
	}
	return n, nil
}

func (a *Handler) getNotification(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	n, err := threadOf(r)
	if err != nil {
		return err
	}
	t, err := a.threadFor(r, id, n)
	if err != nil {
		return err
	}
	return api.Reply(w, a.ThreadJSON(r, t, nil))
}

// threadFor is the user's thread n; under a public-only token a thread of
// a private repository is not found, as the repository is not.
func (a *Handler) threadFor(r *http.Request, id *auth.Identity, n int64) (index.Notification, error) {
	t, err := a.Index.NotificationByID(r.Context(), id.User.Address, n)
	if err != nil {
		return t, notFoundThread(n, err)
	}
	if t.Repo != 0 && id.PublicOnly() {
		if a.Forge == nil {
			return t, notFoundThread(n, index.ErrNoNotification)
		}
		if _, _, err := a.Forge.RepoByID(r.Context(), id.User.Address, t.Repo); err != nil {
			return t, notFoundThread(n, index.ErrNoNotification)
		}
	}
	return t, nil
}

func notFoundThread(n int64, err error) error {
	if errors.Is(err, index.ErrNoNotification) {
		return usererr.Missingf("notification thread %d not found", n)
	}
	return err
}

func (a *Handler) readNotification(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	n, err := threadOf(r)
	if err != nil {
		return err
	}
	to, err := toStatus(r)
	if err != nil {
		return err
	}
	if _, err := a.threadFor(r, id, n); err != nil {
		return err
	}
	t, err := a.Index.MarkNotification(r.Context(), id.User.Address, n, to)
	if err != nil {
		return notFoundThread(n, err)
	}
	api.WriteJSON(w, http.StatusResetContent, a.ThreadJSON(r, t, nil))
	return nil
}

// streamNotifications sends the unread count as server-sent events: once
// at the start, then on every change (a block projected, a thread marked),
// with a comment as heartbeat. It ends when the client leaves or the node
// stops.
func (a *Handler) streamNotifications(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	rc, release, err := api.OpenStream(w, "/api/v1/notifications/new")
	if err != nil {
		return err
	}
	defer release()
	heartbeat := time.NewTicker(api.StreamHeartbeat)
	defer heartbeat.Stop()
	last := int64(-1)
	for {
		changed := a.Index.Changes() // before the read, so no change is missed
		n, err := a.UnreadCount(r, id)
		if err != nil {
			a.Log.WarnContext(r.Context(), "notification stream", "err", err)
			return nil
		}
		if n != last {
			if _, err := fmt.Fprintf(w, "event: count\ndata: {\"new\":%d}\n\n", n); err != nil {
				return nil
			}
			last = n
		}
		if err := rc.Flush(); err != nil {
			return nil
		}
		select {
		case <-changed:
		case <-heartbeat.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return nil
			}
		case <-r.Context().Done():
			return nil
		case <-a.Index.Done():
			return nil
		}
	}
}
