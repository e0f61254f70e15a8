package api_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/pquerna/otp/totp"
)

// fakeNames stands in for the chain's usernames (the index in production).
type fakeNames struct {
	mu     sync.Mutex
	byAddr map[common.Address]string
}

func (f *fakeNames) claim(a common.Address, name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.byAddr[a] = name
}

func (f *fakeNames) Username(_ context.Context, a common.Address) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	// Like the index, a claimed name resolves both ways; the default name of
	// an account with no chain activity is only computed, not found by name.
	if name, ok := f.byAddr[a]; ok {
		return name, nil
	}
	return defaultName(a), nil
}

func defaultName(a common.Address) string { return "user-" + strings.ToLower(a.Hex()[2:14]) }

func (f *fakeNames) AddressOf(_ context.Context, name string) (common.Address, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for a, n := range f.byAddr {
		if n == "" {
			n = defaultName(a)
		}
		if strings.EqualFold(n, name) {
			return a, true, nil
		}
	}
	return common.Address{}, false, nil
}

func TestProfileUpdateAndValidation(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.signedInUser()
	res := alice.do("PATCH", "/api/v1/user/settings", map[string]string{
		"full_name": "  Alice Liddell ", "description": "Builds things.\nMostly forges.", "location": "Oxford",
		"website": "https://alice.example/", "email": "alice@example.org",
	})
	want := map[string]any{"full_name": "Alice Liddell", "description": "Builds things.\nMostly forges.", "location": "Oxford",
		"website": "https://alice.example/", "email": "alice@example.org", "login": alice.login}
	for k, v := range want {
		if res.json()[k] != v {
			t.Fatalf("PATCH settings = %d %s; %s != %q", res.StatusCode, res.body, k, v)
		}
	}
	// A partial update leaves the other fields alone; an empty string clears one.
	res = alice.do("PATCH", "/api/v1/user/settings", map[string]string{"location": ""})
	if got := res.json(); res.StatusCode != 200 || got["location"] != "" || got["full_name"] != "Alice Liddell" {
		t.Fatalf("partial PATCH = %d %s", res.StatusCode, res.body)
	}

	cases := map[string]struct {
		body        map[string]any
		field, code string
	}{
		"ftp website":        {map[string]any{"website": "ftp://alice.example/"}, "website", "invalid_url"},
		"javascript website": {map[string]any{"website": "javascript:alert(1)"}, "website", "invalid_url"},
		"website sans host":  {map[string]any{"website": "https://"}, "website", "invalid_url"},
		"bad email":          {map[string]any{"email": "alice-at-example"}, "email", "invalid_email"},
		"email with name":    {map[string]any{"email": "Alice <alice@example.org>"}, "email", "invalid_email"},
		"long name":          {map[string]any{"full_name": strings.Repeat("a", 101)}, "full_name", "field_too_long"},
		"long bio":           {map[string]any{"description": strings.Repeat("é", 256)}, "description", "field_too_long"},
		"two-line location":  {map[string]any{"location": "Oxford\nEngland"}, "location", "invalid_text"},
		"control character":  {map[string]any{"description": "bell\a"}, "description", "invalid_text"},
		"number for a name":  {map[string]any{"full_name": 7}, "full_name", "invalid_type"},
	}
	for name, c := range cases {
		res := alice.do("PATCH", "/api/v1/user/settings", c.body)
		got := res.json()
		wantStatus := 422
		if c.code == "invalid_type" {
			wantStatus = 400 // not JSON of the right shape, as everywhere in the API
		}
		if res.StatusCode != wantStatus || got["field"] != c.field || got["code"] != c.code || got["message"] == "" {
			t.Errorf("%s: %d %s, want %d %s on %s", name, res.StatusCode, res.body, wantStatus, c.code, c.field)
		}
	}
	if res := alice.do("GET", "/api/v1/user", nil); res.json()["website"] != "https://alice.example/" {
		t.Fatalf("a refused update changed the profile: %s", res.body)
	}
}

func TestUsersSeeEachOthersPublicProfileOnly(t *testing.T) {
	t.Parallel()
	names := &fakeNames{byAddr: map[common.Address]string{}}
	n := newNode(t, nodeOpts{names: names})
	alice, bob := n.newUser(), n.newUser()
	names.claim(alice.addr, "alice") // a username claimed on chain
	alice.signIn()
	bob.signIn()
	if alice.login != "alice" {
		t.Fatalf("login = %q, want the chain's name alice", alice.login)
	}
	alice.do("PATCH", "/api/v1/user/settings", map[string]string{"email": "alice@example.org", "full_name": "Alice"})

	anon := n.newUser()
	for who, viewer := range map[string]*user{"bob": bob, "anonymous": anon} {
		res := viewer.do("GET", "/api/v1/users/ALICE", nil)
		got := res.json()
		_, hasEmail := got["email"]
		if res.StatusCode != 200 || got["login"] != "alice" || got["full_name"] != "Alice" || hasEmail || got["wallet_address"] != alice.addr.Hex() {
			t.Errorf("%s sees alice as %d %s; want her public profile without email", who, res.StatusCode, res.body)
		}
	}
	if res := alice.do("GET", "/api/v1/users/alice", nil); res.json()["email"] != "alice@example.org" {
		t.Errorf("alice sees herself as %s; want her email", res.body)
	}
	if res := anon.do("GET", "/api/v1/users/nobody", nil); res.StatusCode != 404 || res.code() != "not_found" {
		t.Errorf("unknown user = %d %s", res.StatusCode, res.body)
	}
	// Bob never claimed a name: his default name finds him.
	if res := anon.do("GET", "/api/v1/users/"+bob.login, nil); res.StatusCode != 200 || res.json()["wallet_address"] != bob.addr.Hex() {
		t.Errorf("bob by default name = %d %s", res.StatusCode, res.body)
	}
}

var hex40 = regexp.MustCompile(`^[0-9a-f]{40}$`)

func (u *user) createToken(name string, scopes ...string) (response, string) {
	u.n.t.Helper()
	res := u.do("POST", "/api/v1/users/"+u.login+"/tokens", map[string]any{"name": name, "scopes": scopes})
	secret, _ := res.json()["sha1"].(string)
	return res, secret
}

// withToken is a client that sends token instead of a cookie.
func (u *user) withToken(scheme, token string) *user {
	c := &user{n: u.n, key: u.key, addr: u.addr, login: u.login}
	switch scheme {
	case "basic":
		c.headers = map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(u.login+":"+token))}
	default:
		c.headers = map[string]string{"Authorization": scheme + " " + token}
	}
	return c
}

func TestAccessTokens(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice, bob := n.newUser(), n.newUser()
	alice.signIn()
	bob.signIn()

	// 1. A new token is shown once, in full.
	res, readToken := alice.createToken("laptop", "read")
	got := res.json()
	if res.StatusCode != 201 || !hex40.MatchString(readToken) || got["token_last_eight"] != readToken[32:] ||
		fmt.Sprint(got["scopes"]) != "[read]" || got["name"] != "laptop" || got["id"] == nil || got["created_at"] != "2030-01-01T12:00:00Z" {
		t.Fatalf("create token = %d %s", res.StatusCode, res.body)
	}
	// 2. The list never shows it again.
	res = alice.do("GET", "/api/v1/users/"+alice.login+"/tokens", nil)
	var list []map[string]any
	json.Unmarshal(res.body, &list)
	if res.StatusCode != 200 || len(list) != 1 || list[0]["token_last_eight"] != readToken[32:] || strings.Contains(string(res.body), readToken) {
		t.Fatalf("list tokens = %d %s", res.StatusCode, res.body)
	}
	if sha1, has := list[0]["sha1"]; !has || sha1 != "" {
		t.Fatalf("list shows the token: %s", res.body)
	}

	// 3. The token signs in as `token`, `Bearer`, or HTTP Basic (git's way).
	for _, scheme := range []string{"token", "Bearer", "basic"} {
		res := alice.withToken(scheme, readToken).do("GET", "/api/v1/user", nil)
		if res.StatusCode != 200 || res.json()["login"] != alice.login {
			t.Errorf("GET /user with %s = %d %s", scheme, res.StatusCode, res.body)
		}
	}

	// 4. Scopes: read only reads, write writes (no CSRF token needed), admin
	// also manages credentials.
	_, writeToken := alice.createToken("ci", "write")
	_, adminToken := alice.createToken("admin", "admin", "read")
	settings := map[string]string{"location": "Oxford"}
	if res := alice.withToken("token", readToken).do("PATCH", "/api/v1/user/settings", settings); res.StatusCode != 403 || res.code() != "insufficient_scope" {
		t.Errorf("write with a read token = %d %s", res.StatusCode, res.body)
	}
	if res := alice.withToken("token", writeToken).do("PATCH", "/api/v1/user/settings", settings); res.StatusCode != 200 {
		t.Errorf("write with a write token = %d %s", res.StatusCode, res.body)
	}
	if res, _ := alice.withToken("token", writeToken).createToken("more", "admin"); res.StatusCode != 403 || res.code() != "insufficient_scope" {
		t.Errorf("a write token made a token: %d %s", res.StatusCode, res.body)
	}
	res, _ = alice.withToken("token", adminToken).createToken("from-admin", "read")
	if res.StatusCode != 201 || fmt.Sprint(res.json()["scopes"]) != "[read]" {
		t.Errorf("an admin token could not make a token: %d %s", res.StatusCode, res.body)
	}

	// 5. Bad requests.
	for name, c := range map[string]struct {
		body        map[string]any
		status      int
		field, code string
	}{
		"duplicate name": {map[string]any{"name": "laptop", "scopes": []string{"read"}}, 422, "name", "name_taken"},
		"no name":        {map[string]any{"name": " ", "scopes": []string{"read"}}, 422, "name", "invalid_name"},
		"no scopes":      {map[string]any{"name": "x"}, 400, "scopes", "invalid_scope"}, // 400 as in Gitea
		"unknown scope":  {map[string]any{"name": "x", "scopes": []string{"sudo"}}, 400, "scopes", "invalid_scope"},
	} {
		res := alice.do("POST", "/api/v1/users/"+alice.login+"/tokens", c.body)
		if res.StatusCode != c.status || res.code() != c.code || res.json()["field"] != c.field {
			t.Errorf("%s: %d %s, want %d %s on %s", name, res.StatusCode, res.body, c.status, c.code, c.field)
		}
	}
	// Nobody lists, makes or revokes another person's tokens.
	id := fmt.Sprint(list[0]["id"])
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/v1/users/" + alice.login + "/tokens"},
		{"POST", "/api/v1/users/" + alice.login + "/tokens"},
		{"DELETE", "/api/v1/users/" + alice.login + "/tokens/" + id},
	} {
		if res := bob.do(r.method, r.path, map[string]any{"name": "x", "scopes": []string{"read"}}); res.StatusCode != 403 || res.code() != "forbidden" {
			t.Errorf("bob %s %s = %d %s", r.method, r.path, res.StatusCode, res.body)
		}
	}
	if res := n.newUser().do("GET", "/api/v1/users/"+alice.login+"/tokens", nil); res.StatusCode != 401 {
		t.Errorf("anonymous token list = %d %s", res.StatusCode, res.body)
	}

	// 6. Revoking a token ends its use at once.
	if res := alice.do("DELETE", "/api/v1/users/"+alice.login+"/tokens/"+id, nil); res.StatusCode != 204 {
		t.Fatalf("revoke = %d %s", res.StatusCode, res.body)
	}
	if res := alice.withToken("token", readToken).do("GET", "/api/v1/user", nil); res.StatusCode != 401 || res.code() != "invalid_token" {
		t.Errorf("revoked token = %d %s", res.StatusCode, res.body)
	}
	if res := alice.do("DELETE", "/api/v1/users/"+alice.login+"/tokens/"+id, nil); res.StatusCode != 404 {
		t.Errorf("second revoke = %d %s", res.StatusCode, res.body)
	}
}

func TestTwoFactorSignIn(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.signedInUser()
	code := func(secret string) string {
		c, err := totp.GenerateCode(secret, n.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	// 1. Setup gives a secret; enabling needs a code from it.
	res := alice.do("POST", "/api/v1/user/2fa/setup", nil)
	secret, _ := res.json()["secret"].(string)
	otpURL, _ := res.json()["otpauthUrl"].(string)
	if res.StatusCode != 200 || secret == "" || !strings.HasPrefix(otpURL, "otpauth://totp/") || !strings.Contains(otpURL, "secret="+secret) {
		t.Fatalf("setup = %d %s", res.StatusCode, res.body)
	}
	if res := alice.do("POST", "/api/v1/user/2fa/enable", map[string]string{"code": "000000"}); res.StatusCode != 422 || res.code() != "twofactor_invalid_code" {
		t.Fatalf("enable with a wrong code = %d %s", res.StatusCode, res.body)
	}
	enableCode := code(secret)
	res = alice.do("POST", "/api/v1/user/2fa/enable", map[string]string{"code": enableCode})
	var enabled struct{ RecoveryCodes []string }
	json.Unmarshal(res.body, &enabled)
	if res.StatusCode != 200 || len(enabled.RecoveryCodes) != 10 {
		t.Fatalf("enable = %d %s", res.StatusCode, res.body)
	}
	if res := alice.do("GET", "/api/v1/user/2fa", nil); res.json()["enabled"] != true || res.json()["recoveryCodesLeft"] != 10.0 {
		t.Fatalf("2fa status = %s", res.body)
	}
	if res := alice.do("POST", "/api/v1/user/2fa/setup", nil); res.StatusCode != 409 || res.code() != "twofactor_already_enabled" {
		t.Fatalf("setup while enabled = %d %s", res.StatusCode, res.body)
	}

	// 2. Signing in now stops at a challenge, without a session.
	challenge := func() (*user, string) {
		t.Helper()
		b := alice.anotherBrowser()
		m := b.message().String()
		res := b.postSIWE(m, sign(b.key, m))
		ch, _ := res.json()["challenge"].(string)
		if res.StatusCode != 200 || res.json()["twoFactorRequired"] != true || ch == "" || sessionCookie(res) != nil || b.csrf != "" {
			t.Fatalf("siwe with 2fa = %d %s", res.StatusCode, res.body)
		}
		return b, ch
	}
	finish := func(b *user, ch, code string) response {
		res := b.do("POST", "/api/v1/auth/2fa", map[string]string{"challenge": ch, "code": code})
		b.keepSession(res)
		return res
	}
	b, ch := challenge()
	// The code that enabled 2FA was used: it cannot sign in, in the same time step.
	if res := finish(b, ch, enableCode); res.StatusCode != 401 || res.code() != "twofactor_invalid_code" {
		t.Fatalf("reused code = %d %s", res.StatusCode, res.body)
	}
	n.clock.Advance(30 * time.Second)
	signInCode := code(secret)
	res = finish(b, ch, signInCode)
	if res.StatusCode != 200 || sessionCookie(res) == nil || b.csrf == "" {
		t.Fatalf("2fa sign in = %d %s", res.StatusCode, res.body)
	}
	if res := b.do("GET", "/api/v1/user", nil); res.StatusCode != 200 || res.json()["two_factor_enabled"] != true {
		t.Fatalf("user after 2fa sign in = %d %s", res.StatusCode, res.body)
	}
	// The challenge is single use, and so is the code.
	if res := finish(b, ch, signInCode); res.StatusCode != 401 || res.code() != "twofactor_challenge_invalid" {
		t.Fatalf("used challenge = %d %s", res.StatusCode, res.body)
	}
	b2, ch2 := challenge()
	if res := finish(b2, ch2, signInCode); res.StatusCode != 401 || res.code() != "twofactor_invalid_code" {
		t.Fatalf("code used twice = %d %s", res.StatusCode, res.body)
	}

	// 3. A recovery code works once.
	recovery := enabled.RecoveryCodes[0]
	if res := finish(b2, ch2, strings.ToUpper(recovery)); res.StatusCode != 200 {
		t.Fatalf("recovery code = %d %s", res.StatusCode, res.body)
	}
	b3, ch3 := challenge()
	if res := finish(b3, ch3, recovery); res.StatusCode != 401 || res.code() != "twofactor_invalid_code" {
		t.Fatalf("recovery code used twice = %d %s", res.StatusCode, res.body)
	}
	if res := alice.do("GET", "/api/v1/user/2fa", nil); res.json()["recoveryCodesLeft"] != 9.0 {
		t.Fatalf("2fa status after a recovery code = %s", res.body)
	}

	// 4. Five wrong codes end a challenge, even before a right one.
	for range 4 {
		finish(b3, ch3, "123456")
	}
	n.clock.Advance(30 * time.Second)
	if res := finish(b3, ch3, code(secret)); res.StatusCode != 401 || res.code() != "twofactor_challenge_invalid" {
		t.Fatalf("challenge after five wrong codes = %d %s", res.StatusCode, res.body)
	}
	if res := finish(b3, "not-a-challenge", code(secret)); res.StatusCode != 401 || res.code() != "twofactor_challenge_invalid" {
		t.Fatalf("unknown challenge = %d %s", res.StatusCode, res.body)
	}

	// 5. Turning 2FA off takes a code; then sign-in needs none.
	if res := alice.do("POST", "/api/v1/user/2fa/disable", map[string]string{"code": "000000"}); res.StatusCode != 422 {
		t.Fatalf("disable with a wrong code = %d %s", res.StatusCode, res.body)
	}
	n.clock.Advance(30 * time.Second)
	if res := alice.do("POST", "/api/v1/user/2fa/disable", map[string]string{"code": code(secret)}); res.StatusCode != 204 {
		t.Fatalf("disable = %d %s", res.StatusCode, res.body)
	}
	if res := alice.do("GET", "/api/v1/user/2fa", nil); res.json()["enabled"] != false {
		t.Fatalf("2fa status after disable = %s", res.body)
	}
	alice.anotherBrowser().signIn()
}

func TestSessionsListAndRevoke(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.signedInUser()
	n.clock.Advance(2 * time.Minute)
	phone := alice.anotherBrowser()
	phone.signIn()

	res := alice.do("GET", "/api/v1/user/sessions", nil, "User-Agent", "laptop-browser")
	var list []struct {
		ID                    int64
		Current               bool
		CreatedAt, LastSeenAt time.Time
		UserAgent, IP         string
	}
	json.Unmarshal(res.body, &list)
	if res.StatusCode != 200 || len(list) != 2 {
		t.Fatalf("sessions = %d %s", res.StatusCode, res.body)
	}
	var mine, other int64
	for _, s := range list {
		if s.Current {
			mine = s.ID
		} else {
			other = s.ID
		}
		if s.IP != "127.0.0.1" || s.UserAgent == "" || s.CreatedAt.IsZero() || s.LastSeenAt.Before(s.CreatedAt) {
			t.Errorf("session = %+v", s)
		}
	}
	if mine == 0 || other == 0 {
		t.Fatalf("want one current session and one other: %s", res.body)
	}
	if res := alice.do("DELETE", fmt.Sprintf("/api/v1/user/sessions/%d", other), nil); res.StatusCode != 204 {
		t.Fatalf("revoke = %d %s", res.StatusCode, res.body)
	}
	if res := phone.do("GET", "/api/v1/auth/session", nil); res.StatusCode != 401 {
		t.Fatalf("revoked session still works: %d %s", res.StatusCode, res.body)
	}
	if res := alice.do("DELETE", fmt.Sprintf("/api/v1/user/sessions/%d", other), nil); res.StatusCode != 404 || res.code() != "not_found" {
		t.Fatalf("second revoke = %d %s", res.StatusCode, res.body)
	}
	// Someone else's session is not found, not revoked.
	bob := n.newUser()
	bob.signIn()
	if res := bob.do("DELETE", fmt.Sprintf("/api/v1/user/sessions/%d", mine), nil); res.StatusCode != 404 {
		t.Fatalf("bob revoking alice's session = %d %s", res.StatusCode, res.body)
	}
	if res := alice.do("GET", "/api/v1/user", nil); res.StatusCode != 200 {
		t.Fatalf("alice's session after bob's attempt = %d %s", res.StatusCode, res.body)
	}
}

func TestNotificationPreferences(t *testing.T) {
	t.Parallel()
	n := newNode(t)
	alice := n.signedInUser()
	const path = "/api/v1/user/notifications/preferences"
	res := alice.do("GET", path, nil)
	if res.StatusCode != 200 || string(res.body) != `{"email":false,"mentions":true,"reviews":true,"governance":true,"rewards":true}`+"\n" {
		t.Fatalf("defaults = %d %s", res.StatusCode, res.body)
	}
	res = alice.do("PUT", path, map[string]bool{"email": true, "rewards": false})
	want := `{"email":true,"mentions":true,"reviews":true,"governance":true,"rewards":false}` + "\n"
	if res.StatusCode != 200 || string(res.body) != want {
		t.Fatalf("PUT = %d %s", res.StatusCode, res.body)
	}
	laptop := alice.anotherBrowser()
	laptop.signIn()
	if got := laptop.do("GET", path, nil); string(got.body) != want {
		t.Fatalf("stored preferences = %s", got.body)
	}
	if res := alice.do("PUT", path, map[string]bool{"email": false}, "X-CSRF-Token", ""); res.StatusCode != 403 {
		t.Fatalf("PUT without CSRF = %d %s", res.StatusCode, res.body)
	}
	if res := n.newUser().do("GET", path, nil); res.StatusCode != 401 {
		t.Fatalf("anonymous GET = %d %s", res.StatusCode, res.body)
	}
}
