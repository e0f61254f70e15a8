package community

import (
	"github.com/dforge/dforge/internal/api"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/messages"
	"github.com/dforge/dforge/internal/usererr"
)

// Direct messages (a dForge extension; Gitea has none) between accounts of
// this node, and Gitea's user blocks, which refuse a sender. Both are
// node-local (internal/messages), never on chain. A user reaches only
// their own conversations: another's id is a 404, as a missing one is.

func (a *Handler) RegisterMessages(mux *http.ServeMux) {
	if a.Messages == nil || a.Auth == nil {
		return
	}
	user := a.SignedIn
	mux.HandleFunc("POST /api/v1/messages", user(auth.ScopeWrite, a.sendMessage))
	mux.HandleFunc("GET /api/v1/messages/unread", user(auth.ScopeRead, a.unreadMessages))
	mux.HandleFunc("GET /api/v1/messages/conversations", user(auth.ScopeRead, a.listConversations))
	mux.HandleFunc("GET /api/v1/messages/conversations/{id}", user(auth.ScopeRead, a.getConversation))
	mux.HandleFunc("GET /api/v1/messages/conversations/{id}/messages", user(auth.ScopeRead, a.listMessages))
	mux.HandleFunc("POST /api/v1/messages/conversations/{id}/read", user(auth.ScopeWrite, a.readConversation))
	mux.HandleFunc("GET /api/v1/user/blocks", user(auth.ScopeRead, a.listUserBlocks))
	mux.HandleFunc("GET /api/v1/user/blocks/{username}", user(auth.ScopeRead, a.checkBlock))
	mux.HandleFunc("PUT /api/v1/user/blocks/{username}", user(auth.ScopeWrite, a.blockUser))
	mux.HandleFunc("DELETE /api/v1/user/blocks/{username}", user(auth.ScopeWrite, a.unblockUser))
}

// messageJSON is one direct message; body_html is its Markdown rendered
// and sanitized by the node.
type messageJSON struct {
	ID             int64        `json:"id"`
	ConversationID int64        `json:"conversation_id"`
	Sender         api.UserJSON `json:"sender"`
	Body           string       `json:"body"`
	BodyHTML       string       `json:"body_html"`
	Created        time.Time    `json:"created_at"`
}

// conversationJSON is one of the user's conversations: the other user,
// the last message, how many of the other's messages are unread, and
// whether the user has blocked the other.
type conversationJSON struct {
	ID          int64        `json:"id"`
	With        api.UserJSON `json:"with"`
	LastMessage *messageJSON `json:"last_message"`
	UnreadCount int64        `json:"unread_count"`
	Blocked     bool         `json:"blocked"`
	Created     time.Time    `json:"created_at"`
	Updated     time.Time    `json:"updated_at"`
	URL         string       `json:"url"`
	HTMLURL     string       `json:"html_url"`
}

// unreadMessagesJSON is the unread count of the messages badge.
type unreadMessagesJSON struct {
	Unread        int64 `json:"unread"`
	Conversations int64 `json:"conversations"`
}

// sendMessageOption is what POST /messages takes: the recipient's
// username and the Markdown body.
type sendMessageOption struct {
	To   string `json:"to"`
	Body string `json:"body"`
}

// maxMessageBody leaves room for JSON's escapes ("\u003c") of the longest
// message, in up to 4 bytes a character.
const maxMessageBody = 6*4*messages.MaxBody + 4<<10

// me is the signed-in user as the messages service takes them.
func me(id *auth.Identity) messages.Account {
	return messages.Account{ID: id.User.ID, Address: id.User.Address, Username: id.User.Username}
}

// localAccount is the user called name: 404 when there is none; ID 0 when
// they have never signed in on this node.
func (a *Handler) localAccount(r *http.Request, name string) (messages.Account, error) {
	if tx.CheckLine("username", name) != nil || name == "" {
		return messages.Account{}, usererr.Missingf("There is no user with that name.")
	}
	u, err := a.Auth.UserByName(r.Context(), name)
	if err != nil {
		return messages.Account{}, err
	}
	return messages.Account{ID: u.ID, Address: u.Address, Username: u.Username}, nil
}

// sendMessage sends a direct message to another user of this node,
// starting the conversation with them or continuing it.
//
// Both need an account here (422 no_account otherwise); a recipient who
// has blocked the sender refuses it (403 blocked), as one the sender has
// blocked does (403 blocking). The recipient gets a notification.
func (a *Handler) sendMessage(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	var in sendMessageOption
	if err := api.Decode(w, r, maxMessageBody, &in); err != nil {
		if ue, ok := usererr.As(err); ok && ue.Kind == usererr.TooLarge {
			return usererr.Unprocessablef("body", usererr.CodeTooLarge, "body is too long: the most a message may hold is %d characters", messages.MaxBody)
		}
		return err
	}
	in.To = strings.TrimSpace(in.To)
	if in.To == "" {
		return usererr.Unprocessablef("to", usererr.CodeRequired, "to is required: the username of the recipient")
	}
	if err := messages.CheckBody(in.Body); err != nil {
		return err
	}
	to, err := a.localAccount(r, in.To)
	if err != nil {
		return err
	}
	m, err := a.Messages.Send(r.Context(), me(id), to, in.Body)
	if err != nil {
		return err
	}
	j, err := a.messageJSON(r, m)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, j)
	return nil
}

// unreadMessages is how many direct messages the signed-in user has not
// read, and in how many conversations.
func (a *Handler) unreadMessages(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	n, c, err := a.Messages.Unread(r.Context(), id.User.ID)
	if err != nil {
		return err
	}
	return api.Reply(w, unreadMessagesJSON{Unread: n, Conversations: c})
}

// listConversations lists the signed-in user's conversations, the one
// with the latest message first, each with the other user, its last
// message and its unread count.
func (a *Handler) listConversations(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Messages.Conversations(r.Context(), id.User.ID, (p.Number-1)*p.Limit, p.Limit)
	if err != nil {
		return err
	}
	out := make([]conversationJSON, 0, len(list))
	for _, c := range list {
		j, err := a.conversationJSON(r, c)
		if err != nil {
			return err
		}
		out = append(out, j)
	}
	return a.RespondList(w, r, p, total, out, nil)
}

// conversationOf is the path's conversation id; one that cannot be an id
// is a 404, as another user's conversation is.
func conversationOf(r *http.Request) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		return 0, usererr.Missingf("conversation %q not found", r.PathValue("id"))
	}
	return n, nil
}

// getConversation is one of the signed-in user's conversations.
func (a *Handler) getConversation(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	n, err := conversationOf(r)
	if err != nil {
		return err
	}
	c, err := a.Messages.Conversation(r.Context(), id.User.ID, n)
	if err != nil {
		return err
	}
	j, err := a.conversationJSON(r, c)
	if err != nil {
		return err
	}
	return api.Reply(w, j)
}

// listMessages lists the messages of one of the signed-in user's
// conversations, the newest first.
func (a *Handler) listMessages(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	n, err := conversationOf(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Messages.Messages(r.Context(), id.User.ID, n, (p.Number-1)*p.Limit, p.Limit)
	if err != nil {
		return err
	}
	out := make([]messageJSON, 0, len(list))
	for _, m := range list {
		j, err := a.messageJSON(r, m)
		if err != nil {
			return err
		}
		out = append(out, j)
	}
	return a.RespondList(w, r, p, total, out, nil)
}

// readConversation marks one of the signed-in user's conversations read to
// its last message, with its notification.
func (a *Handler) readConversation(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	n, err := conversationOf(r)
	if err != nil {
		return err
	}
	if err := a.Messages.Read(r.Context(), me(id), n); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listUserBlocks lists the users the signed-in user has blocked, as Gitea's
// GET /user/blocks.
func (a *Handler) listUserBlocks(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	p, err := api.PageOf(r)
	if err != nil {
		return err
	}
	list, total, err := a.Messages.Blocks(r.Context(), me(id), (p.Number-1)*p.Limit, p.Limit)
	if err != nil {
		return err
	}
	out := make([]api.UserJSON, 0, len(list))
	for _, b := range list {
		out = append(out, a.accountJSON(r, b.Address))
	}
	return a.RespondList(w, r, p, total, out, nil)
}

// checkBlock is 204 when the signed-in user has blocked the user, else
// 404, as Gitea's GET /user/blocks/{username}.
func (a *Handler) checkBlock(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	target, err := a.localAccount(r, r.PathValue("username"))
	if err != nil {
		return err
	}
	blocked, err := a.Messages.IsBlocked(r.Context(), me(id), target.Address)
	if err != nil {
		return err
	}
	if !blocked {
		return usererr.Missingf("%s is not blocked", target.Username)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// blockUser blocks a user for the signed-in user, as Gitea's PUT
// /user/blocks/{username} (with an optional note): they can no longer send
// them direct messages. 204, again when already blocked.
func (a *Handler) blockUser(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	target, err := a.localAccount(r, r.PathValue("username"))
	if err != nil {
		return err
	}
	if err := a.Messages.BlockAccount(r.Context(), me(id), target.Address, r.URL.Query().Get("note")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// unblockUser lifts the signed-in user's block of a user, as Gitea's
// DELETE /user/blocks/{username}; 422 when they are not blocked.
func (a *Handler) unblockUser(w http.ResponseWriter, r *http.Request) error {
	id, err := api.RequireUser(r)
	if err != nil {
		return err
	}
	target, err := a.localAccount(r, r.PathValue("username"))
	if err != nil {
		return err
	}
	if err := a.Messages.Unblock(r.Context(), me(id), target.Address); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// accountJSON is the account at addr as the chain names it; one the chain
// has not seen yet has its default name.
func (a *Handler) accountJSON(r *http.Request, addr common.Address) api.UserJSON {
	if a.Index != nil {
		if p, err := a.Index.PersonByAddress(r.Context(), addr); err == nil {
			return api.PersonJSON(r, p)
		}
	}
	// Not on chain yet: a user of this node, with the date they first
	// signed in here (Gitea's clients parse created).
	name := a.DefaultName(r.Context(), addr)
	if u, err := a.Auth.UserByName(r.Context(), name); err == nil && u.Address == addr {
		j := api.ToUserJSON(u, false)
		j.ID = a.AccountID(r.Context(), u)
		return j
	}
	return api.PersonJSON(r, index.Person{User: index.User{Address: addr.Hex(), Username: name}, ID: api.UserIDOf(r, addr)})
}

func (a *Handler) messageJSON(r *http.Request, m messages.Message) (messageJSON, error) {
	html, err := a.Markdown.RenderStored([]byte(m.Body))
	if err != nil {
		return messageJSON{}, err
	}
	return messageJSON{ID: m.ID, ConversationID: m.Conversation, Sender: a.accountJSON(r, m.Sender), Body: m.Body, BodyHTML: html, Created: m.Created}, nil
}

func (a *Handler) conversationJSON(r *http.Request, c messages.Conversation) (conversationJSON, error) {
	base, n := api.SiteURL(r), strconv.FormatInt(c.ID, 10)
	j := conversationJSON{ID: c.ID, With: a.accountJSON(r, c.Peer), UnreadCount: c.Unread, Blocked: c.Blocked, Created: c.Created, Updated: c.Updated,
		URL: base + "/api/v1/messages/conversations/" + n, HTMLURL: base + "/messages/" + n}
	if c.Last != nil {
		m, err := a.messageJSON(r, *c.Last)
		if err != nil {
			return j, err
		}
		j.LastMessage = &m
	}
	return j, nil
}
