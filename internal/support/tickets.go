package support

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Actor is who reads or writes a ticket: its sender (UserID) or the node's
// staff (Staff, an admin; UserID is then theirs, for the record).
type Actor struct {
	UserID int64
	Staff  bool
}

// Thread is a ticket with its replies, oldest first.
type Thread struct {
	store.Ticket
	Replies []store.TicketReply
}

// Statuses is every status a ticket may have, for a filter's validation.
var Statuses = []string{store.TicketOpen, store.TicketAnswered, store.TicketClosed}

// List is the tickets a user sent (by.Staff false) or every ticket (the
// staff), of one status ("" for any), and how many there are.
func (s *Service) List(ctx context.Context, by Actor, status string, limit, offset int) ([]store.Ticket, int64, error) {
	if status != "" && !validStatus(status) {
		return nil, 0, usererr.Unprocessablef("status", "invalid_status", "status must be open, answered or closed")
	}
	f := store.TicketFilter{Status: status, Limit: limit, Offset: offset}
	if !by.Staff {
		if by.UserID == 0 {
			return []store.Ticket{}, 0, nil
		}
		f.UserID = by.UserID
	}
	list, total, err := s.store.Tickets(ctx, f)
	if err != nil {
		return nil, 0, fmt.Errorf("list tickets: %w", err)
	}
	return list, total, nil
}

// Ticket reads one ticket with its replies. Someone else's ticket is not
// found, as if it did not exist.
func (s *Service) Ticket(ctx context.Context, by Actor, id int64) (Thread, error) {
	t, err := s.visible(ctx, by, id)
	if err != nil {
		return Thread{}, err
	}
	replies, err := s.store.TicketReplies(ctx, id)
	if err != nil {
		return Thread{}, fmt.Errorf("read ticket %d: %w", id, err)
	}
	t.Replies = len(replies)
	return Thread{Ticket: t, Replies: replies}, nil
}

// visible is ticket id if by may see it: the staff every ticket, a user
// their own.
func (s *Service) visible(ctx context.Context, by Actor, id int64) (store.Ticket, error) {
	t, ok, err := s.store.TicketByID(ctx, id)
	if err != nil {
		return store.Ticket{}, fmt.Errorf("read ticket %d: %w", id, err)
	}
	if !ok || !by.Staff && (by.UserID == 0 || t.UserID != by.UserID) {
		return store.Ticket{}, usererr.Missingf("There is no ticket %d.", id)
	}
	return t, nil
}

// Reply adds a reply to a ticket. The user's reply hands the ticket back
// to the staff (open, even when it was closed); the staff's answers it and
// notifies the user.
func (s *Service) Reply(ctx context.Context, by Actor, id int64, body string) (Thread, error) {
	body = strings.TrimSpace(body)
	if err := required("body", body, MaxMessage); err != nil {
		// A reply is checked like the contact form's message, but
		// answered as the rest of the API answers a bad field: 422.
		ue, _ := usererr.As(err)
		return Thread{}, usererr.Unprocessablef("body", ue.Code, "%s", ue.Message)
	}
	t, err := s.visible(ctx, by, id)
	if err != nil {
		return Thread{}, err
	}
	status := store.TicketOpen
	if by.Staff && t.UserID != by.UserID { // an admin's own ticket stays theirs
		status = store.TicketAnswered
	}
	reply := store.TicketReply{TicketID: id, AuthorID: by.UserID, Staff: status == store.TicketAnswered, Body: body, CreatedAt: s.now()}
	if _, err := s.store.AddTicketReply(ctx, reply, status); err != nil {
		return Thread{}, fmt.Errorf("reply to ticket %d: %w", id, err)
	}
	if reply.Staff {
		if err := s.notifyAnswer(ctx, t); err != nil {
			return Thread{}, err
		}
	}
	return s.Ticket(ctx, by, id)
}

// SetStatus changes a ticket's status: its user may close or reopen it,
// the staff may set any status.
func (s *Service) SetStatus(ctx context.Context, by Actor, id int64, status string) (Thread, error) {
	if !validStatus(status) || !by.Staff && status == store.TicketAnswered {
		msg := "status must be open or closed"
		if by.Staff {
			msg = "status must be open, answered or closed"
		}
		return Thread{}, usererr.Unprocessablef("status", "invalid_status", "%s", msg)
	}
	if _, err := s.visible(ctx, by, id); err != nil {
		return Thread{}, err
	}
	if _, err := s.store.SetTicketStatus(ctx, id, status, s.now()); err != nil {
		return Thread{}, fmt.Errorf("set ticket %d status: %w", id, err)
	}
	return s.Ticket(ctx, by, id)
}

// notifyAnswer tells the ticket's user that the staff answered; an
// anonymous ticket is answered by e-mail, outside the node.
func (s *Service) notifyAnswer(ctx context.Context, t store.Ticket) error {
	if s.notify == nil || t.UserID == 0 {
		return nil
	}
	u, ok, err := s.store.UserByID(ctx, t.UserID)
	if err != nil {
		return fmt.Errorf("notify ticket %d: find its user: %w", t.ID, err)
	}
	if !ok { // the account is gone: no one to tell
		return nil
	}
	err = s.notify.NotifyLocal(ctx, index.LocalNotification{
		User: common.HexToAddress(u.Address), Thread: "ticket:" + strconv.FormatInt(t.ID, 10),
		SubjectType: "Ticket", Reason: "ticket", Title: t.Subject, Number: t.ID,
	})
	if err != nil {
		return fmt.Errorf("notify ticket %d: %w", t.ID, err)
	}
	return nil
}

func validStatus(s string) bool { return slices.Contains(Statuses, s) }
