// Package widget is a resource package of splitapi.
package widget

import (
	"net/http"

	"github.com/dforge/dforge/tools/openapi/testdata/splitapi"
)

// Handler serves the widget routes.
type Handler struct {
	*splitapi.API
}

// widgetJSON is a widget.
type widgetJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// RegisterWidgets adds the widget routes.
func (h *Handler) RegisterWidgets(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/widgets/{id}", h.Serve(h.getWidget))
	mux.HandleFunc("GET /api/v1/gadgets/{id}", h.Serve(h.getGadget))
}

// getWidget reads one widget.
func (h *Handler) getWidget(w http.ResponseWriter, r *http.Request) error {
	splitapi.WriteJSON(w, http.StatusOK, widgetJSON{ID: 1, Name: "w"})
	return nil
}

// getGadget reads one gadget.
func (h *Handler) getGadget(w http.ResponseWriter, r *http.Request) error {
	splitapi.WriteJSON(w, http.StatusOK, splitapi.GadgetJSON{ID: 1})
	return nil
}
