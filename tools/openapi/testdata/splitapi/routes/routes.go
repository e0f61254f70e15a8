// Package routes is splitapi's route table.
package routes

import (
	"net/http"

	"github.com/dforge/dforge/tools/openapi/testdata/splitapi"
	"github.com/dforge/dforge/tools/openapi/testdata/splitapi/widget"
)

// API is splitapi with its routes.
type API struct {
	*splitapi.API
}

// Register adds every route.
func (a *API) Register(mux *http.ServeMux) {
	widgets := &widget.Handler{API: a.API}
	a.RegisterPing(mux)
	widgets.RegisterWidgets(mux)
}
