// Package splitapi is an API split as internal/api is: the base here, a
// resource package (widget) with a Handler embedding *API, and the route
// table in routes, which the generator starts from.
package splitapi

import (
	"encoding/json"
	"net/http"

	"github.com/dforge/dforge/tools/openapi/testdata/splitshapes"
)

// GadgetJSON is a gadget, in the shape kept outside the API.
type GadgetJSON = splitshapes.Gadget

// partJSON is a gadget's part.
type partJSON = splitshapes.Part

// API holds what the handlers share.
type API struct{}

// Endpoint is the handler shape.
type Endpoint func(w http.ResponseWriter, r *http.Request) error

// Serve adapts h to net/http.
func (a *API) Serve(h Endpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { _ = h(w, r) }
}

// WriteJSON writes v as JSON with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// RegisterPing adds the base's own route.
func (a *API) RegisterPing(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/ping", a.Serve(a.ping))
}

// ping answers pong.
func (a *API) ping(w http.ResponseWriter, r *http.Request) error {
	WriteJSON(w, http.StatusOK, map[string]string{"ping": "pong"})
	return nil
}

// OpenAPITags describes the operations' tags.
var OpenAPITags = map[string]string{
	"ping":    "The base's own route.",
	"widgets": "A resource package's routes.",
	"gadgets": "Shapes kept outside the API, named by its aliases.",
}
