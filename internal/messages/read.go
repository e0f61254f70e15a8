package messages

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// Reads. Every one is of the signed-in user's own conversations: a
// conversation is reached through its member row of that user, so
// another's is not found.

// conversationColumns read a member row m of the user, its conversation
// c, the peer p and the last message l (absent before the first), with
// the unread count and whether the user has blocked the peer.
const conversationColumns = `c.id, p.address, c.created_at, c.updated_at,
	COALESCE(l.id, 0), COALESCE(s.address, ''), COALESCE(l.body, ''), COALESCE(l.created_at, 0),
	(SELECT COUNT(*) FROM direct_messages x WHERE x.conversation_id = c.id AND x.id > m.last_read_id AND x.sender_id <> m.user_id),
	(SELECT COUNT(*) FROM user_blocks b WHERE b.blocker_id = m.user_id AND b.blocked_address = p.address)`

const conversationFrom = `FROM conversation_members m
	JOIN conversations c ON c.id = m.conversation_id
	JOIN users p ON p.id = m.peer_id
	LEFT JOIN direct_messages l ON l.id = c.last_message_id
	LEFT JOIN users s ON s.id = l.sender_id`

func scanConversation(row interface{ Scan(...any) error }) (Conversation, error) {
	var c Conversation
	var peer, sender string
	var created, updated, lastCreated int64
	var last Message
	var blocks int64
	err := row.Scan(&c.ID, &peer, &created, &updated, &last.ID, &sender, &last.Body, &lastCreated, &c.Unread, &blocks)
	if err != nil {
		return c, err
	}
	c.Peer, c.Created, c.Updated = common.HexToAddress(peer), time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	c.Blocked = blocks > 0
	if last.ID != 0 {
		last.Conversation, last.Sender, last.Created = c.ID, common.HexToAddress(sender), time.UnixMilli(lastCreated).UTC()
		c.Last = &last
	}
	return c, nil
}

// Conversations is a page of the user's conversations, the latest message
// first, with the total.
func (s *Service) Conversations(ctx context.Context, user int64, offset, limit int) ([]Conversation, int64, error) {
	var total int64
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM conversation_members WHERE user_id = $1`, user).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count conversations: %w", err)
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+conversationColumns+` `+conversationFrom+`
		WHERE m.user_id = $1 ORDER BY m.last_message_id DESC, c.id DESC LIMIT $2 OFFSET $3`, user, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list conversations: %w", err)
	}
	defer rows.Close()
	out := []Conversation{}
	for rows.Next() {
		c, err := scanConversation(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("scan conversation: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read conversations: %w", err)
	}
	return out, total, nil
}

// Conversation is the user's conversation id; not found when they are not
// in it.
func (s *Service) Conversation(ctx context.Context, user, id int64) (Conversation, error) {
	c, err := scanConversation(s.rdb.QueryRowContext(ctx, `SELECT `+conversationColumns+` `+conversationFrom+`
		WHERE m.user_id = $1 AND m.conversation_id = $2`, user, id))
	if errNoRows(err) {
		return c, notFound(id)
	}
	if err != nil {
		return c, fmt.Errorf("read conversation %d: %w", id, err)
	}
	return c, nil
}

// Messages is a page of the user's conversation id, the newest first,
// with the total.
func (s *Service) Messages(ctx context.Context, user, id int64, offset, limit int) ([]Message, int64, error) {
	if _, err := s.member(ctx, s.rdb, user, id); err != nil {
		return nil, 0, err
	}
	var total int64
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM direct_messages WHERE conversation_id = $1`, id).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count messages: %w", err)
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT d.id, u.address, d.body, d.created_at FROM direct_messages d JOIN users u ON u.id = d.sender_id
		WHERE d.conversation_id = $1 ORDER BY d.id DESC LIMIT $2 OFFSET $3`, id, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list messages: %w", err)
	}
	defer rows.Close()
	out := []Message{}
	for rows.Next() {
		m := Message{Conversation: id}
		var sender string
		var created int64
		if err := rows.Scan(&m.ID, &sender, &m.Body, &created); err != nil {
			return nil, 0, fmt.Errorf("scan message: %w", err)
		}
		m.Sender, m.Created = common.HexToAddress(sender), time.UnixMilli(created).UTC()
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read messages: %w", err)
	}
	return out, total, nil
}

// member is the user's peer in conversation id; not found when the user
// is not in it.
func (s *Service) member(ctx context.Context, db *sql.DB, user, id int64) (int64, error) {
	var peer int64
	err := db.QueryRowContext(ctx, `SELECT peer_id FROM conversation_members WHERE user_id = $1 AND conversation_id = $2`, user, id).Scan(&peer)
	if errNoRows(err) {
		return 0, notFound(id)
	}
	if err != nil {
		return 0, fmt.Errorf("read conversation %d: %w", id, err)
	}
	return peer, nil
}

// Read marks the user's conversation id read up to its last message, and
// its notification with it.
func (s *Service) Read(ctx context.Context, user Account, id int64) error {
	if _, err := s.member(ctx, s.db, user.ID, id); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE conversation_members SET last_read_id = last_message_id WHERE user_id = $1 AND conversation_id = $2`,
		user.ID, id); err != nil {
		return fmt.Errorf("mark conversation %d read: %w", id, err)
	}
	if s.notify != nil {
		if err := s.notify.ReadLocal(ctx, user.Address, Thread(id)); err != nil {
			return fmt.Errorf("mark the notification of conversation %d read: %w", id, err)
		}
	}
	return nil
}

// Unread is how many messages the user has not read, and in how many
// conversations.
func (s *Service) Unread(ctx context.Context, user int64) (messages, conversations int64, err error) {
	err = s.rdb.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT m.conversation_id) FROM conversation_members m
		JOIN direct_messages d ON d.conversation_id = m.conversation_id AND d.id > m.last_read_id AND d.sender_id <> m.user_id
		WHERE m.user_id = $1`, user).Scan(&messages, &conversations)
	if err != nil {
		return 0, 0, fmt.Errorf("count unread messages: %w", err)
	}
	return messages, conversations, nil
}
