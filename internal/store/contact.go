package store

import (
	"context"
	"fmt"
	"time"
)

// ContactMessage is a message sent through the contact form. It stays on the
// node: support messages are private and never go on chain.
type ContactMessage struct {
	ID        int64
	Name      string
	Email     string
	Subject   string
	Message   string
	CreatedAt time.Time
	// UserID is the signed-in sender's account; 0 for an anonymous
	// message, answered by e-mail outside the node.
	UserID int64
}

// AddContactMessage stores a message and returns its id.
func (s *Store) AddContactMessage(ctx context.Context, m ContactMessage) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO contact_messages (name, email, subject, message, created_at, user_id, status, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $5) RETURNING id`,
		m.Name, m.Email, m.Subject, m.Message, m.CreatedAt.UnixMilli(), m.UserID, TicketOpen).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert contact message: %w", err)
	}
	return id, nil
}

// ContactMessages lists stored messages, newest first.
func (s *Store) ContactMessages(ctx context.Context, limit int) ([]ContactMessage, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, email, subject, message, created_at
		FROM contact_messages ORDER BY id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("query contact messages: %w", err)
	}
	defer rows.Close()
	var out []ContactMessage
	for rows.Next() {
		var m ContactMessage
		var created int64
		if err := rows.Scan(&m.ID, &m.Name, &m.Email, &m.Subject, &m.Message, &created); err != nil {
			return nil, fmt.Errorf("scan contact message: %w", err)
		}
		m.CreatedAt = time.UnixMilli(created).UTC()
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read contact messages: %w", err)
	}
	return out, nil
}
