package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forge"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
	"github.com/dforge/dforge/internal/webhook"
)

// A repository's webhooks, in Gitea's shapes (routers/api/v1/repo/hook.go):
// node-local settings its administrators (maintain and up, Gitea's admin
// collaborators) manage; the secret is write-only. The delivery log and
// redelivery are dForge's own routes, for the settings page. Organization
// and user hooks are in owner_hooks.go; the handlers below that take a
// scope serve all three.
func (a *API) RegisterHooks(mux *http.ServeMux) {
	if a.Hooks == nil || a.Hosting == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/hooks", user(auth.ScopeRead, a.listHooks))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/hooks", user(auth.ScopeWrite, a.createHook))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/hooks/{id}", user(auth.ScopeRead, a.getHook))
	mux.HandleFunc("PATCH /api/v1/repos/{owner}/{repo}/hooks/{id}", user(auth.ScopeWrite, a.editHook))
	mux.HandleFunc("DELETE /api/v1/repos/{owner}/{repo}/hooks/{id}", user(auth.ScopeWrite, a.deleteHook))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/hooks/{id}/tests", user(auth.ScopeWrite, a.testHook))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/hooks/{id}/deliveries", user(auth.ScopeRead, a.listHookDeliveries))
	mux.HandleFunc("GET /api/v1/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery}", user(auth.ScopeRead, a.getHookDelivery))
	mux.HandleFunc("POST /api/v1/repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery}/redeliver", user(auth.ScopeWrite, a.redeliverHook))
}

// hookJSON is Gitea's Hook; config holds url, content_type and
// http_method, never the secret.
type hookJSON struct {
	ID                  int64             `json:"id"`
	Type                string            `json:"type"`
	BranchFilter        string            `json:"branch_filter"`
	Config              map[string]string `json:"config"`
	Events              []string          `json:"events"`
	AuthorizationHeader string            `json:"authorization_header"`
	Active              bool              `json:"active"`
	UpdatedAt           string            `json:"updated_at"`
	CreatedAt           string            `json:"created_at"`
}

func toHook(h webhook.Hook) hookJSON {
	return hookJSON{ID: h.ID, Type: "gitea", BranchFilter: h.BranchFilter, Events: h.Events, Active: h.Active,
		Config:    map[string]string{"url": h.URL, "content_type": h.ContentType, "http_method": h.Method},
		UpdatedAt: h.Updated.Format(time.RFC3339), CreatedAt: h.Created.Format(time.RFC3339)}
}

// hookBody is Gitea's CreateHookOption and EditHookOption in one: absent
// fields leave a hook's settings as they are on an edit.
type hookBody struct {
	Type                *string           `json:"type"`
	Config              map[string]string `json:"config"`
	Events              []string          `json:"events"`
	BranchFilter        *string           `json:"branch_filter"`
	Active              *bool             `json:"active"`
	AuthorizationHeader *string           `json:"authorization_header"`
}

func (b hookBody) input() webhook.Input {
	in := webhook.Input{Events: b.Events, BranchFilter: b.BranchFilter, AuthHeader: b.AuthorizationHeader, Active: b.Active}
	pick := func(key string) *string {
		if v, ok := b.Config[key]; ok {
			return &v
		}
		return nil
	}
	in.URL, in.ContentType, in.Secret, in.Method = pick("url"), pick("content_type"), pick("secret"), pick("http_method")
	return in
}

// hookScope is the path's repository as its administrator sees it:
// 404 for whoever cannot read it, 403 for readers below maintain.
func (a *API) hookScope(r *http.Request) (webhook.Scope, index.Repo, error) {
	rec, perm, err := a.RepoOf(r)
	if err != nil {
		return webhook.Scope{}, rec, err
	}
	if perm < forge.PermMaintain {
		return webhook.Scope{}, rec, usererr.Deniedf("only the repository's administrators manage its webhooks")
	}
	return webhook.Scope{RepoID: rec.ID}, rec, nil
}

func hookPathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, usererr.Missingf("no %s %q", name, r.PathValue(name))
	}
	return id, nil
}

func (a *API) listHooks(w http.ResponseWriter, r *http.Request) error {
	sc, _, err := a.hookScope(r)
	if err != nil {
		return err
	}
	return a.ListHooksIn(w, r, sc)
}

func (a *API) ListHooksIn(w http.ResponseWriter, r *http.Request, sc webhook.Scope) error {
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Hooks.List(r.Context(), sc, p.Number, p.Limit)
	out := make([]hookJSON, 0, len(list))
	for _, h := range list {
		out = append(out, toHook(h))
	}
	return a.RespondList(w, r, p, total, out, err)
}

func (a *API) getHook(w http.ResponseWriter, r *http.Request) error {
	sc, _, err := a.hookScope(r)
	if err != nil {
		return err
	}
	return a.GetHookIn(w, r, sc)
}

func (a *API) GetHookIn(w http.ResponseWriter, r *http.Request, sc webhook.Scope) error {
	id, err := hookPathID(r, "id")
	if err != nil {
		return err
	}
	h, err := a.Hooks.Get(r.Context(), sc, id)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, toHook(h))
	return nil
}

func (a *API) createHook(w http.ResponseWriter, r *http.Request) error {
	sc, _, err := a.hookScope(r)
	if err != nil {
		return err
	}
	return a.CreateHookIn(w, r, sc)
}

func (a *API) CreateHookIn(w http.ResponseWriter, r *http.Request, sc webhook.Scope) error {
	var in hookBody
	if err := Decode(w, r, MaxRepoBody, &in); err != nil {
		return err
	}
	if in.Type == nil || (*in.Type != "gitea" && *in.Type != "forgejo") {
		return usererr.BadFieldf("type", "type must be gitea: this node sends Gitea's payloads")
	}
	body := in.input()
	if body.Active == nil { // Gitea's CreateHookOption.Active defaults to false
		off := false
		body.Active = &off
	}
	h, err := a.Hooks.Create(r.Context(), sc, body)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusCreated, toHook(h))
	return nil
}

func (a *API) editHook(w http.ResponseWriter, r *http.Request) error {
	sc, _, err := a.hookScope(r)
	if err != nil {
		return err
	}
	return a.EditHookIn(w, r, sc)
}

func (a *API) EditHookIn(w http.ResponseWriter, r *http.Request, sc webhook.Scope) error {
	id, err := hookPathID(r, "id")
	if err != nil {
		return err
	}
	var in hookBody
	if err := Decode(w, r, MaxRepoBody, &in); err != nil {
		return err
	}
	h, err := a.Hooks.Edit(r.Context(), sc, id, in.input())
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, toHook(h))
	return nil
}

func (a *API) deleteHook(w http.ResponseWriter, r *http.Request) error {
	sc, _, err := a.hookScope(r)
	if err != nil {
		return err
	}
	return a.DeleteHookIn(w, r, sc)
}

func (a *API) DeleteHookIn(w http.ResponseWriter, r *http.Request, sc webhook.Scope) error {
	id, err := hookPathID(r, "id")
	if err != nil {
		return err
	}
	if err := a.Hooks.Delete(r.Context(), sc, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// testHook queues a push of the default branch's head to the hook,
// whatever its events: 204, as Gitea; the delivery log shows the result.
func (a *API) testHook(w http.ResponseWriter, r *http.Request) error {
	sc, rec, err := a.hookScope(r)
	if err != nil {
		return err
	}
	id, err := hookPathID(r, "id")
	if err != nil {
		return err
	}
	if _, err := a.Hooks.Test(r.Context(), sc, id, rec, ViewerOf(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// deliveryJSON is one entry of a hook's delivery log.
type deliveryJSON struct {
	ID            int64             `json:"id"`
	UUID          string            `json:"uuid"`
	Event         string            `json:"event"`
	EventType     string            `json:"event_type"`
	State         string            `json:"state"`
	IsSucceed     bool              `json:"is_succeed"`
	Attempts      int               `json:"attempts"`
	Height        int64             `json:"height"`
	Error         string            `json:"error"`
	DurationMS    int64             `json:"duration_ms"`
	CreatedAt     string            `json:"created_at"`
	DeliveredAt   *string           `json:"delivered_at"`
	NextAttemptAt *string           `json:"next_attempt_at"`
	Request       deliveryReqJSON   `json:"request"`
	Response      *deliveryRespJSON `json:"response"`
}

type deliveryReqJSON struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

type deliveryRespJSON struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

func toDelivery(d webhook.Delivery) deliveryJSON {
	j := deliveryJSON{ID: d.ID, UUID: d.UUID, Event: d.Event, EventType: d.EventType, State: d.State,
		IsSucceed: d.State == "delivered", Attempts: d.Attempts, Height: d.Height, Error: d.Error,
		DurationMS: d.Duration.Milliseconds(), CreatedAt: d.Created.Format(time.RFC3339),
		Request: deliveryReqJSON{URL: d.RequestURL, Headers: d.RequestHeaders, Body: d.RequestBody}}
	if !d.Delivered.IsZero() {
		t := d.Delivered.Format(time.RFC3339)
		j.DeliveredAt = &t
	}
	if !d.Next.IsZero() {
		t := d.Next.Format(time.RFC3339)
		j.NextAttemptAt = &t
	}
	if d.ResponseStatus != 0 {
		j.Response = &deliveryRespJSON{Status: d.ResponseStatus, Headers: d.ResponseHeaders, Body: d.ResponseBody}
	}
	return j
}

func (a *API) listHookDeliveries(w http.ResponseWriter, r *http.Request) error {
	sc, _, err := a.hookScope(r)
	if err != nil {
		return err
	}
	return a.ListHookDeliveriesIn(w, r, sc)
}

func (a *API) ListHookDeliveriesIn(w http.ResponseWriter, r *http.Request, sc webhook.Scope) error {
	id, err := hookPathID(r, "id")
	if err != nil {
		return err
	}
	p, err := PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Hooks.Deliveries(r.Context(), sc, id, p.Number, p.Limit)
	out := make([]deliveryJSON, 0, len(list))
	for _, d := range list {
		out = append(out, toDelivery(d))
	}
	return a.RespondList(w, r, p, total, out, err)
}

func (a *API) getHookDelivery(w http.ResponseWriter, r *http.Request) error {
	sc, _, err := a.hookScope(r)
	if err != nil {
		return err
	}
	return a.GetHookDeliveryIn(w, r, sc)
}

func (a *API) GetHookDeliveryIn(w http.ResponseWriter, r *http.Request, sc webhook.Scope) error {
	id, delivery, err := deliveryPath(r)
	if err != nil {
		return err
	}
	d, err := a.Hooks.Delivery(r.Context(), sc, id, delivery)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, toDelivery(d))
	return nil
}

func (a *API) redeliverHook(w http.ResponseWriter, r *http.Request) error {
	sc, _, err := a.hookScope(r)
	if err != nil {
		return err
	}
	return a.RedeliverHookIn(w, r, sc)
}

func (a *API) RedeliverHookIn(w http.ResponseWriter, r *http.Request, sc webhook.Scope) error {
	id, delivery, err := deliveryPath(r)
	if err != nil {
		return err
	}
	d, err := a.Hooks.Redeliver(r.Context(), sc, id, delivery)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusCreated, toDelivery(d))
	return nil
}

// deliveryPath is the hook and delivery ids a delivery's path names.
func deliveryPath(r *http.Request) (hook, delivery int64, err error) {
	if hook, err = hookPathID(r, "id"); err != nil {
		return 0, 0, err
	}
	delivery, err = hookPathID(r, "delivery")
	return hook, delivery, err
}
