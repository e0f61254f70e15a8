package api_test

import (
	"crypto/ecdsa"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/forgetest"
)

// Reports and moderation through the API and the git binary, on SQLite
// and (with DFORGE_TEST_PG) PostgreSQL: reports of each kind and the bad
// ones, the admin routes' 404 to everyone else, dismiss, hide (others see
// the marker, the admin the content) and suspend (writes refused with
// code suspended, reads kept; lifted, writes work again).
func TestReportsAndModeration(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) { testModeration(t, opts) })
	}
}

// keyedUser signs up the wallet of key with a write token: a user whose
// address is known before the node starts (an admin), or who signs
// transactions of their own.
func keyedUser(t *testing.T, n *forgetest.Node, key *ecdsa.PrivateKey) *forgetest.User {
	t.Helper()
	u := n.NewUserWith(key, "write")
	u.Key = nil // as before: the user's actions go through the node
	return u
}

func testModeration(t *testing.T, opts []forgetest.Option) {
	adminKey, _ := crypto.GenerateKey()
	aliceKey, _ := crypto.GenerateKey()
	n := &issuesNode{Node: forgetest.Start(t, append(opts, forgetest.WithAdmins(crypto.PubkeyToAddress(adminKey.PublicKey)))...), t: t}
	admin, alice := keyedUser(t, n.Node, adminKey), keyedUser(t, n.Node, aliceKey)
	bob, carol := n.NewUser(), n.NewUser()
	an := alice.Name()

	// Alice's public repository with an issue and a comment; a private one.
	n.repo(alice, "tools", false)
	n.repo(alice, "secret", true)
	base := "/api/v1/repos/" + an + "/tools"
	n.must(201, alice, "POST", base+"/issues", map[string]any{"title": "spam title", "body": "buy now"})
	com := n.must(201, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "more spam"}).obj()
	commentID := fmt.Sprint(com["id"])
	n.must(201, alice, "POST", "/api/v1/repos/"+an+"/secret/issues", map[string]any{"title": "private", "body": "x"})

	// 1. Bob reports each kind.
	report := func(u *forgetest.User, kind, target string, want int) map[string]any {
		t.Helper()
		return n.must(want, u, "POST", "/api/v1/reports", map[string]any{"kind": kind, "target": target, "reason": "spam", "detail": "see\tthis\n"}).obj()
	}
	ids := map[string]string{}
	for kind, target := range map[string]string{"user": an, "repository": an + "/tools", "issue": an + "/tools#1", "comment": an + "/tools/comments/" + commentID} {
		rep := report(bob, kind, target, 201)
		if rep["status"] != "open" || rep["kind"] != kind || rep["subject"] != alice.Address.Hex() || rep["detail"] != "see\tthis" {
			t.Fatalf("report of %s: %v", kind, rep)
		}
		ids[kind] = fmt.Sprint(rep["id"])
	}
	report(bob, "issue", an+"/tools#1", 409) // already open
	report(carol, "user", alice.Address.Hex(), 201)

	// 2. Bad reports: nothing, an unknown kind, too long, NUL, a private
	// target, anonymous.
	bad := []struct {
		body map[string]any
		want int
		who  *forgetest.User
	}{
		{map[string]any{"target": an, "reason": "spam"}, 422, bob},
		{map[string]any{"kind": "planet", "target": an, "reason": "spam"}, 422, bob},
		{map[string]any{"kind": "user", "target": "", "reason": "spam"}, 422, bob},
		{map[string]any{"kind": "user", "target": an, "reason": "boring"}, 422, bob},
		{map[string]any{"kind": "user", "target": "nobody-here", "reason": "spam"}, 404, bob},
		{map[string]any{"kind": "repository", "target": an + "/nothing", "reason": "spam"}, 404, bob},
		{map[string]any{"kind": "issue", "target": an + "/tools#99", "reason": "spam"}, 404, bob},
		{map[string]any{"kind": "issue", "target": an + "/tools", "reason": "spam"}, 422, bob},
		{map[string]any{"kind": "comment", "target": an + "/tools/comments/999999", "reason": "spam"}, 404, bob},
		{map[string]any{"kind": "issue", "target": an + "/secret#1", "reason": "spam"}, 404, bob},
		{map[string]any{"kind": "repository", "target": an + "/secret", "reason": "spam"}, 404, bob},
		{map[string]any{"kind": "user", "target": an, "reason": "other", "detail": strings.Repeat("x", 2001)}, 422, carol},
		{map[string]any{"kind": "user", "target": an, "reason": "other", "detail": "a\x00b"}, 422, carol},
		{map[string]any{"kind": "user", "target": an, "reason": "spam"}, 401, nil},
	}
	for _, c := range bad {
		if res := n.call(c.who, "POST", "/api/v1/reports", c.body); res.status != c.want {
			t.Errorf("report %v: %d, want %d: %s", c.body, res.status, c.want, res.body)
		}
	}
	// The owner may report in their private repository.
	report(alice, "issue", an+"/secret#1", 201)

	// 3. Each sees their own reports only.
	if mine := n.must(200, bob, "GET", "/api/v1/user/reports", nil).list(); len(mine) != 4 {
		t.Fatalf("bob's reports: %v", mine)
	}
	if mine := n.must(200, carol, "GET", "/api/v1/user/reports", nil).list(); len(mine) != 1 {
		t.Fatalf("carol's reports: %v", mine)
	}

	// 4. Everyone but the admins gets 404 from every moderation route.
	adminRoutes := []struct{ method, path string }{
		{"GET", "/api/v1/admin/reports"}, {"POST", "/api/v1/admin/reports/" + ids["user"] + "/dismiss"},
		{"POST", "/api/v1/admin/reports/" + ids["issue"] + "/hide"}, {"POST", "/api/v1/admin/reports/" + ids["repository"] + "/suspend"},
		{"GET", "/api/v1/admin/hidden"}, {"GET", "/api/v1/admin/hidden/issue/1:1"}, {"DELETE", "/api/v1/admin/hidden/issue/1:1"},
		{"GET", "/api/v1/admin/suspensions"}, {"DELETE", "/api/v1/admin/suspensions/" + alice.Address.Hex()},
	}
	for _, rt := range adminRoutes {
		for _, u := range []*forgetest.User{bob, alice, nil} {
			if res := n.call(u, rt.method, rt.path, map[string]any{"reason": "x"}); res.status != 404 {
				t.Errorf("%s %s as a non-admin: %d %s", rt.method, rt.path, res.status, res.body)
			}
		}
	}

	// 5. The queue, filtered.
	if q := n.must(200, admin, "GET", "/api/v1/admin/reports", nil).list(); len(q) != 6 {
		t.Fatalf("open queue: %d", len(q))
	}
	if q := n.must(200, admin, "GET", "/api/v1/admin/reports?kind=issue", nil).list(); len(q) != 2 {
		t.Fatalf("issue queue: %v", q)
	}
	n.must(422, admin, "GET", "/api/v1/admin/reports?status=maybe", nil)
	n.must(422, admin, "GET", "/api/v1/admin/reports?kind=planet", nil)

	// 6. Dismiss: resolved, and only once.
	if rep := n.must(200, admin, "POST", "/api/v1/admin/reports/"+ids["user"]+"/dismiss", nil).obj(); rep["status"] != "resolved" || rep["action"] != "dismissed" {
		t.Fatalf("dismissed: %v", rep)
	}
	n.must(409, admin, "POST", "/api/v1/admin/reports/"+ids["user"]+"/dismiss", nil)
	n.must(404, admin, "POST", "/api/v1/admin/reports/999999/dismiss", nil)

	// 7. Hide the issue and the comment: others see the marker and the
	// reason, the admin the content, flagged.
	n.must(422, admin, "POST", "/api/v1/admin/reports/"+ids["issue"]+"/hide", map[string]any{"reason": ""})
	n.must(200, admin, "POST", "/api/v1/admin/reports/"+ids["issue"]+"/hide", map[string]any{"reason": "advertising"})
	n.must(200, admin, "POST", "/api/v1/admin/reports/"+ids["comment"]+"/hide", map[string]any{"reason": "advertising too"})
	for _, u := range []*forgetest.User{carol, nil} {
		is := n.must(200, u, "GET", base+"/issues/1", nil).obj()
		if is["hidden"] != true || is["hidden_reason"] != "advertising" || strings.Contains(fmt.Sprint(is["body"]), "buy now") || is["title"] == "spam title" {
			t.Fatalf("hidden issue as others see it: %v", is)
		}
		list := n.must(200, u, "GET", base+"/issues?state=all", nil).list()
		if len(list) != 1 || list[0]["hidden"] != true || list[0]["title"] == "spam title" {
			t.Fatalf("hidden issue in the list: %v", list)
		}
		cs := n.must(200, u, "GET", base+"/issues/1/comments", nil).list()
		if len(cs) != 1 || cs[0]["hidden"] != true || cs[0]["hidden_reason"] != "advertising too" || cs[0]["body"] == "more spam" {
			t.Fatalf("hidden comment as others see it: %v", cs)
		}
	}
	for _, e := range n.must(200, carol, "GET", base+"/issues/1/timeline", nil).list() {
		if e["type"] == "comment" && (e["hidden"] != true || e["body"] == "more spam") {
			t.Fatalf("hidden comment in the timeline: %v", e)
		}
	}
	if is := n.must(200, admin, "GET", base+"/issues/1", nil).obj(); is["hidden"] != true || is["body"] != "buy now" {
		t.Fatalf("hidden issue as the admin sees it: %v", is)
	}
	if cs := n.must(200, admin, "GET", base+"/issues/1/comments", nil).list(); cs[0]["body"] != "more spam" || cs[0]["hidden"] != true {
		t.Fatalf("hidden comment as the admin sees it: %v", cs)
	}
	issueKey := fmt.Sprintf("%v:1", n.must(200, admin, "GET", base, nil).obj()["id"])
	if h := n.must(200, admin, "GET", "/api/v1/admin/hidden/issue/"+issueKey, nil).obj(); h["reason"] != "advertising" {
		t.Fatalf("hidden entry: %v", h)
	}
	if mine := n.must(200, bob, "GET", "/api/v1/user/reports", nil).list(); !anyAction(mine, "hidden") {
		t.Fatalf("bob's reports after the hide: %v", mine)
	}

	// 7b. Hide the repository and the user: the repository leaves the
	// lists for others (not for the admin), and both pages carry the notice.
	repoRep := report(carol, "repository", an+"/tools", 201)
	n.must(200, admin, "POST", fmt.Sprintf("/api/v1/admin/reports/%v/hide", repoRep["id"]), map[string]any{"reason": "spam repository"})
	if rp := n.must(200, carol, "GET", base, nil).obj(); rp["hidden"] != true || rp["hidden_reason"] != "spam repository" {
		t.Fatalf("hidden repository: %v", rp)
	}
	search := "/api/v1/users/" + an + "/repos"
	if l := n.must(200, carol, "GET", search, nil).list(); len(l) != 0 {
		t.Fatalf("a hidden repository listed to others: %v", l)
	}
	if l := n.must(200, admin, "GET", search, nil).list(); len(l) != 1 {
		t.Fatalf("the admin's list: %v", l)
	}
	userRep := report(bob, "user", an, 201) // his first was dismissed
	n.must(200, admin, "POST", fmt.Sprintf("/api/v1/admin/reports/%v/hide", userRep["id"]), map[string]any{"reason": "spammer"})
	if u := n.must(200, bob, "GET", "/api/v1/users/"+an, nil).obj(); u["hidden"] != true || u["hidden_reason"] != "spammer" {
		t.Fatalf("hidden user: %v", u)
	}
	found := func(u *forgetest.User) int {
		var out struct{ Data []map[string]any }
		n.JSON("GET", "/api/v1/users/search?q="+an[len("user-"):], u, nil, 200, &out)
		return len(out.Data)
	}
	if others, admins := found(bob), found(admin); others != 0 || admins != 1 {
		t.Fatalf("a hidden user in the user search: %d for others, %d for the admin", others, admins)
	}
	if h := n.must(200, admin, "GET", "/api/v1/admin/hidden", nil).list(); len(h) != 4 {
		t.Fatalf("hidden list: %v", h)
	}

	// 8. Suspend alice through the repository's report: her writes are
	// refused with code suspended (API, git push, the chain relay); her
	// reads work.
	n.must(200, admin, "POST", "/api/v1/admin/reports/"+ids["repository"]+"/suspend", map[string]any{"reason": "spam account"})
	res := n.must(403, alice, "POST", base+"/issues", map[string]any{"title": "again", "body": "x"})
	if code := res.obj()["code"]; code != "suspended" {
		t.Fatalf("suspended write: %s", res.body)
	}
	n.must(200, alice, "GET", base+"/issues/1", nil)
	n.must(200, alice, "GET", "/api/v1/user", nil)
	dir := n.Clone(n.Remote(alice, an, "tools"))
	n.Commit(dir, "second", map[string]string{"NOTES.md": "notes\n"})
	if out, err := n.TryGit(dir, "push", "origin", "HEAD:main"); err == nil || !strings.Contains(out, "suspended") {
		t.Fatalf("a suspended push: %v\n%s", err, out)
	}
	if res := postSignedTransfer(t, n.Node, aliceKey, bob.Address); res.Status != 403 || !strings.Contains(string(res.Body), `"suspended"`) {
		t.Fatalf("a suspended account's relayed transaction: %d %s", res.Status, res.Body)
	}
	if s := n.must(200, admin, "GET", "/api/v1/admin/suspensions", nil).list(); len(s) != 1 || s[0]["address"] != alice.Address.Hex() || s[0]["reason"] != "spam account" {
		t.Fatalf("suspensions: %v", s)
	}

	// 9. Lift the ban and unhide: writes work again, the issue shows.
	n.must(204, admin, "DELETE", "/api/v1/admin/suspensions/"+alice.Address.Hex(), nil)
	n.must(404, admin, "DELETE", "/api/v1/admin/suspensions/"+alice.Address.Hex(), nil)
	n.must(201, alice, "POST", base+"/issues", map[string]any{"title": "again", "body": "x"})
	n.Git(dir, "push", "origin", "HEAD:main")
	n.must(204, admin, "DELETE", "/api/v1/admin/hidden/issue/"+issueKey, nil)
	n.must(404, admin, "GET", "/api/v1/admin/hidden/issue/"+issueKey, nil)
	if is := n.must(200, carol, "GET", base+"/issues/1", nil).obj(); is["hidden"] != nil || is["body"] != "buy now" {
		t.Fatalf("unhidden issue: %v", is)
	}
}

func anyAction(list []map[string]any, action string) bool {
	for _, r := range list {
		if r["action"] == action {
			return true
		}
	}
	return false
}

// postSignedTransfer relays a transfer key signs to the node's chain
// relay, as a wallet does.
func postSignedTransfer(t *testing.T, n *forgetest.Node, key *ecdsa.PrivateKey, to common.Address) forgetest.Response {
	t.Helper()
	env, err := tx.Sign(key, tx.KindTransfer, map[string]any{
		"from": crypto.PubkeyToAddress(key.PublicKey).Hex(), "to": to.Hex(), "amount": "1", "nonce": "0",
	}, n.Chain.Params().ChainID)
	if err != nil {
		t.Fatal(err)
	}
	return n.Call(http.MethodPost, "/api/v1/chain/txs", nil, env)
}

// A suspended account's push over SSH is refused with code suspended, its
// clone still works; lifted, the push goes through.
func TestSuspendedPushOverSSH(t *testing.T) {
	t.Parallel()
	adminKey, _ := crypto.GenerateKey()
	n := forgetest.Start(t, forgetest.WithSSH(), forgetest.WithAdmins(crypto.PubkeyToAddress(adminKey.PublicKey)))
	admin, alice, bob := keyedUser(t, n, adminKey), n.NewUser(), n.NewUser()
	key, _ := addKey(t, n, alice)
	create(t, n, alice, "hello", false)
	var rep struct{ ID int64 }
	n.JSON("POST", "/api/v1/reports", bob, map[string]any{"kind": "user", "target": alice.Name(), "reason": "abuse"}, http.StatusCreated, &rep)
	n.JSON("POST", fmt.Sprintf("/api/v1/admin/reports/%d/suspend", rep.ID), admin, map[string]any{"reason": "abuse"}, http.StatusOK, nil)

	dir := filepath.Join(t.TempDir(), "hello")
	n.GitSSH("", key, "clone", "--quiet", n.SSHRemote(alice.Name(), "hello"), dir)
	n.Commit(dir, "over ssh", map[string]string{"ssh.txt": "hello\n"})
	if out, err := n.TryGitSSH(dir, key, "push", "origin", "HEAD:main"); err == nil || !strings.Contains(out, "suspended") {
		t.Fatalf("a suspended push over ssh: %v\n%s", err, out)
	}
	n.JSON("DELETE", "/api/v1/admin/suspensions/"+alice.Address.Hex(), admin, nil, http.StatusNoContent, nil)
	n.GitSSH(dir, key, "push", "--quiet", "origin", "HEAD:main")
}
