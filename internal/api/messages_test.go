package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"

	"github.com/dforge/dforge/internal/forgetest"
)

type dmUser struct {
	Login string `json:"login"`
}

type dmMessage struct {
	ID             int64  `json:"id"`
	ConversationID int64  `json:"conversation_id"`
	Sender         dmUser `json:"sender"`
	Body           string `json:"body"`
	BodyHTML       string `json:"body_html"`
}

type dmConversation struct {
	ID          int64      `json:"id"`
	With        dmUser     `json:"with"`
	LastMessage *dmMessage `json:"last_message"`
	UnreadCount int64      `json:"unread_count"`
	Blocked     bool       `json:"blocked"`
	HTMLURL     string     `json:"html_url"`
}

type dmError struct {
	Code  string `json:"code"`
	Field string `json:"field"`
}

// dmNode is a node with helpers for direct messages.
type dmNode struct {
	*forgetest.Node
	t *testing.T
}

// operatorName is the node operator's username as the chain gives it.
func (n dmNode) operatorName() string {
	name, err := n.Index.Username(context.Background(), n.Node.Node.Operator)
	if err != nil {
		n.t.Fatal(err)
	}
	return name
}

// send posts a message from u and checks the status; it answers the
// message or the error.
func (n dmNode) send(u *forgetest.User, to, body string, want int) (dmMessage, dmError) {
	n.t.Helper()
	res := n.JSON("POST", "/api/v1/messages", u, map[string]string{"to": to, "body": body}, want, nil)
	var m dmMessage
	var e dmError
	if want == http.StatusCreated {
		res.Decode(n.t, &m)
	} else {
		res.Decode(n.t, &e)
	}
	return m, e
}

func (n dmNode) unread(u *forgetest.User) (int64, int64) {
	n.t.Helper()
	var out struct{ Unread, Conversations int64 }
	n.JSON("GET", "/api/v1/messages/unread", u, nil, http.StatusOK, &out)
	return out.Unread, out.Conversations
}

func (n dmNode) conversations(u *forgetest.User) []dmConversation {
	n.t.Helper()
	var out []dmConversation
	n.JSON("GET", "/api/v1/messages/conversations", u, nil, http.StatusOK, &out)
	return out
}

// messageThreads is u's notification threads of direct messages.
func (n dmNode) messageThreads(u *forgetest.User) []threadJSON {
	n.t.Helper()
	var all []threadJSON
	n.JSON("GET", "/api/v1/notifications?all=true", u, nil, http.StatusOK, &all)
	var out []threadJSON
	for _, th := range all {
		if th.Subject.Type == "Message" {
			out = append(out, th)
		}
	}
	return out
}

// Direct messages through the API: a first message starts the pair's
// conversation and later ones (either way) continue it; Markdown comes
// back sanitized; unread counts per conversation and in all, cleared by
// reading; the recipient alone is notified, with a link to the
// conversation; another user's conversation is a 404 on every route.
func TestDirectMessages(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			testDirectMessages(t, dmNode{forgetest.Start(t, opts...), t})
		})
	}
}

func testDirectMessages(t *testing.T, n dmNode) {
	alice, bob, carol := n.NewUser(), n.NewUser(), n.NewUser()
	first, _ := n.send(alice, bob.Name(), "Hello **bob**\n\n<script>alert(1)</script>", http.StatusCreated)
	if first.Sender.Login != alice.Name() || !strings.Contains(first.BodyHTML, "<strong>bob</strong>") || strings.Contains(first.BodyHTML, "<script") {
		t.Fatalf("first message: %+v", first)
	}
	if u, c := n.unread(bob); u != 1 || c != 1 {
		t.Fatalf("bob's unread after one message: %d in %d conversations", u, c)
	}
	if u, _ := n.unread(alice); u != 0 {
		t.Fatalf("alice's unread after sending: %d", u)
	}
	list := n.conversations(bob)
	if len(list) != 1 || list[0].ID != first.ConversationID || list[0].With.Login != alice.Name() || list[0].UnreadCount != 1 ||
		list[0].LastMessage == nil || list[0].LastMessage.ID != first.ID || !strings.HasSuffix(list[0].HTMLURL, fmt.Sprintf("/messages/%d", first.ConversationID)) {
		t.Fatalf("bob's conversations: %+v", list)
	}

	// The recipient alone is told, with the conversation as the subject.
	threads := n.messageThreads(bob)
	if len(threads) != 1 || !threads[0].Unread || threads[0].Reason != "message" || threads[0].Subject.Title != "Hello **bob**" ||
		!strings.HasSuffix(threads[0].Subject.URL, fmt.Sprintf("/api/v1/messages/conversations/%d", first.ConversationID)) {
		t.Fatalf("bob's message notifications: %+v", threads)
	}
	if th := n.messageThreads(alice); len(th) != 0 {
		t.Fatalf("the sender was notified: %+v", th)
	}
	if th := n.messageThreads(carol); len(th) != 0 {
		t.Fatalf("a third user was notified: %+v", th)
	}

	// Another user's conversation is not found, whatever the route.
	conv := fmt.Sprintf("/api/v1/messages/conversations/%d", first.ConversationID)
	n.JSON("GET", conv, carol, nil, http.StatusNotFound, nil)
	n.JSON("GET", conv+"/messages", carol, nil, http.StatusNotFound, nil)
	n.JSON("POST", conv+"/read", carol, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/messages/conversations/999999", bob, nil, http.StatusNotFound, nil)
	n.JSON("GET", "/api/v1/messages/conversations/nope", bob, nil, http.StatusNotFound, nil)
	n.JSON("GET", conv, nil, nil, http.StatusUnauthorized, nil)
	if list := n.conversations(carol); len(list) != 0 {
		t.Fatalf("carol's conversations: %+v", list)
	}

	// A reply continues the conversation; sending reads what came before.
	reply, _ := n.send(bob, alice.Name(), "Hi alice", http.StatusCreated)
	if reply.ConversationID != first.ConversationID {
		t.Fatalf("the reply started conversation %d, not %d", reply.ConversationID, first.ConversationID)
	}
	if u, _ := n.unread(bob); u != 0 {
		t.Fatalf("bob's unread after replying: %d", u)
	}
	if u, c := n.unread(alice); u != 1 || c != 1 {
		t.Fatalf("alice's unread after bob's reply: %d in %d", u, c)
	}
	n.send(alice, bob.Name(), "two", http.StatusCreated)
	n.send(alice, bob.Name(), "three", http.StatusCreated)
	if u, c := n.unread(bob); u != 2 || c != 1 {
		t.Fatalf("bob's unread after two more: %d in %d", u, c)
	}
	var page []dmMessage
	res := n.JSON("GET", conv+"/messages?limit=3", bob, nil, http.StatusOK, &page)
	if res.Header.Get("X-Total-Count") != "4" || len(page) != 3 || page[0].Body != "three" || page[2].Body != "Hi alice" {
		t.Fatalf("first page of messages (total %s): %+v", res.Header.Get("X-Total-Count"), page)
	}
	n.JSON("GET", conv+"/messages?limit=3&page=2", bob, nil, http.StatusOK, &page)
	if len(page) != 1 || page[0].ID != first.ID {
		t.Fatalf("second page of messages: %+v", page)
	}

	// Reading clears the conversation's count and its notification.
	n.JSON("POST", conv+"/read", bob, nil, http.StatusNoContent, nil)
	if u, c := n.unread(bob); u != 0 || c != 0 {
		t.Fatalf("bob's unread after reading: %d in %d", u, c)
	}
	var c dmConversation
	n.JSON("GET", conv, bob, nil, http.StatusOK, &c)
	if c.UnreadCount != 0 || c.LastMessage == nil || c.LastMessage.Body != "three" {
		t.Fatalf("bob's conversation after reading: %+v", c)
	}
	if th := n.messageThreads(bob); len(th) != 1 || th[0].Unread {
		t.Fatalf("bob's notification after reading: %+v", th)
	}
	if u, _ := n.unread(alice); u != 0 {
		t.Fatalf("alice's unread after she wrote again: %d", u)
	}
}

// What a message cannot be: to nobody (404), to oneself, to an account
// that never signed in here, empty, over-long or with a NUL (422 naming
// the field); none of them stores anything.
func TestDirectMessageRefusals(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := dmNode{forgetest.Start(t, opts...), t}
			alice, bob := n.NewUser(), n.NewUser()
			n.send(alice, "nobody-here", "hi", http.StatusNotFound)
			n.send(alice, "bad\x00name", "hi", http.StatusUnprocessableEntity) // no text field may hold NUL
			refused := []struct {
				to, body, field, code string
			}{
				{alice.Name(), "hi", "to", "self"},
				{"", "hi", "to", "required"},
				{bob.Name(), "   ", "body", "required"},
				{bob.Name(), strings.Repeat("é", 10001), "body", "too_large"},
				{bob.Name(), "nul \x00 here", "body", "invalid_text"},
				{bob.Name(), "bell \a here", "body", "invalid_text"},
			}
			for _, r := range refused {
				if _, e := n.send(alice, r.to, r.body, http.StatusUnprocessableEntity); e.Field != r.field || e.Code != r.code {
					t.Errorf("to %q, %d bytes: %+v, want field %s code %s", r.to, len(r.body), e, r.field, r.code)
				}
			}
			// Tabs and newlines are text; the longest message is taken.
			n.send(alice, bob.Name(), "a\tb\r\nc"+strings.Repeat("é", 9994), http.StatusCreated)

			// The node's operator is an account on chain (it relays alice's
			// follow) that never signed in here.
			n.JSON("PUT", "/api/v1/user/following/"+bob.Name(), alice, nil, http.StatusNoContent, nil)
			if _, e := n.send(alice, n.operatorName(), "hi", http.StatusUnprocessableEntity); e.Code != "no_account" || e.Field != "to" {
				t.Errorf("to the operator: %+v", e)
			}
			if u, _ := n.unread(bob); u != 1 {
				t.Errorf("bob's unread: %d, want the one good message", u)
			}
			if list := n.conversations(alice); len(list) != 1 {
				t.Errorf("alice's conversations: %+v", list)
			}

			// Messages are the account's own: a token needs Gitea's user scope.
			repoOnly, userRead := n.NewUser("read:repository"), n.NewUser("read:user")
			n.JSON("GET", "/api/v1/messages/conversations", repoOnly, nil, http.StatusForbidden, nil)
			n.JSON("GET", "/api/v1/messages/unread", userRead, nil, http.StatusOK, nil)
			n.JSON("POST", "/api/v1/messages", userRead, map[string]string{"to": bob.Name(), "body": "hi"}, http.StatusForbidden, nil)
		})
	}
}

// Blocking, as Gitea's /user/blocks: a blocked sender's message is refused
// (403 blocked), as is one to someone the sender blocked (403 blocking);
// check, list and unblock answer as Gitea's, through its Go SDK too.
func TestUserBlocks(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := dmNode{forgetest.Start(t, opts...), t}
			alice, bob := n.NewUser(), n.NewUser()
			n.send(alice, bob.Name(), "hello", http.StatusCreated)
			n.JSON("GET", "/api/v1/user/blocks/"+alice.Name(), bob, nil, http.StatusNotFound, nil)
			n.JSON("PUT", "/api/v1/user/blocks/"+alice.Name()+"?note=spam", bob, nil, http.StatusNoContent, nil)
			n.JSON("PUT", "/api/v1/user/blocks/"+alice.Name(), bob, nil, http.StatusNoContent, nil) // again: still blocked
			n.JSON("GET", "/api/v1/user/blocks/"+alice.Name(), bob, nil, http.StatusNoContent, nil)
			n.JSON("PUT", "/api/v1/user/blocks/"+bob.Name(), bob, nil, http.StatusUnprocessableEntity, nil)
			n.JSON("PUT", "/api/v1/user/blocks/nobody-here", bob, nil, http.StatusNotFound, nil)
			n.JSON("PUT", "/api/v1/user/blocks/"+alice.Name(), nil, nil, http.StatusUnauthorized, nil)
			var blocked []dmUser
			res := n.JSON("GET", "/api/v1/user/blocks", bob, nil, http.StatusOK, &blocked)
			if len(blocked) != 1 || blocked[0].Login != alice.Name() || res.Header.Get("X-Total-Count") != "1" {
				t.Fatalf("bob's blocks: %+v", blocked)
			}
			if _, e := n.send(alice, bob.Name(), "let me in", http.StatusForbidden); e.Code != "blocked" || e.Field != "to" {
				t.Fatalf("a blocked sender: %+v", e)
			}
			if _, e := n.send(bob, alice.Name(), "bye", http.StatusForbidden); e.Code != "blocking" {
				t.Fatalf("a message to a blocked user: %+v", e)
			}
			if list := n.conversations(bob); len(list) != 1 || !list[0].Blocked || list[0].UnreadCount != 1 {
				t.Fatalf("bob's conversations: %+v", list)
			}

			// The Gitea SDK sees the same.
			client, err := gitea.NewClient(n.URL, gitea.SetToken(bob.Token))
			if err != nil {
				t.Fatal(err)
			}
			if on, _, err := client.CheckUserBlock(alice.Name()); err != nil || !on {
				t.Fatalf("SDK CheckUserBlock: %v %v", on, err)
			}
			if list, _, err := client.ListMyBlocks(gitea.ListUserBlocksOptions{}); err != nil || len(list) != 1 || list[0].UserName != alice.Name() {
				t.Fatalf("SDK ListMyBlocks: %+v %v", list, err)
			}
			if _, err := client.UnblockUser(alice.Name()); err != nil {
				t.Fatalf("SDK UnblockUser: %v", err)
			}
			n.JSON("DELETE", "/api/v1/user/blocks/"+alice.Name(), bob, nil, http.StatusUnprocessableEntity, nil)
			n.send(alice, bob.Name(), "thanks", http.StatusCreated)
			if _, err := client.BlockUser(alice.Name()); err != nil {
				t.Fatalf("SDK BlockUser: %v", err)
			}
			n.send(alice, bob.Name(), "again?", http.StatusForbidden)
		})
	}
}
