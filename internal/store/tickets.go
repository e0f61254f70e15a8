package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// A ticket is a contact message with a status and replies (migration
// 00030). Its status says whose turn it is.
const (
	TicketOpen     = "open"     // waiting for the staff
	TicketAnswered = "answered" // the staff answered; waiting for the user
	TicketClosed   = "closed"
)

// Ticket is a contact message as the support console and its sender see
// it.
type Ticket struct {
	ContactMessage
	Status    string
	UpdatedAt time.Time
	Replies   int // how many replies it has
}

// TicketReply is one message of a ticket's thread after the first.
type TicketReply struct {
	ID        int64
	TicketID  int64
	AuthorID  int64 // the user's account, or the staff member's
	Staff     bool
	Body      string
	CreatedAt time.Time
}

// TicketFilter selects tickets: those of one user (UserID not 0) or all,
// of one status ("" for any), newest activity first.
type TicketFilter struct {
	UserID int64
	Status string
	Limit  int
	Offset int
}

const ticketColumns = `m.id, m.name, m.email, m.subject, m.message, m.created_at, m.user_id, m.status, m.updated_at,
	(SELECT COUNT(*) FROM ticket_replies r WHERE r.ticket_id = m.id)`

func scanTicket(row interface{ Scan(...any) error }) (Ticket, error) {
	var t Ticket
	var created, updated int64
	err := row.Scan(&t.ID, &t.Name, &t.Email, &t.Subject, &t.Message, &created, &t.UserID, &t.Status, &updated, &t.Replies)
	t.CreatedAt, t.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return t, err
}

// Tickets lists the tickets f selects and how many there are in all.
func (s *Store) Tickets(ctx context.Context, f TicketFilter) ([]Ticket, int64, error) {
	where, args := `(CAST($1 AS BIGINT) = 0 OR m.user_id = CAST($1 AS BIGINT)) AND ($2 = '' OR m.status = $2)`, []any{f.UserID, f.Status}
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM contact_messages m WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count tickets: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+ticketColumns+` FROM contact_messages m WHERE `+where+`
		ORDER BY m.updated_at DESC, m.id DESC LIMIT $3 OFFSET $4`, append(args, f.Limit, f.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("query tickets: %w", err)
	}
	defer rows.Close()
	out := []Ticket{}
	for rows.Next() {
		t, err := scanTicket(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan ticket: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read tickets: %w", err)
	}
	return out, total, nil
}

// TicketByID reads one ticket; false when there is none.
func (s *Store) TicketByID(ctx context.Context, id int64) (Ticket, bool, error) {
	t, err := scanTicket(s.db.QueryRowContext(ctx, `SELECT `+ticketColumns+` FROM contact_messages m WHERE m.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Ticket{}, false, nil
	}
	if err != nil {
		return Ticket{}, false, fmt.Errorf("read ticket %d: %w", id, err)
	}
	return t, true, nil
}

// TicketReplies lists a ticket's replies, oldest first.
func (s *Store) TicketReplies(ctx context.Context, ticketID int64) ([]TicketReply, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, ticket_id, author_id, staff, body, created_at
		FROM ticket_replies WHERE ticket_id = $1 ORDER BY id`, ticketID)
	if err != nil {
		return nil, fmt.Errorf("query ticket replies: %w", err)
	}
	defer rows.Close()
	out := []TicketReply{}
	for rows.Next() {
		var r TicketReply
		var created int64
		if err := rows.Scan(&r.ID, &r.TicketID, &r.AuthorID, &r.Staff, &r.Body, &created); err != nil {
			return nil, fmt.Errorf("scan ticket reply: %w", err)
		}
		r.CreatedAt = time.UnixMilli(created).UTC()
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read ticket replies: %w", err)
	}
	return out, nil
}

// AddTicketReply stores a reply and sets the ticket's status, in one
// transaction so a ticket never shows a reply under the old status.
func (s *Store) AddTicketReply(ctx context.Context, r TicketReply, status string) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("begin ticket reply: %w", err)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO ticket_replies (ticket_id, author_id, staff, body, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, r.TicketID, r.AuthorID, r.Staff, r.Body, r.CreatedAt.UnixMilli()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert ticket reply: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE contact_messages SET status = $1, updated_at = $2 WHERE id = $3`,
		status, r.CreatedAt.UnixMilli(), r.TicketID); err != nil {
		return 0, fmt.Errorf("update ticket status: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit ticket reply: %w", err)
	}
	return id, nil
}

// SetTicketStatus changes a ticket's status; false when there is no such
// ticket.
func (s *Store) SetTicketStatus(ctx context.Context, id int64, status string, now time.Time) (bool, error) {
	return s.affected(s.db.ExecContext(ctx, `UPDATE contact_messages SET status = $1, updated_at = $2 WHERE id = $3`,
		status, now.UnixMilli(), id))
}
