// Package forum is the forum's part of the index: Write and Reset, which
// internal/index calls as it projects, and Reader. The notifications a
// forum change makes are the index's (notify_forum.go there).
//
// The forum's projection (forum_topics, forum_posts, forum_revisions),
// from the forum.* forge actions: each change carries the topic and post
// in their new state, and an edit the text it replaced, written as they
// are. The forum is on chain only, so a rebuild empties its tables whole.
package forum

import (
	"context"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// tables hold the forum projection.
var tables = []string{"forum_topics", "forum_posts", "forum_revisions"}

// Reset empties the forum's tables, in the index's reset.
func Reset(ctx context.Context, tx *readdb.WriteTx) error {
	for _, table := range tables {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
			return fmt.Errorf("empty %s: %w", table, err)
		}
	}
	return nil
}

// at is where a change was applied: its block's height (the private
// store's sequence number for one of its entries) and time.
type at struct {
	height, timeNS int64
}

// Write projects ch, applied at height and time timeNS: the text an edit
// replaced, then the post, then the topic. A change of anything else
// writes nothing.
func Write(ctx context.Context, tx *readdb.WriteTx, ch forge.Change, height, timeNS int64) error {
	if ch.ForumTopic == nil && ch.ForumPost == nil {
		return nil
	}
	c := at{height: height, timeNS: timeNS}
	if err := writeForumRevision(ctx, tx, c, ch.ForumRevision); err != nil {
		return err
	}
	if err := writeForumPost(ctx, tx, c, ch.ForumPost); err != nil {
		return err
	}
	return writeForumTopic(ctx, tx, c, ch.ForumTopic)
}

func writeForumTopic(ctx context.Context, tx *readdb.WriteTx, c at, t *forge.ForumTopic) error {
	if t == nil {
		return nil
	}
	// The time of the last post moves only with its height: a pin or an
	// edit is no new activity.
	_, err := tx.ExecContext(ctx, `INSERT INTO forum_topics (id, category, title, lower_title, body, author, pinned, locked,
		answer_post_id, reply_count, revisions, created_height, created_time_ns, updated_height, updated_time_ns,
		last_post_height, last_post_time_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $13, $15, $13)
		ON CONFLICT (id) DO UPDATE SET category = excluded.category, title = excluded.title, lower_title = excluded.lower_title,
		body = excluded.body, pinned = excluded.pinned, locked = excluded.locked, answer_post_id = excluded.answer_post_id,
		reply_count = excluded.reply_count, revisions = excluded.revisions, updated_height = excluded.updated_height,
		updated_time_ns = excluded.updated_time_ns, last_post_height = excluded.last_post_height,
		last_post_time_ns = CASE WHEN excluded.last_post_height <> forum_topics.last_post_height
			THEN excluded.last_post_time_ns ELSE forum_topics.last_post_time_ns END`,
		int64(t.ID), t.Category, t.Title, strings.ToLower(t.Title), t.Body, t.Author.Hex(), t.Pinned, t.Locked,
		int64(t.Answer), int64(t.Replies), int64(t.Revisions), int64(t.CreatedHeight), c.timeNS, c.height, int64(t.LastPostHeight))
	if err != nil {
		return fmt.Errorf("write forum topic %d: %w", t.ID, err)
	}
	return nil
}

func writeForumPost(ctx context.Context, tx *readdb.WriteTx, c at, p *forge.ForumPost) error {
	if p == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forum_posts (id, topic_id, author, body, quote_id, revisions,
		created_height, created_time_ns, updated_height, updated_time_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8)
		ON CONFLICT (id) DO UPDATE SET body = excluded.body, revisions = excluded.revisions,
		updated_height = excluded.updated_height, updated_time_ns = excluded.updated_time_ns`,
		int64(p.ID), int64(p.Topic), p.Author.Hex(), p.Body, int64(p.Quote), int64(p.Revisions),
		int64(p.CreatedHeight), c.timeNS, c.height)
	if err != nil {
		return fmt.Errorf("write forum post %d: %w", p.ID, err)
	}
	return nil
}

func writeForumRevision(ctx context.Context, tx *readdb.WriteTx, c at, r *forge.ForumRevision) error {
	if r == nil {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forum_revisions (kind, target_id, n, title, body, editor, height, time_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (kind, target_id, n) DO NOTHING`,
		r.Kind, int64(r.ID), int64(r.N), r.Title, r.Body, r.Editor.Hex(), c.height, c.timeNS)
	if err != nil {
		return fmt.Errorf("write revision %d of forum %s %d: %w", r.N, r.Kind, r.ID, err)
	}
	return nil
}
