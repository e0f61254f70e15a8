package community

import (
	"context"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"time"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/support"
)

// Support tickets (dForge's own): a contact message from a signed-in user
// is a ticket they follow under /user/tickets; the node's admins answer
// every ticket, anonymous ones included, under /admin/tickets. Node-local,
// never on chain.
func (a *Handler) RegisterTickets(mux *http.ServeMux) {
	if a.Auth == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/user/tickets", user(auth.ScopeRead, a.listMyTickets))
	mux.HandleFunc("GET /api/v1/user/tickets/{id}", user(auth.ScopeRead, a.getMyTicket))
	mux.HandleFunc("POST /api/v1/user/tickets/{id}/replies", user(auth.ScopeWrite, a.replyMyTicket))
	mux.HandleFunc("PATCH /api/v1/user/tickets/{id}", user(auth.ScopeWrite, a.patchMyTicket))
	// The admin routes answer 404 to everyone but the node's admins.
	admin := a.AdminOnly
	mux.HandleFunc("GET /api/v1/admin/tickets", admin(auth.ScopeRead, a.listAdminTickets))
	mux.HandleFunc("GET /api/v1/admin/tickets/{id}", admin(auth.ScopeRead, a.getAdminTicket))
	mux.HandleFunc("POST /api/v1/admin/tickets/{id}/replies", admin(auth.ScopeWrite, a.replyAdminTicket))
	mux.HandleFunc("PATCH /api/v1/admin/tickets/{id}", admin(auth.ScopeWrite, a.patchAdminTicket))
}

// ticketJSON is one ticket: the contact message that opened it, its
// status and how many replies follow it.
type ticketJSON struct {
	ID      int64  `json:"id"`
	Subject string `json:"subject"`
	// Message is the first message, the one the contact form sent.
	Message string `json:"message"`
	// Status is open (waiting for the staff), answered (waiting for the
	// user) or closed.
	Status string `json:"status"`
	// Name and Email are what the contact form gave; an anonymous
	// ticket is answered at Email, outside the node.
	Name  string `json:"name"`
	Email string `json:"email"`
	// Anonymous is true for a message sent without signing in.
	Anonymous bool `json:"anonymous"`
	// User is the sender's account (admin views only).
	User      *api.UserJSON `json:"user,omitempty"`
	Replies   int           `json:"replies"`
	CreatedAt time.Time     `json:"created_at"`
	UpdatedAt time.Time     `json:"updated_at"`
}

// ticketReplyJSON is one reply in a ticket's thread.
type ticketReplyJSON struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
	// Staff is true for an answer from the node's staff.
	Staff bool `json:"staff"`
	// Author is who wrote it (admin views only).
	Author    *api.UserJSON `json:"author,omitempty"`
	CreatedAt time.Time     `json:"created_at"`
}

// ticketThreadJSON is a ticket with its replies, oldest first.
type ticketThreadJSON struct {
	ticketJSON
	Thread []ticketReplyJSON `json:"thread"`
}

// ticketBody is a reply to a ticket.
type ticketBody struct {
	Body string `json:"body"`
}

// ticketStatusBody changes a ticket's status.
type ticketStatusBody struct {
	// Status is open or closed (a user closing or reopening their
	// ticket); the staff may also set answered.
	Status string `json:"status"`
}

// listMyTickets lists the signed-in user's tickets, newest activity first.
func (a *Handler) listMyTickets(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.listTickets(w, r, support.Actor{UserID: id.User.ID})
}

// getMyTicket is one of the signed-in user's tickets with its thread;
// anyone else's is 404.
func (a *Handler) getMyTicket(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.getTicket(w, r, support.Actor{UserID: id.User.ID})
}

// replyMyTicket adds the user's reply to their ticket, which opens it
// again for the staff.
func (a *Handler) replyMyTicket(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.replyTicket(w, r, support.Actor{UserID: id.User.ID})
}

// patchMyTicket closes or reopens the user's ticket.
func (a *Handler) patchMyTicket(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	return a.patchTicket(w, r, support.Actor{UserID: id.User.ID})
}

// listAdminTickets lists every ticket, anonymous contact messages
// included, optionally of one status (?status=open|answered|closed).
func (a *Handler) listAdminTickets(w http.ResponseWriter, r *http.Request) error {
	id, err := a.RequireAdmin(r)
	if err != nil {
		return err
	}
	return a.listTickets(w, r, support.Actor{UserID: id.User.ID, Staff: true})
}

// getAdminTicket is any ticket with its thread, for the staff.
func (a *Handler) getAdminTicket(w http.ResponseWriter, r *http.Request) error {
	id, err := a.RequireAdmin(r)
	if err != nil {
		return err
	}
	return a.getTicket(w, r, support.Actor{UserID: id.User.ID, Staff: true})
}

// replyAdminTicket answers a ticket: it becomes answered and its user is
// notified.
func (a *Handler) replyAdminTicket(w http.ResponseWriter, r *http.Request) error {
	id, err := a.RequireAdmin(r)
	if err != nil {
		return err
	}
	return a.replyTicket(w, r, support.Actor{UserID: id.User.ID, Staff: true})
}

// patchAdminTicket sets a ticket's status (open, answered or closed).
func (a *Handler) patchAdminTicket(w http.ResponseWriter, r *http.Request) error {
	id, err := a.RequireAdmin(r)
	if err != nil {
		return err
	}
	return a.patchTicket(w, r, support.Actor{UserID: id.User.ID, Staff: true})
}

func (a *Handler) listTickets(w http.ResponseWriter, r *http.Request, by support.Actor) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Support.List(r.Context(), by, r.URL.Query().Get("status"), p.Limit, (p.Number-1)*p.Limit)
	if err != nil {
		return err
	}
	out := make([]ticketJSON, len(list))
	for i, t := range list {
		out[i] = a.toTicketJSON(r.Context(), t, by.Staff)
	}
	return a.RespondList(w, r, p, total, out, nil)
}

func (a *Handler) getTicket(w http.ResponseWriter, r *http.Request, by support.Actor) error {
	ticketID, err := api.PathID(r, "There is no such ticket.")
	if err != nil {
		return err
	}
	th, err := a.Support.Ticket(r.Context(), by, ticketID)
	if err != nil {
		return err
	}
	return api.Reply(w, a.ticketThreadJSON(r.Context(), th, by.Staff))
}

func (a *Handler) replyTicket(w http.ResponseWriter, r *http.Request, by support.Actor) error {
	ticketID, err := api.PathID(r, "There is no such ticket.")
	if err != nil {
		return err
	}
	var in ticketBody
	if err := api.Decode(w, r, api.MaxContactBody, &in); err != nil {
		return err
	}
	th, err := a.Support.Reply(r.Context(), by, ticketID, in.Body)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, a.ticketThreadJSON(r.Context(), th, by.Staff))
	return nil
}

func (a *Handler) patchTicket(w http.ResponseWriter, r *http.Request, by support.Actor) error {
	ticketID, err := api.PathID(r, "There is no such ticket.")
	if err != nil {
		return err
	}
	var in ticketStatusBody
	if err := api.Decode(w, r, api.MaxContactBody, &in); err != nil {
		return err
	}
	th, err := a.Support.SetStatus(r.Context(), by, ticketID, in.Status)
	if err != nil {
		return err
	}
	return api.Reply(w, a.ticketThreadJSON(r.Context(), th, by.Staff))
}

// toTicketJSON shapes t; staff adds the sender's account.
func (a *Handler) toTicketJSON(ctx context.Context, t store.Ticket, staff bool) ticketJSON {
	j := ticketJSON{
		ID: t.ID, Subject: t.Subject, Message: t.Message, Status: t.Status, Name: t.Name, Email: t.Email,
		Anonymous: t.UserID == 0, Replies: t.Replies, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
	}
	if staff {
		j.User = a.localUser(ctx, t.UserID)
	}
	return j
}

func (a *Handler) ticketThreadJSON(ctx context.Context, th support.Thread, staff bool) ticketThreadJSON {
	out := ticketThreadJSON{ticketJSON: a.toTicketJSON(ctx, th.Ticket, staff), Thread: make([]ticketReplyJSON, len(th.Replies))}
	for i, rep := range th.Replies {
		out.Thread[i] = ticketReplyJSON{ID: rep.ID, Body: rep.Body, Staff: rep.Staff, CreatedAt: rep.CreatedAt}
		if staff {
			out.Thread[i].Author = a.localUser(ctx, rep.AuthorID)
		}
	}
	return out
}

// localUser is the account with this node's id, or nil when there is none
// (an anonymous sender, an account gone).
func (a *Handler) localUser(ctx context.Context, id int64) *api.UserJSON {
	if id == 0 {
		return nil
	}
	u, err := a.Auth.UserByID(ctx, id)
	if err != nil {
		return nil
	}
	j := api.ToUserJSON(u, false)
	j.ID = a.AccountID(ctx, u)
	return &j
}
