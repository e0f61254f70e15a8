// Package forum is the chain module of the community forum: topics in a
// few fixed categories, each with its replies (posts). It is public, so it
// is on chain; it never applies in a node's private store. Topics and posts
// keep their edit history: every edit's event carries the text it replaced
// (forge.Change.ForumRevision), which the index keeps.
//
// Its actions are forge actions: init registers them into the forge
// module's one actions table (forge.Register), so each is applied by
// forge.ApplyChange and gives one Forge event, whose records
// (forge.ForumTopic, ForumPost, ForumRevision) stay in the forge package.
// README.md is the spec.
//
// Who may do what, checked here so every node agrees:
//   - anyone creates topics and replies; a topic in "announcements" needs
//     the forum moderator role (roles.ForumModerator);
//   - a topic's or post's author, or a moderator, edits it; the topic's
//     author or a moderator marks its accepted answer;
//   - moderators alone pin, lock and move topics;
//   - a locked topic takes no reply (topic_locked), and only moderators
//     edit in it.
package forum

import (
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

func init() {
	forge.Register("forum.topic.create", TopicCreate{}, topicCreate)
	forge.Register("forum.topic.edit", TopicEdit{}, topicEdit)
	forge.Register("forum.topic.answer", TopicAnswer{}, topicAnswer)
	forge.Register("forum.topic.pin", TopicPin{}, func(s *forge.Session, p []byte) error { return topicFlag(s, p, false, true) })
	forge.Register("forum.topic.unpin", TopicUnpin{}, func(s *forge.Session, p []byte) error { return topicFlag(s, p, false, false) })
	forge.Register("forum.topic.lock", TopicLock{}, func(s *forge.Session, p []byte) error { return topicFlag(s, p, true, true) })
	forge.Register("forum.topic.unlock", TopicUnlock{}, func(s *forge.Session, p []byte) error { return topicFlag(s, p, true, false) })
	forge.Register("forum.topic.move", TopicMove{}, topicMove)
	forge.Register("forum.post.create", PostCreate{}, postCreate)
	forge.Register("forum.post.edit", PostEdit{}, postEdit)
}

// Forum categories, in the order pages show them.
const (
	General       = "general"
	Help          = "help"
	Showcase      = "showcase"
	Development   = "development"
	Announcements = "announcements"
)

// Categories lists every category.
var Categories = []string{General, Help, Showcase, Development, Announcements}

// ValidCategory reports whether c is one of Categories.
func ValidCategory(c string) bool { return slices.Contains(Categories, c) }

// Payloads of the forum's actions.
type (
	// TopicCreate opens a topic.
	TopicCreate struct {
		Category string `json:"category"`
		Title    string `json:"title"`
		Body     string `json:"body" text:"body"`
	}
	// TopicEdit changes a topic's title or body (its author or a
	// moderator) and, for a moderator, its category; absent fields stay.
	TopicEdit struct {
		Topic    uint64  `json:"topic"`
		Title    *string `json:"title,omitempty"`
		Body     *string `json:"body,omitempty" text:"body"`
		Category *string `json:"category,omitempty"`
	}
	// PostCreate replies in a topic, optionally quoting one of its
	// posts.
	PostCreate struct {
		Topic uint64 `json:"topic"`
		Body  string `json:"body" text:"body"`
		Quote uint64 `json:"quote,omitempty"`
	}
	// PostEdit changes a post's body.
	PostEdit struct {
		Post uint64 `json:"post"`
		Body string `json:"body" text:"body"`
	}
	// TopicAnswer marks Post as the topic's accepted answer; 0
	// unmarks it.
	TopicAnswer struct {
		Topic uint64 `json:"topic"`
		Post  uint64 `json:"post"`
	}
	// TopicFlag names the topic of pin, unpin, lock and unlock.
	TopicFlag struct {
		Topic uint64 `json:"topic"`
	}
	// TopicMove moves a topic to another category.
	TopicMove struct {
		Topic    uint64 `json:"topic"`
		Category string `json:"category"`
	}
)

// The flag actions share TopicFlag's shape.
type (
	TopicPin    TopicFlag
	TopicUnpin  TopicFlag
	TopicLock   TopicFlag
	TopicUnlock TopicFlag
)

func (TopicCreate) ActionName() string { return "forum.topic.create" }
func (TopicEdit) ActionName() string   { return "forum.topic.edit" }
func (PostCreate) ActionName() string  { return "forum.post.create" }
func (PostEdit) ActionName() string    { return "forum.post.edit" }
func (TopicAnswer) ActionName() string { return "forum.topic.answer" }
func (TopicPin) ActionName() string    { return "forum.topic.pin" }
func (TopicUnpin) ActionName() string  { return "forum.topic.unpin" }
func (TopicLock) ActionName() string   { return "forum.topic.lock" }
func (TopicUnlock) ActionName() string { return "forum.topic.unlock" }
func (TopicMove) ActionName() string   { return "forum.topic.move" }

// State keys: forge/forumtopic/<id> and forge/forumpost/<id>, under the
// forge module's prefix, where they were before the forum had its own
// package (the app hash depends on them).
func topicKey(id uint64) []byte { return forge.StateKey([]byte("forumtopic"), state.Uint64(id)) }
func postKey(id uint64) []byte  { return forge.StateKey([]byte("forumpost"), state.Uint64(id)) }

// begin is the start of every forum action: the forum is public, so a
// private store refuses it.
func begin(s *forge.Session, payload []byte, dst any) error {
	if s.Env().Private {
		return forge.Forbidden("the forum is public: it is on chain, never in a private store")
	}
	return forge.Decode(payload, dst)
}

func loadTopic(s *forge.Session, id uint64) (*forge.ForumTopic, error) {
	var t forge.ForumTopic
	ok, err := s.GetJSON(topicKey(id), &t)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 {
		return nil, forge.NotFound("forum topic %d does not exist", id)
	}
	return &t, nil
}

func loadPost(s *forge.Session, id uint64) (*forge.ForumPost, error) {
	var p forge.ForumPost
	ok, err := s.GetJSON(postKey(id), &p)
	if err != nil {
		return nil, err
	}
	if !ok || id == 0 {
		return nil, forge.NotFound("forum post %d does not exist", id)
	}
	return &p, nil
}

func saveTopic(s *forge.Session, t *forge.ForumTopic) error {
	t.UpdatedHeight = s.Env().Height
	if err := s.PutJSON(topicKey(t.ID), t); err != nil {
		return err
	}
	s.Change().ForumTopic = t
	return nil
}

func savePost(s *forge.Session, p *forge.ForumPost) error {
	p.UpdatedHeight = s.Env().Height
	if err := s.PutJSON(postKey(p.ID), p); err != nil {
		return err
	}
	s.Change().ForumPost = p
	return nil
}

// moderator reports whether the actor holds the forum moderator role.
func moderator(s *forge.Session) (bool, error) {
	return roles.Has(s.KV(), s.Actor(), roles.ForumModerator)
}

// requireModerator refuses an actor without the moderator role.
func requireModerator(s *forge.Session, what string) error {
	ok, err := moderator(s)
	if err != nil {
		return err
	}
	if !ok {
		return forge.Forbidden("%s needs the forum moderator role", what)
	}
	return nil
}

func validateCategory(c string) error {
	if !ValidCategory(c) {
		return forge.Invalid("category", "must be one of %s", strings.Join(Categories, ", "))
	}
	return nil
}

// validateBody: 1 to MaxBody bytes, not only spaces.
func validateBody(body string) error {
	if strings.TrimSpace(body) == "" {
		return forge.Invalid("body", "must not be empty")
	}
	if len(body) > forge.MaxBody {
		return forge.Invalid("body", "is %d bytes; the most is %d", len(body), forge.MaxBody)
	}
	return nil
}

// topicLocked is the refusal of a reply (or an author's edit) in a locked
// topic.
func topicLocked(id uint64) error {
	return tx.NewError(tx.CodeTopicLocked, "forum topic %d is locked: it takes no more replies or edits", id)
}

func topicCreate(s *forge.Session, payload []byte) error {
	var p TopicCreate
	if err := begin(s, payload, &p); err != nil {
		return err
	}
	if err := validateCategory(p.Category); err != nil {
		return err
	}
	if err := forge.ValidateTitle(p.Title); err != nil {
		return err
	}
	if err := validateBody(p.Body); err != nil {
		return err
	}
	if p.Category == Announcements {
		if err := requireModerator(s, "opening a topic in announcements"); err != nil {
			return err
		}
	}
	id, err := s.NextID("forumtopic")
	if err != nil {
		return err
	}
	h := s.Env().Height
	t := &forge.ForumTopic{ID: id, Category: p.Category, Title: p.Title, Body: p.Body, Author: s.Actor(),
		LastPostHeight: h, CreatedHeight: h}
	return saveTopic(s, t)
}

func topicEdit(s *forge.Session, payload []byte) error {
	var p TopicEdit
	if err := begin(s, payload, &p); err != nil {
		return err
	}
	if p.Title == nil && p.Body == nil && p.Category == nil {
		return forge.Invalid("title", "an edit must change the title, the body or the category")
	}
	t, err := loadTopic(s, p.Topic)
	if err != nil {
		return err
	}
	if err := mayEdit(s, t, t.Author, "the topic"); err != nil {
		return err
	}
	old := forge.ForumRevision{Kind: forge.ForumRevisionTopic, ID: t.ID, Title: t.Title, Body: t.Body, Editor: s.Actor()}
	if p.Title != nil {
		if err := forge.ValidateTitle(*p.Title); err != nil {
			return err
		}
		t.Title = *p.Title
	}
	if p.Body != nil {
		if err := validateBody(*p.Body); err != nil {
			return err
		}
		t.Body = *p.Body
	}
	if p.Category != nil && *p.Category != t.Category {
		if err := moveTopic(s, t, *p.Category); err != nil {
			return err
		}
	}
	if t.Title != old.Title || t.Body != old.Body {
		t.Revisions++
		old.N = t.Revisions
		s.Change().ForumRevision = &old
	}
	return saveTopic(s, t)
}

// mayEdit lets the author or a moderator edit; in a locked topic only a
// moderator.
func mayEdit(s *forge.Session, t *forge.ForumTopic, author common.Address, what string) error {
	mod, err := moderator(s)
	if err != nil {
		return err
	}
	switch {
	case mod:
		return nil
	case author != s.Actor():
		return forge.Forbidden("only its author or a forum moderator may edit %s", what)
	case t.Locked:
		return topicLocked(t.ID)
	}
	return nil
}

// moveTopic puts t in category; moderators only.
func moveTopic(s *forge.Session, t *forge.ForumTopic, category string) error {
	if err := validateCategory(category); err != nil {
		return err
	}
	if err := requireModerator(s, "moving a topic"); err != nil {
		return err
	}
	t.Category = category
	return nil
}

func postCreate(s *forge.Session, payload []byte) error {
	var p PostCreate
	if err := begin(s, payload, &p); err != nil {
		return err
	}
	t, err := loadTopic(s, p.Topic)
	if err != nil {
		return err
	}
	if t.Locked {
		return topicLocked(t.ID)
	}
	if err := validateBody(p.Body); err != nil {
		return err
	}
	if p.Quote != 0 {
		q, err := loadPost(s, p.Quote)
		if err != nil || q.Topic != t.ID {
			return forge.Invalid("quote", "must be a post of topic %d", t.ID)
		}
	}
	id, err := s.NextID("forumpost")
	if err != nil {
		return err
	}
	h := s.Env().Height
	post := &forge.ForumPost{ID: id, Topic: t.ID, Author: s.Actor(), Body: p.Body, Quote: p.Quote, CreatedHeight: h}
	if err := savePost(s, post); err != nil {
		return err
	}
	t.Replies++
	t.LastPostHeight = h
	return saveTopic(s, t)
}

func postEdit(s *forge.Session, payload []byte) error {
	var p PostEdit
	if err := begin(s, payload, &p); err != nil {
		return err
	}
	post, err := loadPost(s, p.Post)
	if err != nil {
		return err
	}
	t, err := loadTopic(s, post.Topic)
	if err != nil {
		return err
	}
	if err := mayEdit(s, t, post.Author, "the post"); err != nil {
		return err
	}
	if err := validateBody(p.Body); err != nil {
		return err
	}
	if p.Body == post.Body {
		s.Change().ForumPost = post // nothing to keep: the same text
		return nil
	}
	post.Revisions++
	s.Change().ForumRevision = &forge.ForumRevision{Kind: forge.ForumRevisionPost, ID: post.ID, N: post.Revisions, Body: post.Body, Editor: s.Actor()}
	post.Body = p.Body
	return savePost(s, post)
}

func topicAnswer(s *forge.Session, payload []byte) error {
	var p TopicAnswer
	if err := begin(s, payload, &p); err != nil {
		return err
	}
	t, err := loadTopic(s, p.Topic)
	if err != nil {
		return err
	}
	if t.Author != s.Actor() {
		if err := requireModerator(s, "marking the answer of another's topic"); err != nil {
			return err
		}
	}
	if p.Post != 0 {
		post, err := loadPost(s, p.Post)
		if err != nil || post.Topic != t.ID {
			return forge.Invalid("post", "must be a post of topic %d", t.ID)
		}
	}
	t.Answer = p.Post
	return saveTopic(s, t)
}

// topicFlag pins or locks a topic, or clears it; moderators only. Setting
// a flag as it is changes nothing, like a star.
func topicFlag(s *forge.Session, payload []byte, lock, on bool) error {
	var p TopicFlag
	if err := begin(s, payload, &p); err != nil {
		return err
	}
	t, err := loadTopic(s, p.Topic)
	if err != nil {
		return err
	}
	what := "pinning or unpinning a topic"
	if lock {
		what = "locking or unlocking a topic"
	}
	if err := requireModerator(s, what); err != nil {
		return err
	}
	if lock {
		t.Locked = on
	} else {
		t.Pinned = on
	}
	return saveTopic(s, t)
}

func topicMove(s *forge.Session, payload []byte) error {
	var p TopicMove
	if err := begin(s, payload, &p); err != nil {
		return err
	}
	t, err := loadTopic(s, p.Topic)
	if err != nil {
		return err
	}
	if err := moveTopic(s, t, p.Category); err != nil {
		return err
	}
	return saveTopic(s, t)
}
