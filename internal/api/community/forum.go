package community

import (
	"fmt"
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	chainforum "github.com/dforge/dforge/internal/chain/forum"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/forum"
	"github.com/dforge/dforge/internal/usererr"
)

// The community forum (a dForge extension, /api/v1/forum): topics in
// fixed categories with their replies, on chain as the forum.* forge
// actions and read from the index. Every write is checked here first
// (the field named, 403 for moderation without the role, 409
// topic_locked on a locked topic), and again by the state machine.

func (a *Handler) RegisterForum(mux *http.ServeMux) {
	if a.Forge == nil || a.Chain == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("GET /api/v1/forum/categories", a.Serve(a.listForumCategories))
	mux.HandleFunc("GET /api/v1/forum/topics", a.Serve(a.listForumTopics))
	mux.HandleFunc("POST /api/v1/forum/topics", user(auth.ScopeWrite, a.createForumTopic))
	mux.HandleFunc("GET /api/v1/forum/topics/{id}", a.Serve(a.getForumTopic))
	mux.HandleFunc("PATCH /api/v1/forum/topics/{id}", user(auth.ScopeWrite, a.editForumTopic))
	mux.HandleFunc("GET /api/v1/forum/topics/{id}/posts", a.Serve(a.listForumPosts))
	mux.HandleFunc("POST /api/v1/forum/topics/{id}/posts", user(auth.ScopeWrite, a.createForumPost))
	mux.HandleFunc("GET /api/v1/forum/topics/{id}/revisions", a.Serve(a.listForumTopicRevisions))
	mux.HandleFunc("PUT /api/v1/forum/topics/{id}/answer", user(auth.ScopeWrite, a.markForumAnswer))
	mux.HandleFunc("DELETE /api/v1/forum/topics/{id}/answer", user(auth.ScopeWrite, a.unmarkForumAnswer))
	mux.HandleFunc("PUT /api/v1/forum/topics/{id}/pin", user(auth.ScopeWrite, a.pinForumTopic))
	mux.HandleFunc("DELETE /api/v1/forum/topics/{id}/pin", user(auth.ScopeWrite, a.unpinForumTopic))
	mux.HandleFunc("PUT /api/v1/forum/topics/{id}/lock", user(auth.ScopeWrite, a.lockForumTopic))
	mux.HandleFunc("DELETE /api/v1/forum/topics/{id}/lock", user(auth.ScopeWrite, a.unlockForumTopic))
	mux.HandleFunc("POST /api/v1/forum/topics/{id}/move", user(auth.ScopeWrite, a.moveForumTopic))
	mux.HandleFunc("GET /api/v1/forum/posts/{id}", a.Serve(a.getForumPost))
	mux.HandleFunc("PATCH /api/v1/forum/posts/{id}", user(auth.ScopeWrite, a.editForumPost))
	mux.HandleFunc("GET /api/v1/forum/posts/{id}/revisions", a.Serve(a.listForumPostRevisions))
}

// forumCategoryJSON is a category with its number of topics.
type forumCategoryJSON struct {
	Name   string `json:"name"`
	Topics int64  `json:"topics"`
}

// forumTopicJSON is a topic as lists show it.
type forumTopicJSON struct {
	ID       uint64            `json:"id"`
	Title    string            `json:"title"`
	Category string            `json:"category"`
	Author   api.ForgeUserJSON `json:"author"`
	Pinned   bool              `json:"pinned"`
	Locked   bool              `json:"locked"`
	// Answered says a reply is marked as the accepted answer
	// (answer_post_id).
	Answered     bool      `json:"answered"`
	AnswerPostID uint64    `json:"answer_post_id"`
	Replies      uint64    `json:"replies"`
	Revisions    uint64    `json:"revisions"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
	LastPostAt   time.Time `json:"last_post_at"`
	HTMLURL      string    `json:"html_url"`
}

// forumTopicDetailJSON is a topic with its text and what the signed-in
// user may do with it.
type forumTopicDetailJSON struct {
	forumTopicJSON
	Body     string `json:"body"`
	BodyHTML string `json:"body_html"`
	// CanEdit: the user wrote it or moderates the forum (and, on a
	// locked topic, only the latter).
	CanEdit bool `json:"can_edit"`
	// CanAnswer: the user may mark the accepted answer.
	CanAnswer bool `json:"can_answer"`
	// CanModerate: the user holds the forum moderator role (pin, lock,
	// move, edit anything).
	CanModerate bool `json:"can_moderate"`
	// CanReply: the user is signed in and the topic is not locked.
	CanReply bool `json:"can_reply"`
}

// forumPostJSON is a reply in a topic.
type forumPostJSON struct {
	ID        uint64            `json:"id"`
	TopicID   uint64            `json:"topic_id"`
	Author    api.ForgeUserJSON `json:"author"`
	Body      string            `json:"body"`
	BodyHTML  string            `json:"body_html"`
	QuoteID   uint64            `json:"quote_id"`
	Revisions uint64            `json:"revisions"`
	IsAnswer  bool              `json:"is_answer"`
	CanEdit   bool              `json:"can_edit"`
	// Hidden: this node's moderators hid it (reported); everyone but the
	// node's admins gets a marker instead of its text.
	Hidden       bool      `json:"hidden"`
	HiddenReason string    `json:"hidden_reason,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// forumRevisionJSON is the text one edit replaced: revision n (1 is the
// first edit), with the title for a topic's.
type forumRevisionJSON struct {
	N         uint64            `json:"n"`
	Title     string            `json:"title"`
	Body      string            `json:"body"`
	Editor    api.ForgeUserJSON `json:"editor"`
	Height    int64             `json:"height"`
	CreatedAt time.Time         `json:"created_at"`
}

// forumTopicBody opens a topic.
type forumTopicBody struct {
	Category string `json:"category"`
	Title    string `json:"title"`
	Body     string `json:"body"`
}

// forumTopicEditBody edits a topic; absent fields stay. A category (a
// moderator's) moves it.
type forumTopicEditBody struct {
	Title    *string `json:"title"`
	Body     *string `json:"body"`
	Category *string `json:"category"`
}

// forumPostBody is a reply; quote is a post of the same topic it quotes.
type forumPostBody struct {
	Body  string `json:"body"`
	Quote uint64 `json:"quote"`
}

// forumPostEditBody is a reply's new text.
type forumPostEditBody struct {
	Body string `json:"body"`
}

// forumAnswerBody names the reply to mark as the accepted answer.
type forumAnswerBody struct {
	Post uint64 `json:"post"`
}

// forumMoveBody names the category to move a topic to.
type forumMoveBody struct {
	Category string `json:"category"`
}

func forumTime(ns int64) time.Time { return time.Unix(0, ns).UTC() }

func toForumTopicJSON(r *http.Request, t forum.TopicSummary) forumTopicJSON {
	return forumTopicJSON{ID: t.ID, Title: t.Title, Category: t.Category, Author: api.ToForgeUser(r, t.Author),
		Pinned: t.Pinned, Locked: t.Locked, Answered: t.Answer != 0, AnswerPostID: t.Answer, Replies: t.Replies,
		Revisions: t.Revisions, CreatedAt: forumTime(t.CreatedNS), UpdatedAt: forumTime(t.UpdatedNS), LastPostAt: forumTime(t.LastPostNS),
		HTMLURL: api.SiteURL(r) + "/forum/topic/" + strconv.FormatUint(t.ID, 10)}
}

// listForumCategories lists the categories with their numbers of topics.
func (a *Handler) listForumCategories(w http.ResponseWriter, r *http.Request) error {
	cats, err := a.Forge.Index().Forum().Categories(r.Context())
	if err != nil {
		return err
	}
	out := make([]forumCategoryJSON, len(cats))
	for i, c := range cats {
		out[i] = forumCategoryJSON{Name: c.Name, Topics: c.Topics}
	}
	return api.Reply(w, out)
}

// listForumTopics lists topics, pinned first, then by latest activity:
// of one category (?category=), whose title holds ?q=.
func (a *Handler) listForumTopics(w http.ResponseWriter, r *http.Request) error {
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := forum.Filter{Category: q.Get("category"), Query: q.Get("q")}
	if f.Category != "" && !chainforum.ValidCategory(f.Category) {
		return forumCategoryError()
	}
	if len(f.Query) > forum.MaxQuery || tx.CheckLine("q", f.Query) != nil {
		return usererr.BadFieldf("q", "the search must be one line of at most %d bytes", forum.MaxQuery)
	}
	topics, total, err := a.Forge.Index().Forum().Topics(r.Context(), f, p)
	if err != nil {
		return err
	}
	out := make([]forumTopicJSON, len(topics))
	for i, t := range topics {
		out[i] = toForumTopicJSON(r, t)
	}
	return a.RespondList(w, r, p, total, out, nil)
}

func forumCategoryError() error {
	return usererr.BadFieldf("category", "the category must be one of %s", strings.Join(chainforum.Categories, ", "))
}

// createForumTopic opens a topic; only moderators open one in
// announcements.
func (a *Handler) createForumTopic(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in forumTopicBody
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	if !chainforum.ValidCategory(in.Category) {
		return forumCategoryError()
	}
	if err := api.CheckTitle(in.Title); err != nil {
		return err
	}
	if err := checkForumBody(in.Body); err != nil {
		return err
	}
	if in.Category == chainforum.Announcements {
		if err := a.requireForumModerator(id.User.Address, "Only forum moderators may open topics in announcements."); err != nil {
			return err
		}
	}
	res, err := a.Forge.Do(r.Context(), id.User.Address, chainforum.TopicCreate{Category: in.Category, Title: in.Title, Body: in.Body})
	if err != nil {
		return err
	}
	return a.writeForumTopic(w, r, http.StatusCreated, res.Change.ForumTopic.ID)
}

func checkForumBody(body string) error {
	if strings.TrimSpace(body) == "" {
		return usererr.BadFieldf("body", "the body must not be empty")
	}
	return api.CheckBody("body", body)
}

// getForumTopic is one topic with its rendered text and what the
// signed-in user may do with it.
func (a *Handler) getForumTopic(w http.ResponseWriter, r *http.Request) error {
	id, err := forumID(r, "topic")
	if err != nil {
		return err
	}
	return a.writeForumTopic(w, r, http.StatusOK, id)
}

func (a *Handler) writeForumTopic(w http.ResponseWriter, r *http.Request, status int, id uint64) error {
	// Rendered once per change of the projection, as a page of replies.
	key := fmt.Sprintf("forum-topic|%d|%s", id, api.SiteURL(r))
	kept, err := index.RememberAnswer(a.Forge.Index(), key, forumPostsSize/8, func() (keptForumTopic, error) {
		t, err := a.Forge.Index().Forum().TopicByID(r.Context(), id)
		return keptForumTopic{t, a.RenderBody(r.Context(), nil, t.Body)}, err
	})
	if err != nil {
		return err
	}
	t := kept.topic
	out := forumTopicDetailJSON{forumTopicJSON: toForumTopicJSON(r, t.TopicSummary), Body: t.Body, BodyHTML: kept.html}
	if me := auth.IdentityFrom(r.Context()); me != nil {
		mod, err := a.isForumModerator(me.User.Address)
		if err != nil {
			return err
		}
		author := strings.EqualFold(t.Author.Address, me.User.Address.Hex())
		out.CanModerate = mod
		out.CanEdit = mod || author && !t.Locked
		out.CanAnswer = mod || author
		out.CanReply = !t.Locked
	}
	api.WriteJSON(w, status, out)
	return nil
}

// keptForumTopic is a topic with its rendered body.
type keptForumTopic struct {
	topic forum.Topic
	html  string
}

// forumID reads the path's id of a topic or post; one that is not a
// number names nothing.
func forumID(r *http.Request, what string) (uint64, error) {
	n, err := strconv.ParseUint(r.PathValue("id"), 10, 63)
	if err != nil || n == 0 {
		return 0, usererr.Missingf("There is no such forum %s.", what)
	}
	return n, nil
}

func (a *Handler) isForumModerator(addr common.Address) (bool, error) {
	return a.Chain.HasRole(addr, roles.ForumModerator)
}

// requireForumModerator is 403 with msg for anyone without the role.
func (a *Handler) requireForumModerator(addr common.Address, msg string) error {
	mod, err := a.isForumModerator(addr)
	if err != nil {
		return err
	}
	if !mod {
		return usererr.New(usererr.Forbidden, usererr.CodeForbidden, msg)
	}
	return nil
}

// topicLockedError is the refusal of a reply or an author's edit in a
// locked topic, with the chain's code.
func topicLockedError() error {
	return usererr.New(usererr.Conflict, tx.CodeName(tx.CodeTopicLocked), "This topic is locked: it takes no more replies or edits.")
}

// editForumTopic changes a topic's title or body (its author, or a
// moderator) and, for a moderator, moves it to another category.
func (a *Handler) editForumTopic(w http.ResponseWriter, r *http.Request) error {
	me, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	id, err := forumID(r, "topic")
	if err != nil {
		return err
	}
	var in forumTopicEditBody
	if err := api.DecodeText(w, r, &in); err != nil {
		return err
	}
	t, err := a.Forge.Index().Forum().TopicByID(r.Context(), id)
	if err != nil {
		return err
	}
	if err := checkForumTopicEdit(in); err != nil {
		return err
	}
	if err := a.mayEditForum(me.User.Address, t.Author, t.Locked); err != nil {
		return err
	}
	if in.Category != nil && *in.Category != t.Category {
		if err := a.requireForumModerator(me.User.Address, "Only forum moderators may move topics."); err != nil {
			return err
		}
	}
	act := chainforum.TopicEdit{Topic: id, Title: in.Title, Body: in.Body, Category: in.Category}
	if _, err := a.Forge.Do(r.Context(), me.User.Address, act); err != nil {
		return err
	}
	return a.writeForumTopic(w, r, http.StatusOK, id)
}

func checkForumTopicEdit(in forumTopicEditBody) error {
	if in.Title == nil && in.Body == nil && in.Category == nil {
		return usererr.BadFieldf("title", "give a title, a body or a category to change")
	}
	if in.Category != nil && !chainforum.ValidCategory(*in.Category) {
		return forumCategoryError()
	}
	if in.Title != nil {
		if err := api.CheckTitle(*in.Title); err != nil {
			return err
		}
	}
	if in.Body != nil {
		return checkForumBody(*in.Body)
	}
	return nil
}

// mayEditForum lets the author or a moderator edit; in a locked topic
// only a moderator.
func (a *Handler) mayEditForum(me common.Address, author index.User, locked bool) error {
	mod, err := a.isForumModerator(me)
	if err != nil || mod {
		return err
	}
	if !strings.EqualFold(author.Address, me.Hex()) {
		return usererr.New(usererr.Forbidden, usererr.CodeForbidden, "Only its author or a forum moderator may edit this.")
	}
	if locked {
		return topicLockedError()
	}
	return nil
}
