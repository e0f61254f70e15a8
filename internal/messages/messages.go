// Package messages is direct messages between the accounts of this node:
// conversations of two users, their messages, how far each has read, and
// the blocks that refuse a sender. It is node-local and private: nothing
// here goes on chain or to another node. The SQL is the tables of
// migration 00029.
package messages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/store"
	"github.com/dforge/dforge/internal/usererr"
)

// MaxBody bounds a message, in characters.
const MaxBody = 10000

// Codes of the refusals a client branches on.
const (
	CodeBlocked   = "blocked"    // the recipient has blocked the sender
	CodeBlocking  = "blocking"   // the sender has blocked the recipient
	CodeNoAccount = "no_account" // the recipient has never signed in on this node
	CodeSelf      = "self"       // a message to oneself
)

// Account is a user of this node as the service sees them: ID is their
// users row (0: they have never signed in here).
type Account struct {
	ID       int64
	Address  common.Address
	Username string
}

// Message is one message of a conversation.
type Message struct {
	ID           int64
	Conversation int64
	Sender       common.Address
	Body         string
	Created      time.Time
}

// Conversation is one of a user's conversations, seen by that user.
type Conversation struct {
	ID      int64
	Peer    common.Address // the other user
	Last    *Message       // nil: none yet
	Unread  int64          // messages from the peer after the user's last read one
	Blocked bool           // the user has blocked the peer
	Created time.Time
	Updated time.Time
}

// Notifier tells a user of a new message and marks that read once they
// have read the conversation; the index does, into the notifications.
type Notifier interface {
	NotifyLocal(ctx context.Context, n index.LocalNotification) error
	ReadLocal(ctx context.Context, user common.Address, thread string) error
}

// Service keeps the node's direct messages.
type Service struct {
	log    *slog.Logger
	db     *sql.DB
	rdb    *sql.DB
	notify Notifier // nil: no notifications
	now    func() time.Time
}

// New returns the messages of st; n, when not nil, is told of each new
// message.
func New(log *slog.Logger, st *store.Store, n Notifier) *Service {
	return &Service{log: log, db: st.DB(), rdb: st.ReadDB(), notify: n, now: time.Now}
}

// Thread is the notification thread of conversation id.
func Thread(id int64) string { return "message:" + strconv.FormatInt(id, 10) }

// CheckBody holds a message to the rules of text on this node: not empty,
// valid UTF-8, no control character but tab, newline and carriage return,
// at most MaxBody characters.
func CheckBody(body string) error {
	if strings.TrimSpace(body) == "" {
		return usererr.Unprocessablef("body", usererr.CodeRequired, "body is required: a message cannot be empty")
	}
	if err := tx.CheckBody("body", body); err != nil {
		return usererr.Unprocessablef("body", usererr.CodeInvalidText, "%s", err.Error())
	}
	if n := utf8.RuneCountInString(body); n > MaxBody {
		return usererr.Unprocessablef("body", usererr.CodeTooLarge, "body is too long: %d characters, the most a message may hold is %d", n, MaxBody)
	}
	return nil
}

// Send sends body from one user of this node to another, in their
// conversation (started by the first message), and tells the recipient.
func (s *Service) Send(ctx context.Context, from, to Account, body string) (Message, error) {
	if err := s.checkSend(ctx, from, to, body); err != nil {
		return Message{}, err
	}
	m, err := s.insert(ctx, from.ID, to.ID, body)
	if err != nil {
		return Message{}, err
	}
	m.Sender = from.Address
	if s.notify != nil {
		n := index.LocalNotification{User: to.Address, Thread: Thread(m.Conversation), SubjectType: "Message", Reason: "message",
			Title: excerpt(body), Actor: from.Address, Number: m.Conversation}
		// The message is stored: a failed notification is logged, not
		// answered as a failure the sender would retry (sending it twice).
		if err := s.notify.NotifyLocal(ctx, n); err != nil {
			s.log.Warn("notify of a direct message", "conversation", m.Conversation, "err", err)
		}
	}
	return m, nil
}

// checkSend refuses a message the recipient cannot or will not take.
func (s *Service) checkSend(ctx context.Context, from, to Account, body string) error {
	if from.Address == to.Address {
		return usererr.Unprocessablef("to", CodeSelf, "you cannot send a message to yourself")
	}
	if to.ID == 0 {
		return usererr.Unprocessablef("to", CodeNoAccount, "%s has no account on this node: both people need to have signed in here to exchange messages", to.Username)
	}
	if err := CheckBody(body); err != nil {
		return err
	}
	blocked, err := s.blocks(ctx, to.ID, from.Address)
	if err != nil {
		return err
	}
	if blocked {
		return usererr.Newf(usererr.Forbidden, CodeBlocked, "%s has blocked you: they do not accept your messages", to.Username).On("to")
	}
	if blocking, err := s.blocks(ctx, from.ID, to.Address); err != nil {
		return err
	} else if blocking {
		return usererr.Newf(usererr.Forbidden, CodeBlocking, "you have blocked %s: unblock them to send a message", to.Username).On("to")
	}
	return nil
}

// excerpt is the notification's title: the message's first line, cut.
func excerpt(body string) string {
	line := strings.TrimSpace(body)
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	const most = 80
	if utf8.RuneCountInString(line) > most {
		r := []rune(line)
		line = string(r[:most-1]) + "…"
	}
	// A title is one line of printable text; tabs are the only control left.
	return strings.ReplaceAll(line, "\t", " ")
}

// insert stores the message in the pair's conversation, starting it when
// there is none, in one transaction: the sender has read up to it.
func (s *Service) insert(ctx context.Context, from, to int64, body string) (Message, error) {
	t, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Message{}, fmt.Errorf("begin message: %w", err)
	}
	defer t.Rollback()
	now := s.now()
	conv, err := conversationOf(ctx, t, from, to, now)
	if err != nil {
		return Message{}, err
	}
	m := Message{Conversation: conv, Body: body, Created: now.UTC()}
	if err := t.QueryRowContext(ctx, `INSERT INTO direct_messages (conversation_id, sender_id, body, created_at)
		VALUES ($1, $2, $3, $4) RETURNING id`, conv, from, body, now.UnixMilli()).Scan(&m.ID); err != nil {
		return Message{}, fmt.Errorf("insert message: %w", err)
	}
	if _, err := t.ExecContext(ctx, `UPDATE conversations SET last_message_id = $1, updated_at = $2 WHERE id = $3`, m.ID, now.UnixMilli(), conv); err != nil {
		return Message{}, fmt.Errorf("update conversation: %w", err)
	}
	if _, err := t.ExecContext(ctx, `UPDATE conversation_members SET last_message_id = $1,
		last_read_id = CASE WHEN user_id = $2 THEN $1 ELSE last_read_id END WHERE conversation_id = $3`, m.ID, from, conv); err != nil {
		return Message{}, fmt.Errorf("update members: %w", err)
	}
	if err := t.Commit(); err != nil {
		return Message{}, fmt.Errorf("commit message: %w", err)
	}
	return m, nil
}

// conversationOf is the id of the pair's conversation, made if new.
func conversationOf(ctx context.Context, t *sql.Tx, a, b int64, now time.Time) (int64, error) {
	low, high := min(a, b), max(a, b)
	if _, err := t.ExecContext(ctx, `INSERT INTO conversations (user_low, user_high, created_at, updated_at) VALUES ($1, $2, $3, $3)
		ON CONFLICT (user_low, user_high) DO NOTHING`, low, high, now.UnixMilli()); err != nil {
		return 0, fmt.Errorf("start conversation: %w", err)
	}
	var id int64
	if err := t.QueryRowContext(ctx, `SELECT id FROM conversations WHERE user_low = $1 AND user_high = $2`, low, high).Scan(&id); err != nil {
		return 0, fmt.Errorf("read conversation: %w", err)
	}
	if _, err := t.ExecContext(ctx, `INSERT INTO conversation_members (conversation_id, user_id, peer_id) VALUES ($1, $2, $3), ($1, $3, $2)
		ON CONFLICT (conversation_id, user_id) DO NOTHING`, id, low, high); err != nil {
		return 0, fmt.Errorf("add members: %w", err)
	}
	return id, nil
}

// notFound is a conversation the user is not in, or none: the two
// answer alike, so nobody learns of another's conversations.
func notFound(id int64) error {
	return usererr.Missingf("conversation %d not found", id)
}

// errNoRows tells "none" from a failure.
func errNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
