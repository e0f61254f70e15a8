package community

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/api"
	"github.com/dforge/dforge/internal/api/itemjson"
	"github.com/dforge/dforge/internal/auth"
	chainforge "github.com/dforge/dforge/internal/chain/forge"
	chainforum "github.com/dforge/dforge/internal/chain/forum"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/forum"
	"github.com/dforge/dforge/internal/moderation"
	"github.com/dforge/dforge/internal/usererr"
)

// A forum topic's replies, the revisions of topics and replies, the
// accepted answer and the moderators' pin, lock and move (see forum.go).

// listForumPosts lists a topic's replies, oldest first.
func (a *Handler) listForumPosts(w http.ResponseWriter, r *http.Request) error {
	id, err := forumID(r, "topic")
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	// A page of rendered replies changes only with the projection: it is
	// built and encoded once per change (index.RememberAnswer), and only
	// what the viewer may do is picked per request.
	key := fmt.Sprintf("forum-posts|%d|%d|%d|%s", id, p.Number, p.Limit, api.SiteURL(r))
	kept, err := index.RememberAnswer(a.Forge.Index(), key, forumPostsSize, func() (keptForumPosts, error) {
		return a.forumPosts(r, id, p)
	})
	if err != nil {
		return err
	}
	me, mod, err := a.forumViewer(r)
	if err != nil {
		return err
	}
	mv := a.ModViewOf(r)
	items := make([][]byte, len(kept.posts))
	for i, post := range kept.posts {
		canEdit := mayEditPost(me, mod, post.Author.WalletAddress, kept.locked)
		if _, hidden := mv.Hidden(moderation.KindForumPost, moderation.ForumPostKey(post.ID)); !hidden {
			items[i] = kept.encoded[i][boolIndex(canEdit)]
			continue
		}
		post.CanEdit = canEdit
		maskForumPost(mv, &post)
		if items[i], err = json.Marshal(post); err != nil {
			return fmt.Errorf("encode forum post %d: %w", post.ID, err)
		}
	}
	var out api.EncodedJSON[[]forumPostJSON] = itemjson.Array(items) // declared, for the OpenAPI document
	return a.RespondList(w, r, p, kept.total, out, nil)
}

// keptForumPosts is a page of a topic's replies as every viewer sees it,
// and each reply encoded as one who may not edit it and one who may.
type keptForumPosts struct {
	posts   []forumPostJSON
	encoded [][2][]byte
	total   int64
	locked  bool
}

// forumPostsSize is what the read cache counts for a kept page: up to a
// hundred rendered replies, shaped and encoded twice.
const forumPostsSize = 768 << 10

// mayEditPost tells the reader me (the zero address: signed out), a
// moderator or not, whether the reply by author is theirs to edit, as
// mayEditForum decides when they try.
func mayEditPost(me common.Address, mod bool, author string, locked bool) bool {
	return mod || me != (common.Address{}) && strings.EqualFold(author, me.Hex()) && !locked
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (a *Handler) forumPosts(r *http.Request, id uint64, p index.Page) (keptForumPosts, error) {
	t, err := a.Forge.Index().Forum().TopicByID(r.Context(), id)
	if err != nil {
		return keptForumPosts{}, err
	}
	posts, total, err := a.Forge.Index().Forum().Posts(r.Context(), id, p)
	if err != nil {
		return keptForumPosts{}, err
	}
	kept := keptForumPosts{posts: make([]forumPostJSON, len(posts)), encoded: make([][2][]byte, len(posts)), total: total, locked: t.Locked}
	for i, post := range posts {
		j := a.toForumPostJSON(r, post, t.Answer)
		kept.posts[i] = j
		for _, canEdit := range []bool{false, true} {
			j.CanEdit = canEdit
			if kept.encoded[i][boolIndex(canEdit)], err = json.Marshal(j); err != nil {
				return keptForumPosts{}, fmt.Errorf("encode forum post %d: %w", post.ID, err)
			}
		}
	}
	return kept, nil
}

// forumViewer is the signed-in user (the zero address for none) and
// whether they moderate the forum.
func (a *Handler) forumViewer(r *http.Request) (common.Address, bool, error) {
	id := auth.IdentityFrom(r.Context())
	if id == nil {
		return common.Address{}, false, nil
	}
	mod, err := a.isForumModerator(id.User.Address)
	return id.User.Address, mod, err
}

func (a *Handler) toForumPostJSON(r *http.Request, p forum.Post, answer uint64) forumPostJSON {
	return forumPostJSON{ID: p.ID, TopicID: p.Topic, Author: api.ToForgeUser(r, p.Author), Body: p.Body,
		BodyHTML: a.RenderBody(r.Context(), nil, p.Body), QuoteID: p.Quote, Revisions: p.Revisions, IsAnswer: p.ID == answer,
		CreatedAt: forumTime(p.CreatedNS), UpdatedAt: forumTime(p.UpdatedNS)}
}

// createForumPost replies in a topic, optionally quoting one of its
// posts; a locked topic refuses it (409 topic_locked).
func (a *Handler) createForumPost(w http.ResponseWriter, r *http.Request) error {
	me, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	id, err := forumID(r, "topic")
	if err != nil {
		return err
	}
	var in forumPostBody
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	t, err := a.Forge.Index().Forum().TopicByID(r.Context(), id)
	if err != nil {
		return err
	}
	if t.Locked {
		return topicLockedError()
	}
	if err := checkForumBody(in.Body); err != nil {
		return err
	}
	if in.Quote != 0 {
		q, err := a.Forge.Index().Forum().PostByID(r.Context(), in.Quote)
		if err != nil || q.Topic != id {
			return usererr.BadFieldf("quote", "the quoted post must be a reply in this topic")
		}
	}
	res, err := a.Forge.Do(r.Context(), me.User.Address, chainforum.PostCreate{Topic: id, Body: in.Body, Quote: in.Quote})
	if err != nil {
		return err
	}
	return a.writeForumPost(w, r, http.StatusCreated, res.Change.ForumPost.ID)
}

func (a *Handler) writeForumPost(w http.ResponseWriter, r *http.Request, status int, id uint64) error {
	p, err := a.Forge.Index().Forum().PostByID(r.Context(), id)
	if err != nil {
		return err
	}
	t, err := a.Forge.Index().Forum().TopicByID(r.Context(), p.Topic)
	if err != nil {
		return err
	}
	me, mod, err := a.forumViewer(r)
	if err != nil {
		return err
	}
	out := a.toForumPostJSON(r, p, t.Answer)
	out.CanEdit = mayEditPost(me, mod, p.Author.Address, t.Locked)
	maskForumPost(a.ModViewOf(r), &out)
	api.WriteJSON(w, status, out)
	return nil
}

// getForumPost is one reply.
func (a *Handler) getForumPost(w http.ResponseWriter, r *http.Request) error {
	id, err := forumID(r, "post")
	if err != nil {
		return err
	}
	return a.writeForumPost(w, r, http.StatusOK, id)
}

// editForumPost changes a reply's text (its author, or a moderator); the
// text it replaces is kept as a revision.
func (a *Handler) editForumPost(w http.ResponseWriter, r *http.Request) error {
	me, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	id, err := forumID(r, "post")
	if err != nil {
		return err
	}
	var in forumPostEditBody
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	p, err := a.Forge.Index().Forum().PostByID(r.Context(), id)
	if err != nil {
		return err
	}
	t, err := a.Forge.Index().Forum().TopicByID(r.Context(), p.Topic)
	if err != nil {
		return err
	}
	if err := checkForumBody(in.Body); err != nil {
		return err
	}
	if err := a.mayEditForum(me.User.Address, p.Author, t.Locked); err != nil {
		return err
	}
	if _, err := a.Forge.Do(r.Context(), me.User.Address, chainforum.PostEdit{Post: id, Body: in.Body}); err != nil {
		return err
	}
	return a.writeForumPost(w, r, http.StatusOK, id)
}

// listForumTopicRevisions lists the texts a topic's edits replaced,
// newest first.
func (a *Handler) listForumTopicRevisions(w http.ResponseWriter, r *http.Request) error {
	return a.listForumRevisions(w, r, chainforge.ForumRevisionTopic, func(ctx context.Context, id uint64) error {
		_, err := a.Forge.Index().Forum().TopicByID(ctx, id)
		return err
	})
}

// listForumPostRevisions lists the texts a reply's edits replaced,
// newest first.
func (a *Handler) listForumPostRevisions(w http.ResponseWriter, r *http.Request) error {
	return a.listForumRevisions(w, r, chainforge.ForumRevisionPost, func(ctx context.Context, id uint64) error {
		_, err := a.Forge.Index().Forum().PostByID(ctx, id)
		return err
	})
}

func (a *Handler) listForumRevisions(w http.ResponseWriter, r *http.Request, kind string, exists func(context.Context, uint64) error) error {
	id, err := forumID(r, kind)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	if err := exists(r.Context(), id); err != nil {
		return err
	}
	revs, total, err := a.Forge.Index().Forum().Revisions(r.Context(), kind, id, p)
	if err != nil {
		return err
	}
	// A reply the moderators hid keeps its earlier texts hidden too.
	mv := a.ModViewOf(r)
	_, hidden := mv.Hidden(moderation.KindForumPost, moderation.ForumPostKey(id))
	hidden = hidden && kind == chainforge.ForumRevisionPost && !mv.Admin
	out := make([]forumRevisionJSON, len(revs))
	for i, rv := range revs {
		out[i] = forumRevisionJSON{N: rv.N, Title: rv.Title, Body: rv.Body, Editor: api.ToForgeUser(r, rv.Editor),
			Height: rv.Height, CreatedAt: forumTime(rv.TimeNS)}
		if hidden {
			out[i].Body = api.HiddenMarker
		}
	}
	return a.RespondList(w, r, p, total, out, nil)
}

// markForumAnswer marks a reply as the topic's accepted answer (the
// topic's author or a moderator).
func (a *Handler) markForumAnswer(w http.ResponseWriter, r *http.Request) error {
	var in forumAnswerBody
	if err := api.Decode(w, r, api.MaxTextBody, &in); err != nil {
		return err
	}
	if in.Post == 0 {
		return usererr.BadFieldf("post", "name the reply to mark as the answer")
	}
	return a.setForumAnswer(w, r, in.Post)
}

// unmarkForumAnswer clears the topic's accepted answer.
func (a *Handler) unmarkForumAnswer(w http.ResponseWriter, r *http.Request) error {
	return a.setForumAnswer(w, r, 0)
}

func (a *Handler) setForumAnswer(w http.ResponseWriter, r *http.Request, post uint64) error {
	me, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	id, err := forumID(r, "topic")
	if err != nil {
		return err
	}
	t, err := a.Forge.Index().Forum().TopicByID(r.Context(), id)
	if err != nil {
		return err
	}
	if post != 0 {
		p, err := a.Forge.Index().Forum().PostByID(r.Context(), post)
		if err != nil || p.Topic != id {
			return usererr.BadFieldf("post", "the answer must be a reply in this topic")
		}
	}
	if !strings.EqualFold(t.Author.Address, me.User.Address.Hex()) {
		if err := a.requireForumModerator(me.User.Address, "Only the topic's author or a forum moderator may mark its answer."); err != nil {
			return err
		}
	}
	if _, err := a.Forge.Do(r.Context(), me.User.Address, chainforum.TopicAnswer{Topic: id, Post: post}); err != nil {
		return err
	}
	return a.writeForumTopic(w, r, http.StatusOK, id)
}

// pinForumTopic pins a topic to the top of its lists (moderators).
func (a *Handler) pinForumTopic(w http.ResponseWriter, r *http.Request) error {
	return a.moderateForumTopic(w, r, func(id uint64) chainforge.Action { return chainforum.TopicPin{Topic: id} })
}

// unpinForumTopic unpins a topic (moderators).
func (a *Handler) unpinForumTopic(w http.ResponseWriter, r *http.Request) error {
	return a.moderateForumTopic(w, r, func(id uint64) chainforge.Action { return chainforum.TopicUnpin{Topic: id} })
}

// lockForumTopic locks a topic: it takes no more replies (moderators).
func (a *Handler) lockForumTopic(w http.ResponseWriter, r *http.Request) error {
	return a.moderateForumTopic(w, r, func(id uint64) chainforge.Action { return chainforum.TopicLock{Topic: id} })
}

// unlockForumTopic unlocks a topic (moderators).
func (a *Handler) unlockForumTopic(w http.ResponseWriter, r *http.Request) error {
	return a.moderateForumTopic(w, r, func(id uint64) chainforge.Action { return chainforum.TopicUnlock{Topic: id} })
}

// moveForumTopic moves a topic to another category (moderators).
func (a *Handler) moveForumTopic(w http.ResponseWriter, r *http.Request) error {
	var in forumMoveBody
	if err := api.Decode(w, r, api.MaxTextBody, &in); err != nil {
		return err
	}
	if !chainforum.ValidCategory(in.Category) {
		return forumCategoryError()
	}
	return a.moderateForumTopic(w, r, func(id uint64) chainforge.Action {
		return chainforum.TopicMove{Topic: id, Category: in.Category}
	})
}

// moderateForumTopic applies a moderator's action to the path's topic and
// answers the topic; anyone else gets 403 and nothing changes.
func (a *Handler) moderateForumTopic(w http.ResponseWriter, r *http.Request, action func(uint64) chainforge.Action) error {
	me, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	id, err := forumID(r, "topic")
	if err != nil {
		return err
	}
	if _, err := a.Forge.Index().Forum().TopicByID(r.Context(), id); err != nil {
		return err
	}
	if err := a.requireForumModerator(me.User.Address, "Only forum moderators may pin, lock or move topics."); err != nil {
		return err
	}
	if _, err := a.Forge.Do(r.Context(), me.User.Address, action(id)); err != nil {
		return err
	}
	return a.writeForumTopic(w, r, http.StatusOK, id)
}

// maskForumPost is maskComment for a forum reply.
func maskForumPost(v api.ModView, j *forumPostJSON) {
	j.Hidden, j.HiddenReason, j.Body, j.BodyHTML = v.MaskText(moderation.KindForumPost, moderation.ForumPostKey(j.ID), j.Body, j.BodyHTML)
}
