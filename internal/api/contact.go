package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/support"
)

const maxContactBody = 32 << 10

func (a *API) postContact(w http.ResponseWriter, r *http.Request) {
	var m support.Message
	if err := decode(w, r, maxContactBody, &m); err != nil {
		a.writeError(w, r, err)
		return
	}
	// decode allowed newlines; the message is the only field that has them.
	if err := checkLines(textField{"name", m.Name}, textField{"email", m.Email}, textField{"subject", m.Subject}); err != nil {
		a.writeError(w, r, err)
		return
	}
	id, err := a.support.Submit(r.Context(), m)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
}
