package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/forgetest"
)

// What this node's moderators hid stays hidden in the activity feeds and
// in notification subjects, as on the issue and comment routes (issue 23):
// the node's list, the signed-in feed, Gitea's user and repository feeds,
// the notification list, one thread and the dashboard show the marker to
// everyone but the admins.
func TestHiddenContentLeavesFeedsAndNotifications(t *testing.T) {
	t.Parallel()
	adminKey, _ := crypto.GenerateKey()
	n := &issuesNode{Node: forgetest.Start(t, forgetest.WithAdmins(crypto.PubkeyToAddress(adminKey.PublicKey))), t: t}
	admin := keyedUser(t, n.Node, adminKey)
	alice, bob := n.NewUser(), n.NewUser()
	an := alice.Name()
	n.repo(alice, "shop", false)
	base := "/api/v1/repos/" + an + "/shop"
	// bob's star puts him on chain, so his default name resolves in a mention.
	n.must(204, bob, "PUT", "/api/v1/user/starred/"+an+"/shop", nil)
	n.must(201, alice, "POST", base+"/issues", map[string]any{"title": "spam title", "body": "buy now @" + bob.Name()})
	com := n.must(201, alice, "POST", base+"/issues/1/comments", map[string]any{"body": "more spam @" + bob.Name()}).obj()
	thread := n.must(200, bob, "GET", "/api/v1/notifications?all=true", nil).list()
	if len(thread) == 0 {
		t.Fatal("bob has no notification of the mention")
	}
	reads := []struct {
		path string
		who  *forgetest.User
	}{
		{"/api/v1/activity", nil},
		{"/api/v1/activity", bob},
		{"/api/v1/user/feed", alice},
		{"/api/v1/users/" + an + "/activities/feeds?only-performed-by=true", bob},
		{base + "/activities/feeds", nil},
		{base + "/issues?state=all", nil},
		{base + "/issues/1/comments", bob},
		{"/api/v1/notifications?all=true", bob},
		{fmt.Sprintf("/api/v1/notifications/threads/%v", thread[0]["id"]), bob},
		{"/api/v1/user/dashboard", bob},
	}
	// Every list is read before the hide, so that what it keeps (pages,
	// encoded items) must follow the hide.
	for _, rd := range reads {
		n.must(200, rd.who, "GET", rd.path, nil)
	}
	hide(t, n, admin, bob, "issue", an+"/shop#1")
	hide(t, n, admin, bob, "comment", fmt.Sprintf("%s/shop/comments/%v", an, com["id"]))
	for _, rd := range reads {
		body := string(n.must(200, rd.who, "GET", rd.path, nil).body)
		if strings.Contains(body, "spam title") || strings.Contains(body, "more spam") {
			t.Errorf("GET %s shows hidden content: %.400s", rd.path, body)
		}
	}
	// The admins still see it, to review the hide.
	if body := string(n.must(200, admin, "GET", "/api/v1/activity", nil).body); !strings.Contains(body, "spam title") || !strings.Contains(body, "more spam") {
		t.Errorf("the admin's activity lost the hidden content: %.400s", body)
	}
}

// hide has reporter report the target and the admin hide it.
func hide(t *testing.T, n *issuesNode, admin, reporter *forgetest.User, kind, target string) {
	t.Helper()
	rep := n.must(201, reporter, "POST", "/api/v1/reports", map[string]any{"kind": kind, "target": target, "reason": "spam"}).obj()
	n.must(200, admin, "POST", fmt.Sprintf("/api/v1/admin/reports/%v/hide", rep["id"]), map[string]any{"reason": "advertising"})
}
