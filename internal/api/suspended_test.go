package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/auth"
	"github.com/dforge/dforge/internal/forgetest"
)

// A suspended account writes nothing through this node, whether the write
// goes through the forge or stays on the node (issue 23): no direct
// message, profile, report, token or preference, with a token or with
// the session cookie; it still reads and signs out.
func TestSuspendedAccountWritesNothing(t *testing.T) {
	t.Parallel()
	adminKey, _ := crypto.GenerateKey()
	n := &issuesNode{Node: forgetest.Start(t, forgetest.WithAdmins(crypto.PubkeyToAddress(adminKey.PublicKey))), t: t}
	admin := keyedUser(t, n.Node, adminKey)
	alice, bob := n.NewUser("all"), n.NewUser()
	n.repo(alice, "tools", false)
	rep := n.must(201, bob, "POST", "/api/v1/reports", map[string]any{"kind": "user", "target": alice.Address.Hex(), "reason": "spam"}).obj()
	n.must(200, admin, "POST", fmt.Sprintf("/api/v1/admin/reports/%v/suspend", rep["id"]), map[string]any{"reason": "spam account"})

	writes := []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/v1/messages", map[string]string{"to": bob.Name(), "body": "hi"}},
		{"PATCH", "/api/v1/user/settings", map[string]any{"description": "buy now"}},
		{"POST", "/api/v1/reports", map[string]any{"kind": "user", "target": bob.Address.Hex(), "reason": "spam"}},
		{"POST", "/api/v1/users/" + alice.Name() + "/tokens", map[string]any{"name": "more", "scopes": []string{"all"}}},
		{"PUT", "/api/v1/user/notifications/preferences", map[string]any{"mentions": false}},
		{"POST", "/api/v1/user/keys", map[string]any{"title": "k", "key": "ssh-ed25519 AAAA"}},
	}
	for _, w := range writes {
		res := n.call(alice, w.method, w.path, w.body)
		if res.status != http.StatusForbidden || res.obj()["code"] != "suspended" {
			t.Errorf("%s %s by a suspended token: %d %s, want 403 suspended", w.method, w.path, res.status, res.body)
		}
	}
	n.must(200, alice, "GET", "/api/v1/user", nil)

	// The browser session: the same refusal; signing out still works.
	cookie := n.SignIn(alice)
	var session struct {
		CSRFToken string `json:"csrfToken"`
	}
	if code, body := cookieCall(t, n.Node, "GET", "/api/v1/auth/session", cookie, "", nil); code != 200 || json.Unmarshal(body, &session) != nil {
		t.Fatalf("session: %d %s", code, body)
	}
	for _, w := range writes {
		code, body := cookieCall(t, n.Node, w.method, w.path, cookie, session.CSRFToken, w.body)
		var e struct{ Code string }
		json.Unmarshal(body, &e)
		if code != http.StatusForbidden || e.Code != "suspended" {
			t.Errorf("%s %s by a suspended session: %d %s, want 403 suspended", w.method, w.path, code, body)
		}
	}
	if code, body := cookieCall(t, n.Node, "POST", "/api/v1/auth/logout", cookie, session.CSRFToken, nil); code >= 300 {
		t.Fatalf("a suspended account's sign-out: %d %s", code, body)
	}
	if code, _ := cookieCall(t, n.Node, "GET", "/api/v1/user", cookie, "", nil); code != http.StatusUnauthorized {
		t.Fatalf("the session after sign-out: %d, want 401", code)
	}
}

// cookieCall sends a request with a session cookie and, when set, its CSRF
// token, as the browser app does.
func cookieCall(t *testing.T, n *forgetest.Node, method, path, cookie, csrf string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, n.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: cookie})
	if csrf != "" {
		req.Header.Set(auth.CSRFHeader, csrf)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}
