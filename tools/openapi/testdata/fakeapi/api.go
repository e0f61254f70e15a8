// Package fakeapi is a small API in the shapes internal/api uses, for the
// generator's tests.
package fakeapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/dforge/dforge/tools/openapi/testdata/auth"
)

type API struct{ things *store }

const thingsTag = "Things and their files."

// OpenAPITags describe the groups of operations.
var OpenAPITags = map[string]string{"things": thingsTag}

type store struct{}

// Thing is a stored thing.
type Thing struct {
	ID      int64      `json:"id"`
	Name    string     `json:"name"`
	Secret  string     `json:"-"`
	Created time.Time  `json:"created"`
	Parent  *Thing     `json:"parent,omitempty"`
	Count   int64      `json:"count,string"`
	Owner   auth.Owner `json:"owner"`
	hidden  bool
	Meta
}

// Meta is promoted into Thing.
type Meta struct {
	Tags []string `json:"tags"`
	// Note is a remark.
	Note string
}

func (s *store) Get(id int64) (Thing, error) { return Thing{}, nil }

type errorBody struct {
	Message string `json:"message"`
	Code    string `json:"code"`
}

func (a *API) Register(mux *http.ServeMux) {
	const things = "/api/v1/things"
	mux.HandleFunc("GET "+things, a.listThings)
	mux.HandleFunc("GET "+things+"/{id}", a.getThing)
	user := a.signedIn
	mux.HandleFunc("POST "+things, user(auth.ScopeWrite, a.createThing))
	a.registerMore(mux)
	mux.HandleFunc("/api/", a.notFound)
}

func (a *API) registerMore(mux *http.ServeMux) {
	w := func(fn userHandler) http.HandlerFunc { return a.signedIn(auth.ScopeAdmin, fn) }
	const thing = "/api/v1/things/{id}"
	mux.HandleFunc("PUT "+thing+"/flag", w(a.flag("thing.flag", http.StatusNoContent)))
	mux.HandleFunc("PUT "+thing+"/watch", w(a.flag("thing.watch", http.StatusOK)))
	// The file's path may have slashes.
	mux.HandleFunc("GET "+thing+"/files/{path...}", a.read(a.getFile))
	mux.HandleFunc("DELETE "+thing+"/tags", w(a.clearTags))
	// Sign-in the handler demands itself, first thing or only maybe.
	mux.HandleFunc("DELETE "+thing, a.read(a.deleteThing))
	mux.HandleFunc("GET "+thing+"/mine", a.read(a.mine))
	mux.HandleFunc("GET "+thing+"/children", a.read(a.children))
}

// requireUser is the signed-in user.
func requireUser(r *http.Request) (*auth.Identity, error) { return auth.Require(r, auth.ScopeRead) }

func (a *API) deleteThing(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return err
	}
	if _, err := requireUser(r); err != nil {
		return err
	}
	_ = id
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// mine says whether the thing is the caller's; anyone may ask.
func (a *API) mine(w http.ResponseWriter, r *http.Request) error {
	if _, err := requireUser(r); err == nil {
		return reply(w, true)
	}
	return reply(w, false)
}

type userHandler func(w http.ResponseWriter, r *http.Request, id *auth.Identity) error

// signedIn serves h to a signed-in user of at least the scope need.
func (a *API) signedIn(need auth.Scope, h userHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := auth.Require(r, need)
		h(w, r, id)
	}
}

func (a *API) read(fn func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { fn(w, r) }
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func reply(w http.ResponseWriter, v any) error {
	writeJSON(w, http.StatusOK, v)
	return nil
}

func decode(r *http.Request, v any) error { return json.NewDecoder(r.Body).Decode(v) }

func (a *API) notFound(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, errorBody{Message: "no such API endpoint", Code: "not_found"})
}

func (a *API) listThings(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 20
	if v := q.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	_ = limit
	var out []Thing
	w.Header().Set("X-Total-Count", "0")
	writeJSON(w, http.StatusOK, out)
}

// getThing answers one thing. It is found by id.
func (a *API) getThing(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	t, err := a.things.Get(id)
	a.respond(w, r, t, err)
}

func (a *API) respond(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, errorBody{Message: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (a *API) createThing(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	var in struct {
		Name string `json:"name"`
	}
	if err := decode(r, &in); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": int64(1), "name": in.Name, "ok": true})
	return nil
}

// flag sets a flag on the thing for the signed-in user.
func (a *API) flag(action string, status int) userHandler {
	return func(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
		if status == http.StatusOK {
			return reply(w, map[string]string{"action": action})
		}
		w.WriteHeader(status)
		return nil
	}
}

func (a *API) getFile(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.URL.Query().Has("download") {
		w.Header().Set("Content-Disposition", "attachment")
	}
	w.Write([]byte("file"))
	return nil
}

func (a *API) setTags(w http.ResponseWriter, r *http.Request, body bool) error {
	var in struct {
		Tags []string `json:"tags"`
	}
	if body {
		if err := decode(r, &in); err != nil {
			return err
		}
	}
	return reply(w, in.Tags)
}

type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}

func (a *API) clearTags(w http.ResponseWriter, r *http.Request, id *auth.Identity) error {
	if err := a.setTags(&discard{h: http.Header{}}, r, false); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// encodedJSON is a T already encoded, as internal/api's EncodedJSON.
type encodedJSON[T any] []byte

func (e encodedJSON[T]) encoded() []byte { return e }

type encoded interface{ encoded() []byte }

// respondList writes bytes encoded before as they are, and a value as JSON.
func respondList(w http.ResponseWriter, items any) error {
	w.Header().Set("X-Total-Count", "1")
	if e, ok := items.(encoded); ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write(e.encoded())
		return nil
	}
	writeJSON(w, http.StatusOK, items)
	return nil
}

func childrenJSON() encodedJSON[[]Thing] { return encodedJSON[[]Thing](`[]`) }

func (a *API) children(w http.ResponseWriter, r *http.Request) error {
	return respondList(w, childrenJSON())
}
