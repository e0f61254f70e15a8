// Package support takes messages from the contact form and keeps them as
// support tickets: a signed-in sender's message is a ticket they follow
// and reply to, the node's staff answer it from the admin console. They
// are private to the node: support conversations never go on chain.
package support

import (
	"context"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// Field limits, shared with the web form's own validation.
const (
	MaxName    = 100
	MaxEmail   = 254
	MaxSubject = 200
	MaxMessage = 5000
)

// Message is what the contact form sends.
type Message struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Subject string `json:"subject"`
	Message string `json:"message"`
}

// Notifier tells a user about an answer to their ticket (an *index.Index).
type Notifier interface {
	NotifyLocal(ctx context.Context, n index.LocalNotification) error
}

// Service stores contact messages and the tickets they open.
type Service struct {
	store  *store.Store
	notify Notifier // nil notifies no one
	now    func() time.Time
}

// New returns a Service backed by st that notifies through notify (nil:
// no notifications).
func New(st *store.Store, notify Notifier) *Service {
	return &Service{store: st, notify: notify, now: time.Now}
}

// Submit validates and stores a message, returning its id. from is the
// signed-in sender's account id, which makes the message a ticket they
// can follow; 0 for an anonymous sender.
func (s *Service) Submit(ctx context.Context, from int64, m Message) (int64, error) {
	m = trim(m)
	if err := validate(m); err != nil {
		return 0, err
	}
	id, err := s.store.AddContactMessage(ctx, store.ContactMessage{
		Name: m.Name, Email: m.Email, Subject: m.Subject, Message: m.Message, CreatedAt: s.now(), UserID: from,
	})
	if err != nil {
		return 0, fmt.Errorf("submit contact message: %w", err)
	}
	return id, nil
}

func trim(m Message) Message {
	return Message{strings.TrimSpace(m.Name), strings.TrimSpace(m.Email), strings.TrimSpace(m.Subject), strings.TrimSpace(m.Message)}
}

func validate(m Message) error {
	if err := required("name", m.Name, MaxName); err != nil {
		return err
	}
	if err := required("email", m.Email, MaxEmail); err != nil {
		return err
	}
	if a, err := mail.ParseAddress(m.Email); err != nil || a.Address != m.Email || !strings.Contains(a.Address, ".") {
		return usererr.InvalidField("email", "invalid_email", "email must be a valid e-mail address")
	}
	if err := required("subject", m.Subject, MaxSubject); err != nil {
		return err
	}
	return required("message", m.Message, MaxMessage)
}

func required(field, v string, max int) error {
	if v == "" {
		return usererr.InvalidField(field, usererr.CodeRequired, field+" is required")
	}
	if !utf8.ValidString(v) || utf8.RuneCountInString(v) > max {
		return usererr.InvalidField(field, "too_long", fmt.Sprintf("%s must be at most %d characters", field, max))
	}
	return nil
}
