package index

import (
	"context"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
)

// Notifications of the forum (its projection is internal/index/forum):
// subject type Topic, one thread per topic (forum:<id>, its number the
// topic's id).
const (
	SubjectTopic  = "Topic"
	ReasonComment = "comment" // a reply in a topic you opened or replied in
)

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
func notifyForum(ctx context.Context, tx *readdb.WriteTx, c forgeChange) error {
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
		updated_ns = excluded.updated_ns
		RETURNING user_address`
	if _, err := tx.ExecForUsers(ctx, q, args...); err != nil {
		return fmt.Errorf("notify about forum topic %d: %w", au.topic, err)
	}
	return nil
}
