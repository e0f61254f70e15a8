package community

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/usererr"
)

// Reports and moderation (a dForge extension; all node-local, see
// internal/moderation): anyone signed in reports a user, repository,
// issue or comment; the node's admins work the queue. Every admin route
// answers 404 to everyone else (requireAdmin).

// maxReportBody bounds a report or a moderator's action.
const maxReportBody = 16 << 10

// RegisterReports adds the report and moderation routes.
func (a *Handler) RegisterReports(mux *http.ServeMux) {
	if a.Mod == nil {
		return
	}
	w := func(fn api.Endpoint) http.HandlerFunc { return a.SignedIn(auth.ScopeWrite, fn) }
	mux.HandleFunc("POST /api/v1/reports", w(a.postReport))
	mux.HandleFunc("GET /api/v1/user/reports", a.SignedIn(auth.ScopeRead, a.listMyReports))
	mux.HandleFunc("GET /api/v1/admin/reports", a.Serve(a.listReports))
	mux.HandleFunc("POST /api/v1/admin/reports/{id}/dismiss", a.Serve(a.dismissReport))
	mux.HandleFunc("POST /api/v1/admin/reports/{id}/hide", a.Serve(a.hideReported))
	mux.HandleFunc("POST /api/v1/admin/reports/{id}/suspend", a.Serve(a.suspendReported))
	mux.HandleFunc("GET /api/v1/admin/hidden", a.Serve(a.listHidden))
	mux.HandleFunc("GET /api/v1/admin/hidden/{kind}/{id}", a.Serve(a.getHidden))
	mux.HandleFunc("DELETE /api/v1/admin/hidden/{kind}/{id}", a.Serve(a.unhide))
	mux.HandleFunc("GET /api/v1/admin/suspensions", a.Serve(a.listSuspensions))
	mux.HandleFunc("DELETE /api/v1/admin/suspensions/{address}", a.Serve(a.liftSuspension))
}

// reportJSON is a report as its reporter and the moderators see it.
type reportJSON struct {
	ID          int64  `json:"id"`
	Kind        string `json:"kind"`
	Target      string `json:"target"` // the stable key: an address, a repository id, "repo:number", "repo:comment"
	TargetLabel string `json:"target_label"`
	Subject     string `json:"subject"` // the account whose content it is
	Reporter    string `json:"reporter"`
	Reason      string `json:"reason"`
	Detail      string `json:"detail"`
	Status      string `json:"status"`
	Action      string `json:"action"`
	Note        string `json:"note"`
	ResolvedBy  string `json:"resolved_by,omitempty"`
	Created     string `json:"created_at"`
	Resolved    string `json:"resolved_at,omitempty"`
}

func toReportJSON(rep moderation.Report) reportJSON {
	j := reportJSON{ID: rep.ID, Kind: string(rep.Kind), Target: rep.Key, TargetLabel: rep.Label, Subject: rep.Subject.Hex(),
		Reporter: rep.Reporter.Hex(), Reason: rep.Reason, Detail: rep.Detail, Status: rep.Status, Action: rep.Action, Note: rep.Note,
		Created: rep.Created.Format(time.RFC3339)}
	if rep.Status == moderation.StatusResolved {
		j.ResolvedBy, j.Resolved = rep.ResolvedBy.Hex(), rep.Resolved.Format(time.RFC3339)
	}
	return j
}

// hiddenJSON is an item hidden on this node.
type hiddenJSON struct {
	Kind    string `json:"kind"`
	Target  string `json:"target"`
	Label   string `json:"target_label"`
	Reason  string `json:"reason"`
	By      string `json:"hidden_by"`
	Created string `json:"created_at"`
}

func toHiddenJSON(h moderation.Hidden) hiddenJSON {
	return hiddenJSON{Kind: string(h.Kind), Target: h.Key, Label: h.Label, Reason: h.Reason, By: h.By.Hex(), Created: h.Created.Format(time.RFC3339)}
}

// suspensionJSON is an account suspended on this node.
type suspensionJSON struct {
	Address  string `json:"address"`
	Username string `json:"username"`
	Reason   string `json:"reason"`
	By       string `json:"suspended_by"`
	Created  string `json:"created_at"`
}

// postReport files a report: {kind, target, reason, detail}. The target
// must exist for the reporter: something they cannot read is a 404.
func (a *Handler) postReport(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Kind   string `json:"kind"`
		Target string `json:"target"`
		Reason string `json:"reason"`
		Detail string `json:"detail"`
	}
	if err := api.Decode(w, r, maxReportBody, &in); err != nil {
		return err
	}
	t, err := a.reportTarget(r, in.Kind, strings.TrimSpace(in.Target))
	if err != nil {
		return err
	}
	rep, err := a.Mod.File(r.Context(), id.User.Address, t, in.Reason, in.Detail)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, toReportJSON(rep))
	return nil
}

// listMyReports lists the signed-in user's reports and what became of them.
func (a *Handler) listMyReports(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Mod.Mine(r.Context(), id.User.Address, p.Limit, (p.Number-1)*p.Limit)
	return a.RespondList(w, r, p, total, reportsJSON(list), err)
}

func reportsJSON(list []moderation.Report) []reportJSON {
	out := make([]reportJSON, len(list))
	for i, rep := range list {
		out[i] = toReportJSON(rep)
	}
	return out
}

// listReports is the moderators' queue: ?status=open|resolved|all
// (default open) and ?kind=.
func (a *Handler) listReports(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	q := r.URL.Query()
	var f moderation.Filter
	switch st := q.Get("status"); st {
	case "", moderation.StatusOpen:
		f.Status = moderation.StatusOpen
	case moderation.StatusResolved:
		f.Status = st
	case "all":
	default:
		return usererr.BadFieldf("status", "status must be open, resolved or all")
	}
	if k := q.Get("kind"); k != "" {
		kind, ok := moderation.ParseKind(k)
		if !ok {
			return badKind("kind", k)
		}
		f.Kind = kind
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Mod.Queue(r.Context(), f, p.Limit, (p.Number-1)*p.Limit)
	return a.RespondList(w, r, p, total, reportsJSON(list), err)
}

func badKind(field, kind string) error {
	names := make([]string, len(moderation.Kinds))
	for i, k := range moderation.Kinds {
		names[i] = string(k)
	}
	return usererr.BadFieldf(field, "%q is not a kind of report; kinds: %s", kind, strings.Join(names, ", "))
}

// modAction is the body of a moderator's action: the reason others see
// (hide, suspend) or a note (dismiss).
type modAction struct {
	Reason string `json:"reason"`
}

// reportAction reads the admin, the report id and the body of an action.
func (a *Handler) reportAction(w http.ResponseWriter, r *http.Request) (common.Address, int64, modAction, error) {
	admin, err := a.RequireAdmin(r)
	if err != nil {
		return common.Address{}, 0, modAction{}, err
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return common.Address{}, 0, modAction{}, usererr.Missingf("there is no report %s", r.PathValue("id"))
	}
	var in modAction
	if r.ContentLength != 0 {
		if err := api.Decode(w, r, maxReportBody, &in); err != nil {
			return common.Address{}, 0, modAction{}, err
		}
	}
	return admin.User.Address, id, in, nil
}

func (a *Handler) dismissReport(w http.ResponseWriter, r *http.Request) error {
	admin, id, in, err := a.reportAction(w, r)
	if err != nil {
		return err
	}
	rep, err := a.Mod.Dismiss(r.Context(), admin, id, in.Reason)
	if err != nil {
		return err
	}
	return api.Reply(w, toReportJSON(rep))
}

func (a *Handler) hideReported(w http.ResponseWriter, r *http.Request) error {
	admin, id, in, err := a.reportAction(w, r)
	if err != nil {
		return err
	}
	rep, err := a.Mod.HideFor(r.Context(), admin, id, in.Reason)
	if err != nil {
		return err
	}
	return api.Reply(w, toReportJSON(rep))
}

func (a *Handler) suspendReported(w http.ResponseWriter, r *http.Request) error {
	admin, id, in, err := a.reportAction(w, r)
	if err != nil {
		return err
	}
	rep, err := a.Mod.SuspendFor(r.Context(), admin, id, in.Reason)
	if err != nil {
		return err
	}
	return api.Reply(w, toReportJSON(rep))
}

func (a *Handler) listHidden(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	var kind moderation.Kind
	if k := r.URL.Query().Get("kind"); k != "" {
		var ok bool
		if kind, ok = moderation.ParseKind(k); !ok {
			return badKind("kind", k)
		}
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Mod.HiddenList(r.Context(), kind, p.Limit, (p.Number-1)*p.Limit)
	out := make([]hiddenJSON, len(list))
	for i, h := range list {
		out[i] = toHiddenJSON(h)
	}
	return a.RespondList(w, r, p, total, out, err)
}

// hiddenPath reads {kind}/{id} of the hidden routes.
func (a *Handler) hiddenPath(r *http.Request) (moderation.Kind, string, error) {
	if _, err := a.RequireAdmin(r); err != nil {
		return "", "", err
	}
	kind, ok := moderation.ParseKind(r.PathValue("kind"))
	key := strings.ToLower(r.PathValue("id"))
	if !ok || !moderation.ParseKey(kind, key) {
		return "", "", usererr.Missingf("nothing such is hidden on this node")
	}
	return kind, key, nil
}

func (a *Handler) getHidden(w http.ResponseWriter, r *http.Request) error {
	kind, key, err := a.hiddenPath(r)
	if err != nil {
		return err
	}
	h, ok := a.Mod.IsHidden(kind, key)
	if !ok {
		return usererr.Missingf("%s %s is not hidden on this node", kind, key)
	}
	return api.Reply(w, toHiddenJSON(h))
}

func (a *Handler) unhide(w http.ResponseWriter, r *http.Request) error {
	kind, key, err := a.hiddenPath(r)
	if err != nil {
		return err
	}
	if err := a.Mod.Unhide(r.Context(), kind, key); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *Handler) listSuspensions(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	list, err := a.Mod.Suspensions(r.Context())
	if err != nil {
		return err
	}
	out := make([]suspensionJSON, len(list))
	for i, sp := range list {
		out[i] = suspensionJSON{Address: sp.Address.Hex(), Reason: sp.Reason, By: sp.By.Hex(), Created: sp.Created.Format(time.RFC3339)}
		if a.Index != nil {
			out[i].Username, _ = a.Index.Username(r.Context(), sp.Address) // a missing name leaves the address
		}
	}
	return api.Reply(w, out)
}

func (a *Handler) liftSuspension(w http.ResponseWriter, r *http.Request) error {
	if _, err := a.RequireAdmin(r); err != nil {
		return err
	}
	raw := r.PathValue("address")
	if !common.IsHexAddress(raw) {
		return usererr.Missingf("%s is not suspended on this node", raw)
	}
	if err := a.Mod.Lift(r.Context(), common.HexToAddress(raw)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
