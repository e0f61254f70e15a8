package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/forgetest"
)

type forumTopic struct {
	ID       uint64 `json:"id"`
	Title    string `json:"title"`
	Category string `json:"category"`
	Author   struct {
		Login string `json:"login"`
	} `json:"author"`
	Pinned       bool   `json:"pinned"`
	Locked       bool   `json:"locked"`
	Answered     bool   `json:"answered"`
	AnswerPostID uint64 `json:"answer_post_id"`
	Replies      uint64 `json:"replies"`
	Revisions    uint64 `json:"revisions"`
	Body         string `json:"body"`
	BodyHTML     string `json:"body_html"`
	CanEdit      bool   `json:"can_edit"`
	CanAnswer    bool   `json:"can_answer"`
	CanModerate  bool   `json:"can_moderate"`
	CanReply     bool   `json:"can_reply"`
}

type forumPost struct {
	ID       uint64 `json:"id"`
	TopicID  uint64 `json:"topic_id"`
	Body     string `json:"body"`
	BodyHTML string `json:"body_html"`
	QuoteID  uint64 `json:"quote_id"`
	IsAnswer bool   `json:"is_answer"`
	CanEdit  bool   `json:"can_edit"`
	Author   struct {
		Login string `json:"login"`
	} `json:"author"`
}

type forumRevision struct {
	N      uint64 `json:"n"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	Editor struct {
		Login string `json:"login"`
	} `json:"editor"`
}

// forumNode is a node whose genesis makes mod a forum moderator.
type forumNode struct {
	*forgetest.Node
	t   *testing.T
	mod *forgetest.User
}

func startForum(t *testing.T, opts []forgetest.Option) *forumNode {
	modAddr := forgetest.NewAddress()
	opts = append(opts, forgetest.WithGenesis(func(g *app.Genesis) {
		g.Roles = append(g.Roles, roles.Grant{Address: modAddr, Role: roles.ForumModerator})
	}))
	n := forgetest.Start(t, opts...)
	return &forumNode{Node: n, t: t, mod: n.UserAt(modAddr)}
}

func (n *forumNode) topic(u *forgetest.User, category, title, body string) forumTopic {
	n.t.Helper()
	var out forumTopic
	n.JSON("POST", "/api/v1/forum/topics", u, map[string]any{"category": category, "title": title, "body": body}, http.StatusCreated, &out)
	return out
}

func (n *forumNode) get(id uint64, u *forgetest.User) forumTopic {
	n.t.Helper()
	var out forumTopic
	n.JSON("GET", fmt.Sprintf("/api/v1/forum/topics/%d", id), u, nil, http.StatusOK, &out)
	return out
}

func (n *forumNode) reply(u *forgetest.User, topic uint64, body map[string]any, want int) forumPost {
	n.t.Helper()
	var out forumPost
	n.JSON("POST", fmt.Sprintf("/api/v1/forum/topics/%d/posts", topic), u, body, want, &out)
	return out
}

// refused checks a refusal's status, code and the field its message names.
func (n *forumNode) refused(method, path string, u *forgetest.User, body any, want int, code, field string) {
	n.t.Helper()
	res := n.JSON(method, path, u, body, want, nil)
	if !strings.Contains(string(res.Body), `"`+code+`"`) || field != "" && !strings.Contains(string(res.Body), field) {
		n.t.Fatalf("%s %s: %s, want code %s naming %q", method, path, res.Body, code, field)
	}
}

// TestForumTopics: topics opened, listed (pinned first, then latest
// activity, with Gitea's paging), filtered by category, searched by
// title, counted by category; bad input is a 422 naming the field, an
// announcement needs the moderator role, and nothing refused is written.
func TestForumTopics(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testForumTopics(t, startForum(t, opts))
		})
	}
}

func testForumTopics(t *testing.T, n *forumNode) {
	alice, bob := n.NewUser(), n.NewUser()
	first := n.topic(alice, "help", "How do I push over SSH?", "It **fails**.\n\n<script>x()</script>")
	if first.ID == 0 || first.Category != "help" || first.Author.Login != alice.Name() || first.Replies != 0 {
		t.Fatalf("created topic: %+v", first)
	}
	got := n.get(first.ID, alice)
	if !strings.Contains(got.BodyHTML, "<strong>fails</strong>") || strings.Contains(got.BodyHTML, "<script") ||
		!got.CanEdit || !got.CanAnswer || got.CanModerate || !got.CanReply {
		t.Fatalf("topic as its author sees it: %+v", got)
	}
	if anon := n.get(first.ID, nil); anon.CanEdit || anon.CanReply || anon.CanModerate {
		t.Fatalf("topic as a visitor sees it: %+v", anon)
	}
	n.topic(bob, "general", "Hello forum", "Hi all")
	third := n.topic(bob, "help", "Push rejected: stale ref", "Why?")

	topics := "/api/v1/forum/topics"
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"category": "random", "title": "t", "body": "b"}, "category"},
		{map[string]any{"title": "t", "body": "b"}, "category"},
		{map[string]any{"category": "help", "title": "  ", "body": "b"}, "title"},
		{map[string]any{"category": "help", "title": strings.Repeat("x", 256), "body": "b"}, "title"},
		{map[string]any{"category": "help", "title": "two\nlines", "body": "b"}, "title"},
		{map[string]any{"category": "help", "title": "t", "body": ""}, "body"},
		{map[string]any{"category": "help", "title": "t", "body": "nul\x00"}, "body"},
		{map[string]any{"category": "help", "title": "t", "body": strings.Repeat("b", 65537)}, "body"},
	} {
		res := n.JSON("POST", topics, alice, c.body, http.StatusUnprocessableEntity, nil)
		if !strings.Contains(string(res.Body), c.field) {
			t.Fatalf("%v: %s does not name %q", c.body, res.Body, c.field)
		}
	}
	n.refused("POST", topics, alice, map[string]any{"category": "announcements", "title": "News", "body": "b"}, http.StatusForbidden, "forbidden", "")
	n.JSON("POST", topics, nil, map[string]any{"category": "help", "title": "t", "body": "b"}, http.StatusUnauthorized, nil)
	news := n.topic(n.mod, "announcements", "Release 1.0", "Out now")

	var list []forumTopic
	res := n.JSON("GET", topics+"?limit=2", nil, nil, http.StatusOK, &list)
	if len(list) != 2 || res.Header.Get("X-Total-Count") != "4" || !strings.Contains(res.Header.Get("Link"), `rel="next"`) ||
		list[0].ID != news.ID || list[1].ID != third.ID {
		t.Fatalf("first page: %+v (total %s, link %s)", list, res.Header.Get("X-Total-Count"), res.Header.Get("Link"))
	}
	n.JSON("GET", topics+"?category=help", nil, nil, http.StatusOK, &list)
	if len(list) != 2 || list[0].ID != third.ID || list[1].ID != first.ID {
		t.Fatalf("help topics: %+v", list)
	}
	n.JSON("GET", topics+"?q=PUSH", nil, nil, http.StatusOK, &list)
	if len(list) != 2 {
		t.Fatalf("search for push: %+v", list)
	}
	n.JSON("GET", topics+"?q=100%25", nil, nil, http.StatusOK, &list)
	if len(list) != 0 {
		t.Fatalf("a search for a literal %%: %+v", list)
	}
	n.refused("GET", topics+"?category=nope", nil, nil, http.StatusUnprocessableEntity, "invalid_field", "category")
	n.refused("GET", topics+"?q="+strings.Repeat("q", 101), nil, nil, http.StatusUnprocessableEntity, "invalid_field", "q")

	var cats []struct {
		Name   string `json:"name"`
		Topics int64  `json:"topics"`
	}
	n.JSON("GET", "/api/v1/forum/categories", nil, nil, http.StatusOK, &cats)
	want := map[string]int64{"general": 1, "help": 2, "showcase": 0, "development": 0, "announcements": 1}
	if len(cats) != 5 {
		t.Fatalf("categories: %+v", cats)
	}
	for _, c := range cats {
		if want[c.Name] != c.Topics {
			t.Fatalf("categories: %+v", cats)
		}
	}
	if total, err := n.Index.Forum().TopicCount(t.Context()); err != nil || total != 4 {
		t.Fatalf("Forum().TopicCount = %d, %v", total, err)
	}
	if latest, err := n.Index.Forum().LatestTopics(t.Context(), 2); err != nil || len(latest) != 2 || latest[0].ID != news.ID {
		t.Fatalf("Forum().LatestTopics = %+v, %v", latest, err)
	}
	n.JSON("GET", "/api/v1/forum/topics/999", nil, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/forum/topics/abc", nil, nil, http.StatusNotFound, nil)
}

// TestForumReplies: replies paged in order, a quote of a post of the same
// topic, edits of topics and replies with their history, the accepted
// answer by the author and by a moderator, the moderators' pin, lock and
// move (403 and nothing applied for anyone else), a locked topic refusing
// replies, and the notifications of mentions and replies.
func TestForumReplies(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testForumReplies(t, startForum(t, opts))
		})
	}
}

func testForumReplies(t *testing.T, n *forumNode) {
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	topic := n.topic(alice, "help", "Stuck on merge", "Help me")
	other := n.topic(carol, "general", "Other", "x")
	path := fmt.Sprintf("/api/v1/forum/topics/%d", topic.ID)

	p1 := n.reply(bob, topic.ID, map[string]any{"body": "Rebase first."}, http.StatusCreated)
	p2 := n.reply(carol, topic.ID, map[string]any{"body": "> Rebase first.\n\nAgreed.", "quote": p1.ID}, http.StatusCreated)
	if p2.QuoteID != p1.ID || p2.TopicID != topic.ID || !strings.Contains(p2.BodyHTML, "<blockquote>") {
		t.Fatalf("quoting reply: %+v", p2)
	}
	otherPost := n.reply(alice, other.ID, map[string]any{"body": "elsewhere"}, http.StatusCreated)
	n.refused("POST", path+"/posts", carol, map[string]any{"body": "x", "quote": otherPost.ID}, http.StatusUnprocessableEntity, "invalid_field", "quote")
	n.refused("POST", path+"/posts", carol, map[string]any{"body": " "}, http.StatusUnprocessableEntity, "invalid_field", "body")
	n.JSON("POST", "/api/v1/forum/topics/999/posts", carol, map[string]any{"body": "x"}, http.StatusNotFound, nil)
	var posts []forumPost
	res := n.JSON("GET", path+"/posts?limit=1&page=2", nil, nil, http.StatusOK, &posts)
	if len(posts) != 1 || posts[0].ID != p2.ID || res.Header.Get("X-Total-Count") != "2" {
		t.Fatalf("second page of replies: %+v (total %s)", posts, res.Header.Get("X-Total-Count"))
	}
	if got := n.get(topic.ID, nil); got.Replies != 2 {
		t.Fatalf("replies counted: %d", got.Replies)
	}
	// A page of replies is kept encoded: read twice it is the same bytes,
	// and each reply is what its own route shows the same reader.
	samePosts := func(step string) {
		t.Helper()
		for _, u := range []*forgetest.User{nil, bob, carol, n.mod} {
			first, again := n.Call("GET", path+"/posts", u, nil), n.Call("GET", path+"/posts", u, nil)
			if first.Status != http.StatusOK || !bytes.Equal(first.Body, again.Body) {
				t.Fatalf("%s: the replies read twice:\n%s\n%s", step, first.Body, again.Body)
			}
			var items []map[string]any
			if err := json.Unmarshal(again.Body, &items); err != nil || len(items) != 2 {
				t.Fatalf("%s: replies %s (%v)", step, again.Body, err)
			}
			for _, item := range items {
				var one map[string]any
				n.JSON("GET", fmt.Sprintf("/api/v1/forum/posts/%v", item["id"]), u, nil, http.StatusOK, &one)
				if !reflect.DeepEqual(item, one) {
					t.Fatalf("%s: in the list:\n%v\nalone:\n%v", step, item, one)
				}
			}
		}
	}
	samePosts("replied")
	editable := func(u *forgetest.User) string {
		t.Helper()
		var list []forumPost
		n.JSON("GET", path+"/posts", u, nil, http.StatusOK, &list)
		return fmt.Sprint(list[0].CanEdit, list[1].CanEdit)
	}
	if got := editable(bob) + " " + editable(carol) + " " + editable(n.mod) + " " + editable(nil); got != "true false false true true true false false" {
		t.Fatalf("who may edit the replies (bob, carol, the moderator, anyone): %s", got)
	}

	// Edits keep the text they replace.
	var edited forumTopic
	n.JSON("PATCH", path, alice, map[string]any{"title": "Stuck on a merge"}, http.StatusOK, &edited)
	n.JSON("PATCH", path, n.mod, map[string]any{"body": "Help me, please"}, http.StatusOK, &edited)
	if edited.Title != "Stuck on a merge" || edited.Body != "Help me, please" || edited.Revisions != 2 {
		t.Fatalf("edited topic: %+v", edited)
	}
	n.refused("PATCH", path, bob, map[string]any{"title": "mine now"}, http.StatusForbidden, "forbidden", "")
	n.refused("PATCH", path, alice, map[string]any{}, http.StatusUnprocessableEntity, "invalid_field", "title")
	var revs []forumRevision
	n.JSON("GET", path+"/revisions", nil, nil, http.StatusOK, &revs)
	if len(revs) != 2 || revs[0].N != 2 || revs[0].Title != "Stuck on a merge" || revs[0].Body != "Help me" || revs[0].Editor.Login != n.mod.Name() ||
		revs[1].N != 1 || revs[1].Title != "Stuck on merge" || revs[1].Editor.Login != alice.Name() {
		t.Fatalf("topic revisions: %+v", revs)
	}
	postPath := fmt.Sprintf("/api/v1/forum/posts/%d", p1.ID)
	var editedPost forumPost
	n.JSON("PATCH", postPath, bob, map[string]any{"body": "Rebase first, then merge."}, http.StatusOK, &editedPost)
	n.refused("PATCH", postPath, carol, map[string]any{"body": "no"}, http.StatusForbidden, "forbidden", "")
	n.JSON("GET", postPath+"/revisions", nil, nil, http.StatusOK, &revs)
	if editedPost.Body != "Rebase first, then merge." || len(revs) != 1 || revs[0].Body != "Rebase first." {
		t.Fatalf("post edit: %+v, revisions %+v", editedPost, revs)
	}

	// The accepted answer: the topic's author, or a moderator.
	n.refused("PUT", path+"/answer", bob, map[string]any{"post": p1.ID}, http.StatusForbidden, "forbidden", "")
	n.refused("PUT", path+"/answer", alice, map[string]any{"post": otherPost.ID}, http.StatusUnprocessableEntity, "invalid_field", "post")
	var answered forumTopic
	n.JSON("PUT", path+"/answer", alice, map[string]any{"post": p1.ID}, http.StatusOK, &answered)
	if !answered.Answered || answered.AnswerPostID != p1.ID {
		t.Fatalf("answered by its author: %+v", answered)
	}
	n.JSON("DELETE", path+"/answer", n.mod, nil, http.StatusOK, &answered)
	if answered.Answered {
		t.Fatalf("unmarked by a moderator: %+v", answered)
	}
	n.JSON("PUT", path+"/answer", n.mod, map[string]any{"post": p2.ID}, http.StatusOK, &answered)
	n.JSON("GET", path+"/posts", nil, nil, http.StatusOK, &posts)
	if answered.AnswerPostID != p2.ID || len(posts) != 2 || posts[0].IsAnswer || !posts[1].IsAnswer {
		t.Fatalf("answered by a moderator: %+v, posts %+v", answered, posts)
	}

	// Moderation: anyone else gets 403 and nothing changes.
	for _, c := range []struct{ method, path string }{{"PUT", "/pin"}, {"PUT", "/lock"}, {"DELETE", "/pin"}, {"DELETE", "/lock"}} {
		n.refused(c.method, path+c.path, alice, nil, http.StatusForbidden, "forbidden", "")
	}
	n.refused("POST", path+"/move", alice, map[string]any{"category": "general"}, http.StatusForbidden, "forbidden", "")
	n.refused("PATCH", path, alice, map[string]any{"category": "general"}, http.StatusForbidden, "forbidden", "")
	if got := n.get(topic.ID, alice); got.Pinned || got.Locked || got.Category != "help" || got.CanModerate {
		t.Fatalf("after refused moderation: %+v", got)
	}
	var moved forumTopic
	n.JSON("PUT", path+"/pin", n.mod, nil, http.StatusOK, &moved)
	n.JSON("POST", path+"/move", n.mod, map[string]any{"category": "development"}, http.StatusOK, &moved)
	if !moved.Pinned || moved.Category != "development" || !moved.CanModerate {
		t.Fatalf("pinned and moved: %+v", moved)
	}
	n.refused("POST", path+"/move", n.mod, map[string]any{"category": "nowhere"}, http.StatusUnprocessableEntity, "invalid_field", "category")
	var list []forumTopic
	n.JSON("GET", "/api/v1/forum/topics", nil, nil, http.StatusOK, &list)
	if len(list) != 2 || list[0].ID != topic.ID || !list[0].Pinned {
		t.Fatalf("the pinned topic leads: %+v", list)
	}

	// A locked topic takes no reply.
	n.JSON("PUT", path+"/lock", n.mod, nil, http.StatusOK, &moved)
	if got := editable(bob) + " " + editable(n.mod); got != "false false true true" {
		t.Fatalf("who may edit the replies of a locked topic (bob, the moderator): %s", got)
	}
	samePosts("locked")
	n.refused("POST", path+"/posts", bob, map[string]any{"body": "late"}, http.StatusConflict, "topic_locked", "locked")
	n.refused("PATCH", postPath, bob, map[string]any{"body": "late edit"}, http.StatusConflict, "topic_locked", "locked")
	if got := n.get(topic.ID, bob); !got.Locked || got.CanReply || got.Replies != 2 {
		t.Fatalf("locked topic: %+v", got)
	}
	n.JSON("DELETE", path+"/lock", n.mod, nil, http.StatusOK, &moved)
	n.reply(bob, topic.ID, map[string]any{"body": "thanks"}, http.StatusCreated)

	// Notifications: replies reach the author and the participants; a
	// mention reaches the one named.
	threads := func(u *forgetest.User) []kindThreadJSON {
		var out []kindThreadJSON
		n.JSON("GET", "/api/v1/notifications?subject-type=topic", u, nil, http.StatusOK, &out)
		return out
	}
	th := threads(alice)
	if len(th) != 1 || th[0].Subject.Type != "Topic" || th[0].Reason != "comment" || !strings.HasSuffix(th[0].Subject.HTMLURL, fmt.Sprintf("/forum/topic/%d", topic.ID)) {
		t.Fatalf("alice's forum threads: %+v", th)
	}
	// Carol hears of the reply to her own topic and, as a participant,
	// of bob's last reply.
	if th := threads(carol); len(th) != 2 || th[0].Reason != "comment" || th[1].Reason != "comment" {
		t.Fatalf("carol's threads: %+v", th)
	}
	mention := n.topic(bob, "general", "Ping", "cc @"+carol.Name())
	th = threads(carol)
	if len(th) != 3 || th[0].Reason != "mention" || th[0].Subject.Title != "Ping" || !strings.HasSuffix(th[0].Subject.HTMLURL, fmt.Sprintf("/forum/topic/%d", mention.ID)) {
		t.Fatalf("carol after the mention: %+v", th)
	}
	if th := threads(bob); len(th) != 1 { // alice's edits and the replies after his
		t.Fatalf("bob's threads: %+v", th)
	}
}

// TestForumReports: a forum reply can be reported; once the node's admin
// hides it, everyone else sees the marker instead of its text, the admin
// still sees it, flagged.
func TestForumReports(t *testing.T) {
	t.Parallel()
	adminAddr := forgetest.NewAddress()
	n := startForum(t, []forgetest.Option{forgetest.WithAdmins(adminAddr)})
	admin, alice, bob := n.UserAt(adminAddr), n.NewUser(), n.NewUser()
	topic := n.topic(alice, "general", "Hello", "hi")
	spam := n.reply(bob, topic.ID, map[string]any{"body": "buy now"}, http.StatusCreated)
	var rep struct {
		ID          int64  `json:"id"`
		TargetLabel string `json:"target_label"`
	}
	n.JSON("POST", "/api/v1/reports", alice, map[string]any{"kind": "forum_post", "target": fmt.Sprint(spam.ID), "reason": "spam", "detail": "ads"}, http.StatusCreated, &rep)
	if !strings.Contains(rep.TargetLabel, "Hello") {
		t.Fatalf("report: %+v", rep)
	}
	n.refused("POST", "/api/v1/reports", alice, map[string]any{"kind": "forum_post", "target": "999", "reason": "spam"}, http.StatusNotFound, "not_found", "")
	n.refused("POST", "/api/v1/reports", alice, map[string]any{"kind": "forum_post", "target": "x", "reason": "spam"}, http.StatusUnprocessableEntity, "invalid_field", "target")
	// Read before the hide, so that the page of replies it keeps encoded
	// must follow the hide.
	n.JSON("GET", fmt.Sprintf("/api/v1/forum/topics/%d/posts", topic.ID), alice, nil, http.StatusOK, nil)
	n.JSON("POST", fmt.Sprintf("/api/v1/admin/reports/%d/hide", rep.ID), admin, map[string]any{"reason": "advertising"}, http.StatusOK, nil)
	var posts []struct {
		Body         string `json:"body"`
		Hidden       bool   `json:"hidden"`
		HiddenReason string `json:"hidden_reason"`
	}
	path := fmt.Sprintf("/api/v1/forum/topics/%d/posts", topic.ID)
	n.JSON("GET", path, alice, nil, http.StatusOK, &posts)
	if len(posts) != 1 || !posts[0].Hidden || posts[0].HiddenReason != "advertising" || strings.Contains(posts[0].Body, "buy now") {
		t.Fatalf("the hidden reply as others see it: %+v", posts)
	}
	n.JSON("GET", path, admin, nil, http.StatusOK, &posts)
	if len(posts) != 1 || !posts[0].Hidden || posts[0].Body != "buy now" {
		t.Fatalf("the hidden reply as the admin sees it: %+v", posts)
	}
	// Its earlier texts stay hidden too.
	n.JSON("PATCH", fmt.Sprintf("/api/v1/forum/posts/%d", spam.ID), bob, map[string]any{"body": "buy now, cheap"}, http.StatusOK, nil)
	var revs []forumRevision
	n.JSON("GET", fmt.Sprintf("/api/v1/forum/posts/%d/revisions", spam.ID), alice, nil, http.StatusOK, &revs)
	if len(revs) != 1 || strings.Contains(revs[0].Body, "buy now") {
		t.Fatalf("the hidden reply's history as others see it: %+v", revs)
	}
}
