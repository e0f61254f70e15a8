package forge

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// Comments after they are written: their author (or a maintainer) edits
// or deletes them, and anyone who can read reacts to them. Content on
// chain cannot be erased: a deleted comment is marked deleted, and the
// projection stops showing its body.

// commentRef is what state keeps of a comment, to check edits, deletions
// and reactions against: where it is, who wrote it, whether it is
// deleted. Its body lives in the events only. Comments written before
// this record existed have none and cannot be edited.
type commentRef struct {
	Repo    uint64         `json:"repo"`
	Number  uint64         `json:"number"`
	Author  common.Address `json:"author"`
	Deleted bool           `json:"deleted,omitempty"`
}

func commentKey(id uint64) []byte { return key([]byte("comment"), u64(id)) }

// comment loads comment id of r, not deleted.
func (s *session) comment(r *Repo, id uint64) (*commentRef, error) {
	var c commentRef
	ok, err := s.getJSON(commentKey(id), &c)
	if err != nil {
		return nil, err
	}
	if !ok || c.Repo != r.ID || c.Deleted || id == 0 {
		return nil, notFound("%s has no comment %d", r.Name, id)
	}
	return &c, nil
}

// CommentEdit is the payload of comment.edit.
type CommentEdit struct {
	Repo    uint64 `json:"repo"`
	Comment uint64 `json:"comment"`
	Body    string `json:"body" text:"body"`
}

func commentEdit(s *session, payload []byte) error {
	var p CommentEdit
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, c, err := s.ownComment(p.Repo, p.Comment, "editing a comment")
	if err != nil {
		return err
	}
	if strings.TrimSpace(p.Body) == "" {
		return invalid("body", "must not be empty")
	}
	if err := validateText("body", p.Body, MaxBody); err != nil {
		return err
	}
	s.change.Comment = &Comment{ID: p.Comment, Repo: r.ID, Number: c.Number, Author: c.Author, Body: p.Body, Edited: true}
	return nil
}

// ownComment loads a comment the actor may edit or delete: their own, or
// any as a maintainer.
func (s *session) ownComment(repo, id uint64, what string) (*Repo, *commentRef, error) {
	r, perm, err := s.access(repo, PermRead, what)
	if err != nil {
		return nil, nil, err
	}
	c, err := s.comment(r, id)
	if err != nil {
		return nil, nil, err
	}
	if c.Author != s.actor && perm < PermMaintain {
		return nil, nil, forbidden("only its author or a maintainer may edit or delete comment %d", id)
	}
	return r, c, nil
}

// CommentDelete is the payload of comment.delete.
type CommentDelete struct {
	Repo    uint64 `json:"repo"`
	Comment uint64 `json:"comment"`
}

func commentDelete(s *session, payload []byte) error {
	var p CommentDelete
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, c, err := s.ownComment(p.Repo, p.Comment, "deleting a comment")
	if err != nil {
		return err
	}
	c.Deleted = true
	if err := s.putJSON(commentKey(p.Comment), c); err != nil {
		return err
	}
	is, err := s.issue(r.ID, c.Number)
	if err != nil {
		return err
	}
	if is.Comments > 0 {
		is.Comments--
	}
	s.change.Comment = &Comment{ID: p.Comment, Repo: r.ID, Number: c.Number, Author: c.Author, Deleted: true}
	return s.saveIssue(is)
}

// Reactions Gitea allows.
var reactions = []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"}

// ReactionSet is the payload of reaction.add and reaction.remove: a
// reaction of the actor on issue or pull request Number or, when Comment
// is set, on that comment of it.
type ReactionSet struct {
	Repo    uint64 `json:"repo"`
	Number  uint64 `json:"number"`
	Comment uint64 `json:"comment,omitempty"`
	Content string `json:"content"`
}

// Reaction is a reaction set or removed (On false).
type Reaction struct {
	Repo    uint64         `json:"repo"`
	Number  uint64         `json:"number"`
	Comment uint64         `json:"comment,omitempty"`
	User    common.Address `json:"user"`
	Content string         `json:"content"`
	On      bool           `json:"on"`
}

func reactionKey(repo, number, comment uint64, user common.Address, content string) []byte {
	return key([]byte("reaction"), u64(repo), u64(number), u64(comment), user.Bytes(), []byte(content))
}

func reactionSet(s *session, payload []byte, on bool) error {
	var p ReactionSet
	if err := decode(payload, &p); err != nil {
		return err
	}
	r, _, err := s.access(p.Repo, PermRead, "reacting")
	if err != nil {
		return err
	}
	if !containsString(reactions, p.Content) {
		return invalid("content", "must be one of %s", strings.Join(reactions, ", "))
	}
	if p.Comment != 0 {
		c, err := s.comment(r, p.Comment)
		if err != nil {
			return err
		}
		p.Number = c.Number
	} else if _, err := s.issue(r.ID, p.Number); err != nil {
		return err
	}
	k := reactionKey(r.ID, p.Number, p.Comment, s.actor, p.Content)
	v, err := s.kv.Get(k)
	if err != nil {
		return err
	}
	if was := !isNone(v); was == on {
		if on {
			return conflict("you already reacted with %s", p.Content)
		}
		return notFound("you have no %s reaction there", p.Content)
	}
	val := none
	if on {
		val = []byte{1}
	}
	if err := s.kv.Set(k, val); err != nil {
		return err
	}
	s.change.Reaction = &Reaction{Repo: r.ID, Number: p.Number, Comment: p.Comment, User: s.actor, Content: p.Content, On: on}
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Reactions is the set of reactions the chain accepts, in its order (a
// copy: callers may not change the chain's).
func Reactions() []string { return append([]string(nil), reactions...) }
