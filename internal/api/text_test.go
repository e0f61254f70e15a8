package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/forgetest"
)

// textCase is one request carrying text the node must refuse: 422,
// code invalid_text, the field named.
type textCase struct {
	method, path string
	body         map[string]any
	field        string
}

// TestControlCharactersRefused sends NUL and other control characters
// through every text field a client can write, on SQLite and on
// PostgreSQL, which refuses NUL in a text column: each answers 422
// invalid_text naming the field, nothing is relayed to the chain, and the
// node then keeps accepting and showing writes (a NUL that reached a block
// would stop a PostgreSQL node's index for good).
func TestControlCharactersRefused(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := &issuesNode{Node: forgetest.Start(t, opts...), t: t}
			alice := n.NewUser("write", "admin")
			n.repo(alice, "app", false)
			base := "/api/v1/repos/" + alice.Name() + "/app"
			n.push(alice, alice, "app", "feature", "main", map[string]string{"src/app.go": "package app\n\nfunc A() {}\n"})
			n.must(http.StatusCreated, alice, "POST", base+"/issues", map[string]any{"title": "first"})
			n.must(http.StatusCreated, alice, "POST", base+"/pulls", map[string]any{"head": "feature", "base": "main", "title": "Add A"})

			nonce := n.operatorNonce()
			for _, c := range textCases(base, alice.Name()) {
				n.refusedText(alice, c)
			}
			n.refusedInvalidUTF8(alice, base+"/issues")
			if got := n.operatorNonce(); got != nonce {
				t.Fatalf("the operator's nonce moved from %d to %d: a refused action was relayed", nonce, got)
			}
			n.writesStillWork(alice, base)
		})
	}
}

func textCases(base, user string) []textCase {
	review := func(body, comment string) map[string]any {
		return map[string]any{"event": "COMMENT", "body": body,
			"comments": []map[string]any{{"path": "src/app.go", "body": comment, "new_position": 1}}}
	}
	contact := func(name, subject, message string) map[string]any {
		return map[string]any{"name": name, "email": "a@example.org", "subject": subject, "message": message}
	}
	return []textCase{
		{"POST", "/api/v1/user/repos", map[string]any{"name": "x1", "description": "a\x00b"}, "description"},
		{"POST", "/api/v1/user/repos", map[string]any{"name": "x2", "description": "two\nlines"}, "description"},
		{"POST", "/api/v1/user/repos", map[string]any{"name": "x3", "description": "\x7f", "private": true}, "description"},
		{"PATCH", base, map[string]any{"description": "a\x00"}, "description"},
		{"PATCH", base, map[string]any{"description": "a\tb"}, "description"},
		{"POST", base + "/issues", map[string]any{"title": "a\x00b"}, "title"},
		{"POST", base + "/issues", map[string]any{"title": "a\nb"}, "title"},
		{"POST", base + "/issues", map[string]any{"title": "t", "body": "a\x00b"}, "body"},
		{"POST", base + "/issues", map[string]any{"title": "t", "body": "\x1b[2J"}, "body"},
		{"PATCH", base + "/issues/1", map[string]any{"title": "\x01"}, "title"},
		{"PATCH", base + "/issues/1", map[string]any{"body": "\x00"}, "body"},
		{"POST", base + "/issues/1/comments", map[string]any{"body": "hi\x00"}, "body"},
		{"POST", base + "/pulls", map[string]any{"head": "feature", "base": "main", "title": "a\x00"}, "title"},
		{"POST", base + "/pulls", map[string]any{"head": "feature", "base": "main", "title": "t", "body": "\x00"}, "body"},
		{"POST", base + "/pulls/2/reviews", review("\x00", "fine"), "body"},
		{"POST", base + "/pulls/2/reviews", review("ok", "nul\x00"), "comments[0].body"},
		{"POST", base + "/labels", map[string]any{"name": "bug\x00", "color": "#ff0000"}, "name"},
		{"POST", base + "/labels", map[string]any{"name": "bug\n", "color": "#ff0000"}, "name"},
		{"POST", base + "/labels", map[string]any{"name": "bug", "color": "#ff0000", "description": "a\x00"}, "description"},
		{"POST", base + "/labels", map[string]any{"name": "bug", "color": "#ff0000", "description": "a\nb"}, "description"},
		{"POST", "/api/v1/contact", contact("A\x00", "s", "m"), "name"},
		{"POST", "/api/v1/contact", contact("A", "two\nlines", "m"), "subject"},
		{"POST", "/api/v1/contact", contact("A", "s", "m\x00"), "message"},
		{"PATCH", "/api/v1/user/settings", map[string]any{"full_name": "A\x00"}, "full_name"},
		{"PATCH", "/api/v1/user/settings", map[string]any{"description": "bio\x00"}, "description"},
		{"POST", "/api/v1/users/" + user + "/tokens", map[string]any{"name": "t\x00", "scopes": []string{"read"}}, "name"},
		{"POST", "/api/analytics/web-vitals", map[string]any{"name": "LCP", "value": 1, "rating": "good", "id": "v\x00", "url": "/"}, "id"},
	}
}

// refusedText sends c and wants 422 invalid_text naming c.field.
func (n *issuesNode) refusedText(u *forgetest.User, c textCase) {
	n.t.Helper()
	res := n.call(u, c.method, c.path, c.body)
	got := res.obj()
	if res.status != http.StatusUnprocessableEntity || got["code"] != "invalid_text" || got["field"] != c.field || got["message"] == "" {
		n.t.Errorf("%s %s %q: %d %s, want 422 invalid_text naming %s", c.method, c.path, mustJSON(c.body), res.status, res.body, c.field)
	}
}

// refusedInvalidUTF8 sends bytes that are not UTF-8, which JSON decoding
// would otherwise turn into U+FFFD.
func (n *issuesNode) refusedInvalidUTF8(u *forgetest.User, path string) {
	n.t.Helper()
	req, _ := http.NewRequest("POST", n.URL+path, bytes.NewReader([]byte(`{"title":"a`+"\xff"+`b"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "token "+u.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		n.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnprocessableEntity {
		n.t.Errorf("invalid UTF-8: status %d, want 422", res.StatusCode)
	}
}

func (n *issuesNode) operatorNonce() uint64 {
	n.t.Helper()
	nonce, err := n.Chain.PendingNonce(n.Forge.Operator())
	if err != nil {
		n.t.Fatal(err)
	}
	return nonce
}

// writesStillWork: after the refusals, writes are applied, projected and
// shown, and text with newlines and tabs keeps them.
func (n *issuesNode) writesStillWork(u *forgetest.User, base string) {
	n.t.Helper()
	body := "line one\n\tindented\r\nlast"
	is := n.must(http.StatusCreated, u, "POST", base+"/issues", map[string]any{"title": "after", "body": body}).obj()
	got := n.must(http.StatusOK, nil, "GET", base+"/issues/"+num(is["number"]), nil).obj()
	if got["title"] != "after" || got["body"] != body {
		n.t.Fatalf("issue after the refusals: %s", mustJSON(got))
	}
	n.must(http.StatusCreated, u, "POST", base+"/issues/1/comments", map[string]any{"body": "still\n\there"})
	n.must(http.StatusCreated, u, "POST", base+"/labels", map[string]any{"name": "bug", "color": "#ff0000", "description": "a bug"})
	n.must(http.StatusCreated, nil, "POST", "/api/v1/contact", map[string]any{"name": "A", "email": "a@example.org", "subject": "s", "message": "two\nlines"})
	// A name with a control character names nobody; reading it is no error.
	if res := n.call(nil, "GET", "/api/v1/users/"+url.PathEscape("a\x00b"), nil); res.status != http.StatusNotFound {
		n.t.Errorf("a user name with NUL: %d %s, want 404", res.status, res.body)
	}
	// Nor any of its sub-resources: a path with a NUL is refused before any
	// Handler (TestNULAndInvalidUTF8InPathValues).
	if res := n.call(u, "GET", "/api/v1/users/"+url.PathEscape("a\x00b")+"/tokens", nil); res.status != http.StatusNotFound {
		n.t.Errorf("the tokens of a user name with NUL: %d %s, want 404", res.status, res.body)
	}
}

// TestClientTextOutsideJSON: text that reaches SQL from a URL or a header
// rather than a JSON string. A web-vitals URL whose path decodes to NUL or
// invalid UTF-8 is refused; a User-Agent with bytes that are not UTF-8 is
// stored without them. On PostgreSQL both were a 500.
func TestClientTextOutsideJSON(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := forgetest.Start(t, opts...)
			beacon := func(url string) int {
				return n.Call("POST", "/api/analytics/web-vitals", nil,
					map[string]any{"name": "LCP", "value": 1, "rating": "good", "id": "v1", "url": url}).Status
			}
			for _, bad := range []string{"http://x/a%00b", "/a%FFb", "/a%0Ab"} {
				if got := beacon(bad); got < 400 || got >= 500 {
					t.Errorf("a web-vitals url %q = %d, want 4xx", bad, got)
				}
			}
			if got := beacon("/explore"); got >= 300 {
				t.Errorf("a web-vitals url /explore = %d, want it stored", got)
			}

			key, _ := crypto.GenerateKey()
			var nonce struct{ Nonce string }
			n.JSON("GET", "/api/v1/auth/nonce", nil, nil, http.StatusOK, &nonce)
			origin, _ := url.Parse(n.URL)
			msg := siwe{domain: origin.Host, statement: "Sign in to dForge.", uri: n.URL + "/", nonce: nonce.Nonce,
				address: crypto.PubkeyToAddress(key.PublicKey), chainID: testChainID, issuedAt: time.Now()}.String()
			body, _ := json.Marshal(map[string]string{"message": msg, "signature": sign(key, msg)})
			req, _ := http.NewRequest("POST", n.URL+"/api/v1/auth/siwe", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("User-Agent", "Browser/1.0 \xff\xfe(bytes that are not UTF-8)")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("sign-in with a User-Agent that is not UTF-8 = %d, want 200", res.StatusCode)
			}
		})
	}
}
