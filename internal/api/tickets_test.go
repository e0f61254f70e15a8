package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forgetest"
)

type ticketJSON struct {
	ID        int64  `json:"id"`
	Subject   string `json:"subject"`
	Message   string `json:"message"`
	Status    string `json:"status"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	Anonymous bool   `json:"anonymous"`
	Replies   int    `json:"replies"`
	User      *struct {
		Login string `json:"login"`
	} `json:"user"`
	Thread []struct {
		Body   string `json:"body"`
		Staff  bool   `json:"staff"`
		Author *struct {
			Login string `json:"login"`
		} `json:"author"`
	} `json:"thread"`
}

func contact(subject string) map[string]string {
	return map[string]string{"name": "Ada", "email": "ada@example.org", "subject": subject, "message": "It broke.\nTwice."}
}

// TestSupportTickets: a signed-in user's contact message is a ticket they
// list, read, reply to and close; no one else sees it (404); an admin
// answers it, which makes it answered and notifies the user; an
// anonymous message reaches the admin console only; bad input is a 422
// naming the field.
func TestSupportTickets(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			adminAddr := forgetest.NewAddress()
			n := forgetest.Start(t, append(opts, forgetest.WithAdmins(adminAddr))...)
			admin, ada, eve := n.UserAt(adminAddr), n.NewUser(), n.NewUser()

			// 1. Ada's message opens a ticket; an anonymous one does too.
			var sent struct{ ID int64 }
			n.JSON("POST", "/api/v1/contact", ada, contact("Push fails"), http.StatusCreated, &sent)
			var anon struct{ ID int64 }
			n.JSON("POST", "/api/v1/contact", nil, contact("Hello from outside"), http.StatusCreated, &anon)
			var mine []ticketJSON
			res := n.JSON("GET", "/api/v1/user/tickets", ada, nil, http.StatusOK, &mine)
			if len(mine) != 1 || mine[0].ID != sent.ID || mine[0].Status != "open" || mine[0].Subject != "Push fails" || mine[0].Anonymous || res.Header.Get("X-Total-Count") != "1" {
				t.Fatalf("ada's tickets = %+v (total %s)", mine, res.Header.Get("X-Total-Count"))
			}
			path := fmt.Sprintf("/api/v1/user/tickets/%d", sent.ID)

			// 2. No one else sees it, not even that it exists.
			n.JSON("GET", path, eve, nil, http.StatusNotFound, nil)
			n.JSON("POST", path+"/replies", eve, map[string]string{"body": "mine now"}, http.StatusNotFound, nil)
			n.JSON("PATCH", path, eve, map[string]string{"status": "closed"}, http.StatusNotFound, nil)
			n.JSON("GET", fmt.Sprintf("/api/v1/user/tickets/%d", anon.ID), eve, nil, http.StatusNotFound, nil)
			n.JSON("GET", path, nil, nil, http.StatusUnauthorized, nil)
			var none []ticketJSON
			n.JSON("GET", "/api/v1/user/tickets", eve, nil, http.StatusOK, &none)
			if len(none) != 0 {
				t.Fatalf("eve sees tickets: %+v", none)
			}

			// 3. The admin sees both, the anonymous one with its e-mail.
			var all []ticketJSON
			n.JSON("GET", "/api/v1/admin/tickets?status=open", admin, nil, http.StatusOK, &all)
			if len(all) != 2 || !all[0].Anonymous || all[0].Email != "ada@example.org" || all[0].User != nil ||
				all[1].User == nil || all[1].User.Login != ada.Name() {
				t.Fatalf("admin's tickets = %+v", all)
			}

			// 4. The admin answers: answered, and Ada is notified.
			var th ticketJSON
			n.JSON("POST", fmt.Sprintf("/api/v1/admin/tickets/%d/replies", sent.ID), admin, map[string]string{"body": "Try again\tnow."}, http.StatusCreated, &th)
			if th.Status != "answered" || len(th.Thread) != 1 || !th.Thread[0].Staff || th.Thread[0].Author == nil || th.Thread[0].Author.Login != admin.Name() {
				t.Fatalf("after the answer = %+v", th)
			}
			var notes []threadJSON
			n.JSON("GET", "/api/v1/notifications", ada, nil, http.StatusOK, &notes)
			if len(notes) != 1 || notes[0].Subject.Type != "Ticket" || notes[0].Reason != "ticket" || !notes[0].Unread ||
				notes[0].Subject.Title != "Push fails" || !strings.HasSuffix(notes[0].Subject.URL, path) {
				t.Fatalf("ada's notifications = %+v", notes)
			}
			th = ticketJSON{} // Unmarshal keeps fields the answer leaves out
			n.JSON("GET", path, ada, nil, http.StatusOK, &th)
			if th.Status != "answered" || th.User != nil || len(th.Thread) != 1 || th.Thread[0].Body != "Try again\tnow." || th.Thread[0].Author != nil {
				t.Fatalf("ada's thread = %+v", th)
			}

			// 5. Ada replies (open again), then closes it.
			n.JSON("POST", path+"/replies", ada, map[string]string{"body": "Still broken."}, http.StatusCreated, &th)
			if th.Status != "open" || len(th.Thread) != 2 || th.Thread[1].Staff {
				t.Fatalf("after ada's reply = %+v", th)
			}
			n.JSON("PATCH", path, ada, map[string]string{"status": "closed"}, http.StatusOK, &th)
			if th.Status != "closed" {
				t.Fatalf("after closing = %+v", th)
			}
			n.JSON("GET", "/api/v1/admin/tickets?status=closed", admin, nil, http.StatusOK, &all)
			if len(all) != 1 || all[0].ID != sent.ID || all[0].Replies != 2 {
				t.Fatalf("closed tickets = %+v", all)
			}

			// 6. Bad input: 422 naming the field; nothing changes.
			for _, c := range []struct {
				method, path string
				body         any
				field        string
			}{
				{"POST", path + "/replies", map[string]string{"body": ""}, "body"},
				{"POST", path + "/replies", map[string]string{"body": strings.Repeat("x", 5001)}, "body"},
				{"POST", path + "/replies", map[string]string{"body": "nul\x00"}, "body"},
				{"PATCH", path, map[string]string{"status": "answered"}, "status"},
				{"PATCH", path, map[string]string{"status": "gone"}, "status"},
				{"GET", "/api/v1/admin/tickets?status=gone", nil, "status"},
			} {
				u := ada
				if strings.Contains(c.path, "/admin/") {
					u = admin
				}
				res := n.Call(c.method, c.path, u, c.body)
				if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), c.field) {
					t.Errorf("%s %s = %d %s, want 422 naming %s", c.method, c.path, res.Status, res.Body, c.field)
				}
			}
			n.JSON("GET", path, ada, nil, http.StatusOK, &th)
			if th.Status != "closed" || len(th.Thread) != 2 {
				t.Fatalf("bad input changed the ticket: %+v", th)
			}
		})
	}
}

// TestAdminConsole: every admin route is 404 to anyone but an admin; the
// Admin lists users, their sessions and tokens, and revoking a session
// signs that browser out (401) and revoking a token makes it fail.
func TestAdminConsole(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			adminAddr := forgetest.NewAddress()
			n := forgetest.Start(t, append(opts, forgetest.WithAdmins(adminAddr))...)
			admin, bob := n.UserAt(adminAddr, "all"), n.NewUser()

			// 1. Not an admin: 404 everywhere, signed in or not.
			routes := []struct{ method, path string }{
				{"GET", "/api/v1/admin/users"},
				{"GET", "/api/v1/admin/users/" + bob.Name() + "/sessions"},
				{"DELETE", "/api/v1/admin/sessions/1"},
				{"GET", "/api/v1/admin/users/" + bob.Name() + "/tokens"},
				{"DELETE", "/api/v1/admin/tokens/1"},
				{"GET", "/api/v1/admin/node"},
				{"GET", "/api/v1/admin/settings"},
				{"GET", "/api/v1/admin/tickets"},
				{"GET", "/api/v1/admin/tickets/1"},
				{"POST", "/api/v1/admin/tickets/1/replies"},
				{"PATCH", "/api/v1/admin/tickets/1"},
			}
			for _, rt := range routes {
				for _, u := range []*forgetest.User{bob, nil} {
					if res := n.Call(rt.method, rt.path, u, map[string]string{"body": "x", "status": "closed"}); res.Status != http.StatusNotFound {
						t.Errorf("%s %s as %v = %d %s, want 404", rt.method, rt.path, u != nil, res.Status, res.Body)
					}
				}
			}

			// A token of the admin's that only reads cannot revoke, nor
			// can one that may not read the admin category.
			reader, coder := n.UserAt(adminAddr, "read:admin"), n.UserAt(adminAddr, "write:repository")
			n.JSON("GET", "/api/v1/admin/users", reader, nil, http.StatusOK, nil)
			n.JSON("DELETE", "/api/v1/admin/tokens/1", reader, nil, http.StatusForbidden, nil)
			n.JSON("GET", "/api/v1/admin/users", coder, nil, http.StatusForbidden, nil)

			// 2. The admin lists the users, Gitea's shape.
			var users []struct {
				Login   string `json:"login"`
				IsAdmin bool   `json:"is_admin"`
			}
			res := n.JSON("GET", "/api/v1/admin/users?limit=1&page=2", admin, nil, http.StatusOK, &users)
			if len(users) != 1 || users[0].Login != bob.Name() || users[0].IsAdmin || res.Header.Get("X-Total-Count") != "2" {
				t.Fatalf("users page 2 = %+v (total %s)", users, res.Header.Get("X-Total-Count"))
			}

			// 3. Bob's session: listed, revoked, then signed out.
			cookie := n.SignIn(bob)
			asBrowser := func() int {
				req, _ := http.NewRequest("GET", n.URL+"/api/v1/user", nil)
				req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: cookie})
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				return res.StatusCode
			}
			if got := asBrowser(); got != http.StatusOK {
				t.Fatalf("bob's browser before revoking = %d", got)
			}
			var sessions []struct{ ID int64 }
			n.JSON("GET", "/api/v1/admin/users/"+bob.Name()+"/sessions", admin, nil, http.StatusOK, &sessions)
			if len(sessions) != 1 {
				t.Fatalf("bob's sessions = %+v", sessions)
			}
			n.JSON("DELETE", fmt.Sprintf("/api/v1/admin/sessions/%d", sessions[0].ID), admin, nil, http.StatusNoContent, nil)
			if got := asBrowser(); got != http.StatusUnauthorized {
				t.Fatalf("bob's browser after revoking = %d, want 401", got)
			}
			n.JSON("DELETE", fmt.Sprintf("/api/v1/admin/sessions/%d", sessions[0].ID), admin, nil, http.StatusNotFound, nil)

			// 4. Bob's token: listed, revoked, then refused.
			var tokens []struct {
				ID   int64  `json:"id"`
				Name string `json:"name"`
				SHA1 string `json:"sha1"`
			}
			n.JSON("GET", "/api/v1/admin/users/"+bob.Name()+"/tokens", admin, nil, http.StatusOK, &tokens)
			if len(tokens) != 1 || tokens[0].Name != "test" || tokens[0].SHA1 != "" {
				t.Fatalf("bob's tokens = %+v", tokens)
			}
			n.JSON("GET", "/api/v1/user", bob, nil, http.StatusOK, nil)
			n.JSON("DELETE", fmt.Sprintf("/api/v1/admin/tokens/%d", tokens[0].ID), admin, nil, http.StatusNoContent, nil)
			n.JSON("GET", "/api/v1/user", bob, nil, http.StatusUnauthorized, nil)
			n.JSON("GET", "/api/v1/admin/users/nobody-here/tokens", admin, nil, http.StatusNotFound, nil)

			// 5. The node's health (after a block) and settings.
			n.JSON("POST", "/api/v1/user/repos", admin, map[string]any{"name": "health"}, http.StatusCreated, nil)
			var health struct {
				Chain *struct {
					Height       int64 `json:"height"`
					MakingBlocks bool  `json:"making_blocks"`
					PeerList     []any `json:"peer_list"`
				} `json:"chain"`
				Index *struct {
					Height int64 `json:"height"`
					Lag    int64 `json:"lag"`
				} `json:"index"`
				Replication struct {
					Enabled bool `json:"enabled"`
				} `json:"replication"`
				Disk *struct {
					TotalBytes uint64 `json:"total_bytes"`
					FreeBytes  uint64 `json:"free_bytes"`
				} `json:"disk"`
			}
			res = n.JSON("GET", "/api/v1/admin/node", admin, nil, http.StatusOK, &health)
			// One validator holds all the power: no peer, and blocks.
			if health.Chain == nil || health.Chain.Height < 1 || !health.Chain.MakingBlocks || health.Chain.PeerList == nil || len(health.Chain.PeerList) != 0 || health.Index == nil || health.Index.Height < 1 || health.Index.Lag < 0 ||
				health.Replication.Enabled || health.Disk == nil || health.Disk.TotalBytes == 0 || health.Disk.FreeBytes > health.Disk.TotalBytes {
				t.Fatalf("node health = %s", res.Body)
			}
			var settings []struct{ Name, Value string }
			n.JSON("GET", "/api/v1/admin/settings", admin, nil, http.StatusOK, &settings)
			if settings == nil {
				t.Fatalf("settings = null, want a list")
			}
		})
	}
}
