package forge

import (
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
)

// The community forum: topics in a few fixed categories, each with its
// replies (posts). It is public, so it is on chain, in this module next to
// the issues it resembles; it never applies in a node's private store.
// Topics and posts keep their edit history: every edit's event carries
// the text it replaced (Change.ForumRevision), which the index keeps.
//
// Who may do what, checked here so every node agrees:
//   - anyone creates topics and replies; a topic in "announcements" needs
//     the forum moderator role (roles.ForumModerator);
//   - a topic's or post's author, or a moderator, edits it; the topic's
//     author or a moderator marks its accepted answer;
//   - moderators alone pin, lock and move topics;
//   - a locked topic takes no reply (topic_locked), and only moderators
//     edit in it.

// Forum categories, in the order pages show them.
const (
	ForumGeneral       = "general"
	ForumHelp          = "help"
	ForumShowcase      = "showcase"
	ForumDevelopment   = "development"
	ForumAnnouncements = "announcements"
)

// ForumCategories lists every category.
var ForumCategories = []string{ForumGeneral, ForumHelp, ForumShowcase, ForumDevelopment, ForumAnnouncements}

// ValidForumCategory reports whether c is one of ForumCategories.
func ValidForumCategory(c string) bool { return slices.Contains(ForumCategories, c) }

// ForumTopic is a forum topic: its opening text and the counters and
// flags the projection shows.
type ForumTopic struct {
	ID       uint64         `json:"id"`
	Category string         `json:"category"`
	Title    string         `json:"title"`
	Body     string         `json:"body"`
	Author   common.Address `json:"author"`
	Pinned   bool           `json:"pinned,omitempty"`
	Locked   bool           `json:"locked,omitempty"`
	// Answer is the accepted answer, a post of this topic; 0 for none.
	Answer uint64 `json:"answer,omitempty"`
	// Replies counts its posts; LastPostHeight is when the newest came
	// (the creation for none): lists sort by it.
	Replies        uint64 `json:"replies"`
	LastPostHeight uint64 `json:"lastPostHeight"`
	// Revisions counts its edits of title or body.
	Revisions     uint64 `json:"revisions,omitempty"`
	CreatedHeight uint64 `json:"createdHeight"`
	UpdatedHeight uint64 `json:"updatedHeight"`
}

// ForumPost is a reply in a topic. Quote is the post of the same topic it
// quotes; 0 for none.
type ForumPost struct {
	ID            uint64         `json:"id"`
	Topic         uint64         `json:"topic"`
	Author        common.Address `json:"author"`
	Body          string         `json:"body"`
	Quote         uint64         `json:"quote,omitempty"`
	Revisions     uint64         `json:"revisions,omitempty"`
	CreatedHeight uint64         `json:"createdHeight"`
	UpdatedHeight uint64         `json:"updatedHeight"`
}

// Kinds of forum revisions.
const (
	ForumRevisionTopic = "topic"
	ForumRevisionPost  = "post"
)

// ForumRevision is the text an edit replaced: revision N (1 for the
// first edit) of topic or post ID, as it was before, and who edited it.
type ForumRevision struct {
	Kind   string         `json:"kind"`
	ID     uint64         `json:"id"`
	N      uint64         `json:"n"`
	Title  string         `json:"title,omitempty"`
	Body   string         `json:"body"`
	Editor common.Address `json:"editor"`
}

// Payloads of the forum's actions.
type (
	// ForumTopicCreate opens a topic.
	ForumTopicCreate struct {
		Category string `json:"category"`
		Title    string `json:"title"`
		Body     string `json:"body" text:"body"`
	}
	// ForumTopicEdit changes a topic's title or body (its author or a
	// moderator) and, for a moderator, its category; absent fields stay.
	ForumTopicEdit struct {
		Topic    uint64  `json:"topic"`
		Title    *string `json:"title,omitempty"`
		Body     *string `json:"body,omitempty" text:"body"`
		Category *string `json:"category,omitempty"`
	}
	// ForumPostCreate replies in a topic, optionally quoting one of its
	// posts.
	ForumPostCreate struct {
		Topic uint64 `json:"topic"`
		Body  string `json:"body" text:"body"`
		Quote uint64 `json:"quote,omitempty"`
	}
	// ForumPostEdit changes a post's body.
	ForumPostEdit struct {
		Post uint64 `json:"post"`
		Body string `json:"body" text:"body"`
	}
	// ForumTopicAnswer marks Post as the topic's accepted answer; 0
	// unmarks it.
	ForumTopicAnswer struct {
		Topic uint64 `json:"topic"`
		Post  uint64 `json:"post"`
	}
	// ForumTopicFlag names the topic of pin, unpin, lock and unlock.
	ForumTopicFlag struct {
		Topic uint64 `json:"topic"`
	}
	// ForumTopicMove moves a topic to another category.
	ForumTopicMove struct {
		Topic    uint64 `json:"topic"`
		Category string `json:"category"`
	}
)

// The flag actions share ForumTopicFlag's shape.
type (
	ForumTopicPin    ForumTopicFlag
	ForumTopicUnpin  ForumTopicFlag
	ForumTopicLock   ForumTopicFlag
	ForumTopicUnlock ForumTopicFlag
)

func (ForumTopicCreate) ActionName() string { return "forum.topic.create" }
func (ForumTopicEdit) ActionName() string   { return "forum.topic.edit" }
func (ForumPostCreate) ActionName() string  { return "forum.post.create" }
func (ForumPostEdit) ActionName() string    { return "forum.post.edit" }
func (ForumTopicAnswer) ActionName() string { return "forum.topic.answer" }
func (ForumTopicPin) ActionName() string    { return "forum.topic.pin" }
func (ForumTopicUnpin) ActionName() string  { return "forum.topic.unpin" }
func (ForumTopicLock) ActionName() string   { return "forum.topic.lock" }
func (ForumTopicUnlock) ActionName() string { return "forum.topic.unlock" }
func (ForumTopicMove) ActionName() string   { return "forum.topic.move" }

func forumTopicKey(id uint64) []byte { return key([]byte("forumtopic"), u64(id)) }
func forumPostKey(id uint64) []byte  { return key([]byte("forumpost"), u64(id)) }

// forumSession is the start of every forum action: the forum is public,
// so a private store refuses it.
func forumSession(s *session, payload []byte, dst any) error {
	if s.env.Private {
		return forbidden("the forum is public: it is on chain, never in a private store")
	}
	return decode(payload, dst)
}

func (s *session) forumTopic(id uint64) (*ForumTopic, error) {
	var t ForumTopic
	ok, err := s.getJSON(forumTopicKey(id), &t)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 {
		return nil, notFound("forum topic %d does not exist", id)
	}
	return &t, nil
}

func (s *session) forumPost(id uint64) (*ForumPost, error) {
	var p ForumPost
	ok, err := s.getJSON(forumPostKey(id), &p)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 {
		return nil, notFound("forum post %d does not exist", id)
	}
	return &p, nil
}

func (s *session) saveForumTopic(t *ForumTopic) error {
	t.UpdatedHeight = s.env.Height
	if err := s.putJSON(forumTopicKey(t.ID), t); err != nil {
		return err
	}
	s.change.ForumTopic = t
	return nil
}

func (s *session) saveForumPost(p *ForumPost) error {
	p.UpdatedHeight = s.env.Height
	if err := s.putJSON(forumPostKey(p.ID), p); err != nil {
		return err
	}
	s.change.ForumPost = p
	return nil
}

// moderator reports whether the actor holds the forum moderator role.
func (s *session) moderator() (bool, error) {
	return roles.Has(s.kv, s.actor, roles.ForumModerator)
}

// requireModerator refuses an actor without the moderator role.
func (s *session) requireModerator(what string) error {
	ok, err := s.moderator()
	if err != nil {
		return err
	}
	if !ok {
		return forbidden("%s needs the forum moderator role", what)
	}
	return nil
}

func validateForumCategory(c string) error {
	if !ValidForumCategory(c) {
		return invalid("category", "must be one of %s", strings.Join(ForumCategories, ", "))
	}
	return nil
}

// validateForumBody: 1 to MaxBody bytes, not only spaces.
func validateForumBody(body string) error {
	if strings.TrimSpace(body) == "" {
		return invalid("body", "must not be empty")
	}
	if len(body) > MaxBody {
		return invalid("body", "is %d bytes; the most is %d", len(body), MaxBody)
	}
	return nil
}

// topicLocked is the refusal of a reply (or an author's edit) in a locked
// topic.
func topicLocked(id uint64) error {
	return tx.NewError(tx.CodeTopicLocked, "forum topic %d is locked: it takes no more replies or edits", id)
}

func forumTopicCreate(s *session, payload []byte) error {
	var p ForumTopicCreate
	if err := forumSession(s, payload, &p); err != nil {
		return err
	}
	if err := validateForumCategory(p.Category); err != nil {
		return err
	}
	if err := validateTitle(p.Title); err != nil {
		return err
	}
	if err := validateForumBody(p.Body); err != nil {
		return err
	}
	if p.Category == ForumAnnouncements {
		if err := s.requireModerator("opening a topic in announcements"); err != nil {
			return err
		}
	}
	id, err := s.nextID("forumtopic")
	if err != nil {
		return err
	}
	t := &ForumTopic{ID: id, Category: p.Category, Title: p.Title, Body: p.Body, Author: s.actor,
		LastPostHeight: s.env.Height, CreatedHeight: s.env.Height}
	return s.saveForumTopic(t)
}

func forumTopicEdit(s *session, payload []byte) error {
	var p ForumTopicEdit
	if err := forumSession(s, payload, &p); err != nil {
		return err
	}
	if p.Title == nil && p.Body == nil && p.Category == nil {
		return invalid("title", "an edit must change the title, the body or the category")
	}
	t, err := s.forumTopic(p.Topic)
	if err != nil {
		return err
	}
	if err := s.mayEditForum(t, t.Author, "the topic"); err != nil {
		return err
	}
	old := ForumRevision{Kind: ForumRevisionTopic, ID: t.ID, Title: t.Title, Body: t.Body, Editor: s.actor}
	if p.Title != nil {
		if err := validateTitle(*p.Title); err != nil {
			return err
		}
		t.Title = *p.Title
	}
	if p.Body != nil {
		if err := validateForumBody(*p.Body); err != nil {
			return err
		}
		t.Body = *p.Body
	}
	if p.Category != nil && *p.Category != t.Category {
		if err := s.moveTopic(t, *p.Category); err != nil {
			return err
		}
	}
	if t.Title != old.Title || t.Body != old.Body {
		t.Revisions++
		old.N = t.Revisions
		s.change.ForumRevision = &old
	}
	return s.saveForumTopic(t)
}

// mayEditForum lets the author or a moderator edit; in a locked topic only
// a moderator.
func (s *session) mayEditForum(t *ForumTopic, author common.Address, what string) error {
	mod, err := s.moderator()
	if err != nil {
		return err
	}
	switch {
	case mod:
		return nil
	case author != s.actor:
		return forbidden("only its author or a forum moderator may edit %s", what)
	case t.Locked:
		return topicLocked(t.ID)
	}
	return nil
}

// moveTopic puts t in category; moderators only.
func (s *session) moveTopic(t *ForumTopic, category string) error {
	if err := validateForumCategory(category); err != nil {
		return err
	}
	if err := s.requireModerator("moving a topic"); err != nil {
		return err
	}
	t.Category = category
	return nil
}

func forumPostCreate(s *session, payload []byte) error {
	var p ForumPostCreate
	if err := forumSession(s, payload, &p); err != nil {
		return err
	}
	t, err := s.forumTopic(p.Topic)
	if err != nil {
		return err
	}
	if t.Locked {
		return topicLocked(t.ID)
	}
	if err := validateForumBody(p.Body); err != nil {
		return err
	}
	if p.Quote != 0 {
		q, err := s.forumPost(p.Quote)
		if err != nil || q.Topic != t.ID {
			return invalid("quote", "must be a post of topic %d", t.ID)
		}
	}
	id, err := s.nextID("forumpost")
	if err != nil {
		return err
	}
	post := &ForumPost{ID: id, Topic: t.ID, Author: s.actor, Body: p.Body, Quote: p.Quote, CreatedHeight: s.env.Height}
	if err := s.saveForumPost(post); err != nil {
		return err
	}
	t.Replies++
	t.LastPostHeight = s.env.Height
	return s.saveForumTopic(t)
}

func forumPostEdit(s *session, payload []byte) error {
	var p ForumPostEdit
	if err := forumSession(s, payload, &p); err != nil {
		return err
	}
	post, err := s.forumPost(p.Post)
	if err != nil {
		return err
	}
	t, err := s.forumTopic(post.Topic)
	if err != nil {
		return err
	}
	if err := s.mayEditForum(t, post.Author, "the post"); err != nil {
		return err
	}
	if err := validateForumBody(p.Body); err != nil {
		return err
	}
	if p.Body == post.Body {
		s.change.ForumPost = post // nothing to keep: the same text
		return nil
	}
	post.Revisions++
	s.change.ForumRevision = &ForumRevision{Kind: ForumRevisionPost, ID: post.ID, N: post.Revisions, Body: post.Body, Editor: s.actor}
	post.Body = p.Body
	return s.saveForumPost(post)
}

func forumTopicAnswer(s *session, payload []byte) error {
	var p ForumTopicAnswer
	if err := forumSession(s, payload, &p); err != nil {
		return err
	}
	t, err := s.forumTopic(p.Topic)
	if err != nil {
		return err
	}
	if t.Author != s.actor {
		if err := s.requireModerator("marking the answer of another's topic"); err != nil {
			return err
		}
	}
	if p.Post != 0 {
		post, err := s.forumPost(p.Post)
		if err != nil || post.Topic != t.ID {
			return invalid("post", "must be a post of topic %d", t.ID)
		}
	}
	t.Answer = p.Post
	return s.saveForumTopic(t)
}

// forumTopicFlag pins or locks (field) a topic, or clears it; moderators
// only. Setting a flag as it is changes nothing, like a star.
func forumTopicFlag(s *session, payload []byte, lock, on bool) error {
	var p ForumTopicFlag
	if err := forumSession(s, payload, &p); err != nil {
		return err
	}
	t, err := s.forumTopic(p.Topic)
	if err != nil {
		return err
	}
	what := "pinning or unpinning a topic"
	if lock {
		what = "locking or unlocking a topic"
	}
	if err := s.requireModerator(what); err != nil {
		return err
	}
	if lock {
		t.Locked = on
	} else {
		t.Pinned = on
	}
	return s.saveForumTopic(t)
}

func forumTopicMove(s *session, payload []byte) error {
	var p ForumTopicMove
	if err := forumSession(s, payload, &p); err != nil {
		return err
	}
	t, err := s.forumTopic(p.Topic)
	if err != nil {
		return err
	}
	if err := s.moveTopic(t, p.Category); err != nil {
		return err
	}
	return s.saveForumTopic(t)
}
