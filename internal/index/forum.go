package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/chain/forge"
)

// The forum's projection (forum_topics, forum_posts, forum_revisions),
// from the forum.* forge actions: each change carries the topic and post
// in their new state, and an edit the text it replaced, written as they
// are. The forum is on chain only, so a rebuild empties its tables whole.

// forumTables hold the forum projection.
var forumTables = []string{"forum_topics", "forum_posts", "forum_revisions"}

// Notifications of the forum: subject type Topic, one thread per topic
// (forum:<id>, its number the topic's id).
const (
	SubjectTopic  = "Topic"
	ReasonComment = "comment" // a reply in a topic you opened or replied in
)

func resetForum(ctx context.Context, tx *sql.Tx) error {
	for _, table := range forumTables {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
			return fmt.Errorf("empty %s: %w", table, err)
		}
	}
	return nil
}

func writeForum(ctx context.Context, tx *sql.Tx, c forgeChange) error {
	ch := c.change
	if ch.ForumTopic == nil && ch.ForumPost == nil {
		return nil
	}
	if err := writeForumRevision(ctx, tx, c, ch.ForumRevision); err != nil {
		return err
	}
	if err := writeForumPost(ctx, tx, c, ch.ForumPost); err != nil {
		return err
	}
	if err := writeForumTopic(ctx, tx, c, ch.ForumTopic); err != nil {
		return err
	}
	return notifyForum(ctx, tx, c)
}

func writeForumTopic(ctx context.Context, tx *sql.Tx, c forgeChange, t *forge.ForumTopic) error {
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

func writeForumPost(ctx context.Context, tx *sql.Tx, c forgeChange, p *forge.ForumPost) error {
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

func writeForumRevision(ctx context.Context, tx *sql.Tx, c forgeChange, r *forge.ForumRevision) error {
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

// forumAudience is who one forum change notifies: the names its text
// (newly) mentions and, for a reply, the topic's author and everyone who
// replied in it.
type forumAudience struct {
	topic, post  uint64
	mentioned    []string
	participants bool
}

func forumAudienceOf(ch forge.Change) (forumAudience, bool) {
	rev := ch.ForumRevision
	switch {
	case ch.Action == "forum.topic.create" && ch.ForumTopic != nil:
		t := ch.ForumTopic
		return forumAudience{topic: t.ID, mentioned: mentions(t.Title, t.Body)}, true
	case ch.Action == "forum.post.create" && ch.ForumPost != nil:
		p := ch.ForumPost
		return forumAudience{topic: p.Topic, post: p.ID, mentioned: mentions(p.Body), participants: true}, true
	case rev != nil && rev.Kind == forge.ForumRevisionTopic && ch.ForumTopic != nil:
		t := ch.ForumTopic
		return forumAudience{topic: t.ID, mentioned: newMentions(rev.Title+"\n"+rev.Body, t.Title+"\n"+t.Body)}, true
	case rev != nil && rev.Kind == forge.ForumRevisionPost && ch.ForumPost != nil:
		p := ch.ForumPost
		return forumAudience{topic: p.Topic, post: p.ID, mentioned: newMentions(rev.Body, p.Body)}, true
	}
	return forumAudience{}, false
}

// notifyForum inserts or refreshes the topic's thread for everyone its
// change notifies, in one statement; the actor hears nothing of their own.
func notifyForum(ctx context.Context, tx *sql.Tx, c forgeChange) error {
	au, ok := forumAudienceOf(c.change)
	if !ok || len(au.mentioned) == 0 && !au.participants {
		return nil
	}
	var args sqlArgs
	topic := args.Add(int64(au.topic))
	var parts []string
	if len(au.mentioned) > 0 {
		names := args.List(au.mentioned)
		parts = append(parts, `SELECT address AS u, 1 AS rk FROM chain_accounts WHERE lower(username) IN (`+names+`)
			OR (username IS NULL AND default_name IN (`+names+`))`)
	}
	if au.participants {
		parts = append(parts, `SELECT author AS u, 2 AS rk FROM forum_topics WHERE id = `+topic,
			`SELECT author AS u, 2 AS rk FROM forum_posts WHERE topic_id = `+topic)
	}
	actor := args.Add(c.change.Actor.Hex())
	q := `INSERT INTO notifications (user_address, thread, repo_id, number, subject_type, reason, title, actor,
		comment_id, amount, unread, pinned, height, updated_ns)
		SELECT c.u, ` + args.Add(fmt.Sprintf("forum:%d", au.topic)) + `, 0, t.id, '` + SubjectTopic + `',
		CASE MIN(c.rk) WHEN 1 THEN '` + ReasonMention + `' ELSE '` + ReasonComment + `' END,
		t.title, ` + actor + `, ` + args.Add(int64(au.post)) + `, 0, TRUE, FALSE, ` + args.Add(c.height) + `, ` + args.Add(c.timeNS) + `
		FROM (` + strings.Join(parts, " UNION ALL ") + `) c
		JOIN forum_topics t ON t.id = ` + topic + `
		WHERE c.u <> ` + actor + `
		GROUP BY c.u, t.id, t.title
		ON CONFLICT (user_address, thread) DO UPDATE SET reason = excluded.reason, title = excluded.title,
		actor = excluded.actor, comment_id = excluded.comment_id, unread = TRUE, height = excluded.height,
		updated_ns = excluded.updated_ns`
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("notify about forum topic %d: %w", au.topic, err)
	}
	return nil
}
