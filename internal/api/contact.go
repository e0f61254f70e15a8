package api

import (
	"net/http"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/support"
)

const MaxContactBody = 32 << 10

// postContact takes a message from the contact form. From a signed-in
// user it opens a support ticket (see /user/tickets).
func (a *API) postContact(w http.ResponseWriter, r *http.Request) error {
	var m support.Message
	if err := Decode(w, r, MaxContactBody, &m); err != nil {
		return err
	}
	// Decode allowed newlines; the message is the only field that has them.
	if err := checkLines(TextField{"name", m.Name}, TextField{"email", m.Email}, TextField{"subject", m.Subject}); err != nil {
		return err
	}
	// A signed-in sender's message is a ticket they follow at /help.
	var from int64
	if u, ok := auth.UserFrom(r.Context()); ok {
		from = u.ID
	}
	id, err := a.Support.Submit(r.Context(), from, m)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusCreated, map[string]int64{"id": id})
	return nil
}
