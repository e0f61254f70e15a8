package issue

import (
	"net/http"

	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/forge"
)

// A reviewer's "Viewed" marks on a pull request's files (a dForge
// extension, as GitHub keeps them): private to the signed-in user, kept on
// this node, never on chain (forge.ViewedFile).

func (h *Handler) registerViewed(mux *http.ServeMux, w func(api.Endpoint) http.HandlerFunc) {
	const viewed = "/api/v1/repos/{owner}/{repo}/pulls/{index}/viewed"
	mux.HandleFunc("GET "+viewed, h.Serve(h.listViewed))
	mux.HandleFunc("PUT "+viewed, w(h.markViewed))
	mux.HandleFunc("DELETE "+viewed, w(h.unmarkViewed))
}

// viewedBodyLimit bounds a mark's body: a path at its limit, escaped.
const viewedBodyLimit = 64 << 10

// listViewed lists the files of the pull request the signed-in user has
// marked viewed, each with the version of the file's change it was marked
// on (a dForge extension).
func (h *Handler) listViewed(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	list, err := h.Forge.ViewedFiles(r.Context(), reviewer(id.User), repo.ID, pr.Number)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, list)
	return nil
}

// markViewed marks a file of the pull request viewed for the signed-in
// user at the version of its change, replacing an earlier mark (a dForge
// extension).
func (h *Handler) markViewed(w http.ResponseWriter, r *http.Request) error {
	return h.setViewed(w, r, true)
}

// unmarkViewed takes the signed-in user's Viewed mark off a file of the
// pull request; a file not marked is no error (a dForge extension).
func (h *Handler) unmarkViewed(w http.ResponseWriter, r *http.Request) error {
	return h.setViewed(w, r, false)
}

func (h *Handler) setViewed(w http.ResponseWriter, r *http.Request, viewed bool) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in forge.ViewedFile
	if err := api.Decode(w, r, viewedBodyLimit, &in); err != nil {
		return err
	}
	repo, _, pr, err := h.pullOf(r, r.PathValue("index"))
	if err != nil {
		return err
	}
	if err := h.Forge.MarkViewed(r.Context(), reviewer(id.User), repo.ID, pr.Number, in, viewed); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
