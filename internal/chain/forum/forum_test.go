package forum_test

import (
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/forge/actiontest"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
)

type m = actiontest.M

var (
	maint    = actiontest.Maint
	writer   = actiontest.Writer
	reader   = actiontest.Reader
	stranger = actiontest.Stranger
)

// forumWorld is a world where maint holds the forum moderator role.
func forumWorld(t *testing.T) *actiontest.World {
	return actiontest.WithRole(t, maint, roles.ForumModerator)
}

// TestForumTopicsAndReplies: ids from the forum's counters, a reply
// counts on its topic, a quote must be a post of the same topic, and bad
// categories, titles and bodies are refused naming the field.
func TestForumTopicsAndReplies(t *testing.T) {
	w := forumWorld(t)
	c := w.OK(reader, "forum.topic.create", m{"category": "help", "title": "How do I push?", "body": "It fails."})
	top := c.ForumTopic
	if top.ID != 1 || top.Author != reader || top.Category != "help" || top.CreatedHeight != w.Height || top.LastPostHeight != w.Height {
		t.Fatalf("topic = %+v", top)
	}
	other := w.OK(writer, "forum.topic.create", m{"category": "general", "title": "Hi", "body": "b"}).ForumTopic.ID
	p1 := w.OK(writer, "forum.post.create", m{"topic": 1, "body": "Try again."})
	if p1.ForumPost.ID != 1 || p1.ForumPost.Topic != 1 || p1.ForumTopic.Replies != 1 || p1.ForumTopic.LastPostHeight != w.Height {
		t.Fatalf("reply = %+v, topic = %+v", p1.ForumPost, p1.ForumTopic)
	}
	q := w.OK(reader, "forum.post.create", m{"topic": 1, "body": "> Try again.\n\nNo luck.", "quote": 1}).ForumPost
	if q.Quote != 1 || q.ID != 2 {
		t.Fatalf("quoting post = %+v", q)
	}
	otherPost := w.OK(reader, "forum.post.create", m{"topic": other, "body": "x"}).ForumPost.ID
	w.Fails(tx.CodeInvalidField, reader, "forum.post.create", m{"topic": 1, "body": "x", "quote": otherPost})
	w.Fails(tx.CodeInvalidField, reader, "forum.post.create", m{"topic": 1, "body": "x", "quote": 99})
	w.Fails(tx.CodeNotFound, reader, "forum.post.create", m{"topic": 99, "body": "x"})
	for _, bad := range []m{
		{"category": "random", "title": "t", "body": "b"},
		{"category": "", "title": "t", "body": "b"},
		{"category": "help", "title": "", "body": "b"},
		{"category": "help", "title": "   ", "body": "b"},
		{"category": "help", "title": strings.Repeat("é", forge.MaxTitle+1), "body": "b"},
		{"category": "help", "title": "t", "body": " \n"},
		{"category": "help", "title": "t", "body": strings.Repeat("a", forge.MaxBody+1)},
	} {
		w.Fails(tx.CodeInvalidField, reader, "forum.topic.create", bad)
	}
	w.OK(reader, "forum.topic.create", m{"category": "help", "title": strings.Repeat("é", forge.MaxTitle), "body": strings.Repeat("a", forge.MaxBody)})
}

// TestForumEditHistory: the author or a moderator edits; each edit's
// change carries the text it replaced, numbered; others are refused.
func TestForumEditHistory(t *testing.T) {
	w := forumWorld(t)
	w.OK(reader, "forum.topic.create", m{"category": "general", "title": "v1", "body": "body 1"})
	c := w.OK(reader, "forum.topic.edit", m{"topic": 1, "title": "v2"})
	if r := c.ForumRevision; r == nil || r.Kind != "topic" || r.N != 1 || r.Title != "v1" || r.Body != "body 1" || r.Editor != reader {
		t.Fatalf("first revision = %+v", c.ForumRevision)
	}
	c = w.OK(maint, "forum.topic.edit", m{"topic": 1, "body": "body 2"})
	if r := c.ForumRevision; r == nil || r.N != 2 || r.Title != "v2" || r.Body != "body 1" || r.Editor != maint || c.ForumTopic.Body != "body 2" {
		t.Fatalf("moderator's revision = %+v, topic %+v", c.ForumRevision, c.ForumTopic)
	}
	w.Fails(tx.CodeForbidden, stranger, "forum.topic.edit", m{"topic": 1, "title": "mine"})
	w.Fails(tx.CodeInvalidField, reader, "forum.topic.edit", m{"topic": 1})
	post := w.OK(writer, "forum.post.create", m{"topic": 1, "body": "p1"}).ForumPost.ID
	c = w.OK(writer, "forum.post.edit", m{"post": post, "body": "p2"})
	if r := c.ForumRevision; r == nil || r.Kind != "post" || r.ID != post || r.N != 1 || r.Body != "p1" || c.ForumPost.Body != "p2" {
		t.Fatalf("post revision = %+v", c.ForumRevision)
	}
	w.Fails(tx.CodeForbidden, reader, "forum.post.edit", m{"post": post, "body": "not mine"})
	if c := w.OK(maint, "forum.post.edit", m{"post": post, "body": "p2"}); c.ForumRevision != nil {
		t.Fatalf("an edit to the same text kept a revision: %+v", c.ForumRevision)
	}
}

// TestForumModeration: pin, lock and move are the moderators'; a locked
// topic refuses replies (topic_locked) and its author's edits; the
// announcements category is the moderators'.
func TestForumModeration(t *testing.T) {
	w := forumWorld(t)
	id := w.OK(reader, "forum.topic.create", m{"category": "general", "title": "t", "body": "b"}).ForumTopic.ID
	for _, action := range []string{"forum.topic.pin", "forum.topic.unpin", "forum.topic.lock", "forum.topic.unlock"} {
		w.Fails(tx.CodeForbidden, reader, action, m{"topic": id})
	}
	w.Fails(tx.CodeForbidden, reader, "forum.topic.move", m{"topic": id, "category": "help"})
	w.Fails(tx.CodeForbidden, reader, "forum.topic.edit", m{"topic": id, "category": "help"})
	w.Fails(tx.CodeForbidden, reader, "forum.topic.create", m{"category": "announcements", "title": "t", "body": "b"})
	w.OK(maint, "forum.topic.create", m{"category": "announcements", "title": "Release", "body": "b"})

	if c := w.OK(maint, "forum.topic.pin", m{"topic": id}); !c.ForumTopic.Pinned {
		t.Fatalf("pinned = %+v", c.ForumTopic)
	}
	if c := w.OK(maint, "forum.topic.move", m{"topic": id, "category": "help"}); c.ForumTopic.Category != "help" {
		t.Fatalf("moved = %+v", c.ForumTopic)
	}
	w.Fails(tx.CodeInvalidField, maint, "forum.topic.move", m{"topic": id, "category": "nowhere"})
	w.OK(writer, "forum.post.create", m{"topic": id, "body": "before the lock"})
	if c := w.OK(maint, "forum.topic.lock", m{"topic": id}); !c.ForumTopic.Locked {
		t.Fatalf("locked = %+v", c.ForumTopic)
	}
	w.Fails(tx.CodeTopicLocked, writer, "forum.post.create", m{"topic": id, "body": "after the lock"})
	w.Fails(tx.CodeTopicLocked, maint, "forum.post.create", m{"topic": id, "body": "after the lock"})
	w.Fails(tx.CodeTopicLocked, reader, "forum.topic.edit", m{"topic": id, "body": "sneaky"})
	w.Fails(tx.CodeTopicLocked, writer, "forum.post.edit", m{"post": 1, "body": "sneaky"})
	w.OK(maint, "forum.topic.edit", m{"topic": id, "body": "moderated"})
	w.OK(maint, "forum.topic.unlock", m{"topic": id})
	if c := w.OK(writer, "forum.post.create", m{"topic": id, "body": "open again"}); c.ForumTopic.Replies != 2 {
		t.Fatalf("replies = %d", c.ForumTopic.Replies)
	}
}

// TestForumAnswer: the topic's author or a moderator marks a post of the
// topic as the answer, and unmarks it with 0.
func TestForumAnswer(t *testing.T) {
	w := forumWorld(t)
	id := w.OK(reader, "forum.topic.create", m{"category": "help", "title": "t", "body": "b"}).ForumTopic.ID
	post := w.OK(writer, "forum.post.create", m{"topic": id, "body": "answer"}).ForumPost.ID
	other := w.OK(writer, "forum.topic.create", m{"category": "help", "title": "t2", "body": "b"}).ForumTopic.ID
	otherPost := w.OK(reader, "forum.post.create", m{"topic": other, "body": "x"}).ForumPost.ID
	w.Fails(tx.CodeForbidden, writer, "forum.topic.answer", m{"topic": id, "post": post})
	w.Fails(tx.CodeInvalidField, reader, "forum.topic.answer", m{"topic": id, "post": otherPost})
	if c := w.OK(reader, "forum.topic.answer", m{"topic": id, "post": post}); c.ForumTopic.Answer != post {
		t.Fatalf("answer = %+v", c.ForumTopic)
	}
	if c := w.OK(maint, "forum.topic.answer", m{"topic": id, "post": 0}); c.ForumTopic.Answer != 0 {
		t.Fatalf("unmarked = %+v", c.ForumTopic)
	}
}

// TestForumNotPrivate: a private store takes no forum action.
func TestForumNotPrivate(t *testing.T) {
	w := actiontest.New(t)
	w.Private = true
	w.Fails(tx.CodeForbidden, reader, "forum.topic.create", m{"category": "general", "title": "t", "body": "b"})
}
