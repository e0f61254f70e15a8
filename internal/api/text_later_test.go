package api_test

import (
	"net/http"
	"testing"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestControlCharactersRefusedInLaterFields is TestControlCharactersRefused
// for the text fields of the endpoints added after issue 11
// (organizations, teams, milestones, releases, commit statuses, branch
// protections, keys, emails, messages, reports), on SQLite and on
// PostgreSQL: a NUL anywhere, or a line break in a one-line field, is 422
// invalid_text naming the field as the client sent it (full_name, not the
// chain payload's fullName), nothing is relayed, and writes go on.
func TestControlCharactersRefusedInLaterFields(t *testing.T) {
	t.Parallel()
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := &issuesNode{Node: forgetest.Start(t, opts...), t: t}
			alice := n.NewUser("write", "admin")
			n.repo(alice, "app", false)
			base := "/api/v1/repos/" + alice.Name() + "/app"
			n.must(http.StatusCreated, alice, "POST", "/api/v1/orgs", map[string]any{"username": "acme-" + name})
			n.must(http.StatusCreated, alice, "POST", base+"/milestones", map[string]any{"title": "m1"})
			branch := n.must(http.StatusOK, nil, "GET", base+"/branches/main", nil).obj()
			sha := branch["commit"].(map[string]any)["id"].(string)

			nonce := n.operatorNonce()
			for _, c := range laterTextCases(base, "/api/v1/orgs/acme-"+name, sha) {
				n.refusedText(alice, c)
			}
			if got := n.operatorNonce(); got != nonce {
				t.Fatalf("the operator's nonce moved from %d to %d: a refused action was relayed", nonce, got)
			}
			n.must(http.StatusCreated, alice, "POST", base+"/milestones", map[string]any{"title": "m2", "description": "two\n\tlines"})
			n.must(http.StatusCreated, alice, "POST", base+"/releases", map[string]any{"tag_name": "v1", "name": "One", "body": "notes\r\n"})
			n.writesStillWork(alice, base)
		})
	}
}

func laterTextCases(base, org, sha string) []textCase {
	const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
	status := func(k, v string) map[string]any {
		b := map[string]any{"state": "success", "context": "ci"}
		b[k] = v
		return b
	}
	return []textCase{
		{"POST", "/api/v1/orgs", map[string]any{"username": "o2", "full_name": "A\nB"}, "full_name"},
		{"POST", "/api/v1/orgs", map[string]any{"username": "o3", "full_name": "A\x00"}, "full_name"},
		{"POST", "/api/v1/orgs", map[string]any{"username": "o4", "description": "a\nb"}, "description"},
		{"POST", "/api/v1/orgs", map[string]any{"username": "o5", "website": "https://a\tb"}, "website"},
		{"PATCH", org, map[string]any{"full_name": "a\rb"}, "full_name"},
		{"PATCH", org, map[string]any{"location": "a\nb"}, "location"},
		{"POST", org + "/teams", map[string]any{"name": "t\n", "permission": "read"}, "name"},
		{"POST", org + "/teams", map[string]any{"name": "t", "description": "a\x00", "permission": "read"}, "description"},
		{"POST", base + "/milestones", map[string]any{"title": "m\n"}, "title"},
		{"PATCH", base + "/milestones/1", map[string]any{"title": "m\x01"}, "title"},
		{"POST", base + "/milestones", map[string]any{"title": "m3", "description": "\x00"}, "description"},
		{"POST", base + "/releases", map[string]any{"tag_name": "v1\n"}, "tag_name"},
		{"POST", base + "/releases", map[string]any{"tag_name": "v1", "name": "a\nb"}, "name"},
		{"POST", base + "/releases", map[string]any{"tag_name": "v1", "target_commitish": "main\t"}, "target_commitish"},
		{"POST", base + "/releases", map[string]any{"tag_name": "v1", "body": "a\x00"}, "body"},
		{"POST", base + "/statuses/" + sha, status("context", "ci\n"), "context"},
		{"POST", base + "/statuses/" + sha, status("description", "a\nb"), "description"},
		{"POST", base + "/statuses/" + sha, status("target_url", "https://a\tb"), "target_url"},
		{"PATCH", base, map[string]any{"website": "https://a\nb"}, "website"},
		{"POST", base + "/branch_protections", map[string]any{"rule_name": "a\nb"}, "rule_name"},
		{"POST", base + "/branch_protections", map[string]any{"branch_name": "a\x00b"}, "branch_name"},
		{"POST", "/api/v1/user/keys", map[string]any{"title": "k\nx", "key": key}, "title"},
		{"POST", "/api/v1/user/emails", map[string]any{"emails": []string{"a\n@b.example"}}, "emails[0]"},
		{"POST", "/api/v1/messages", map[string]any{"to": "x", "body": "\x00"}, "body"},
		{"POST", "/api/v1/reports", map[string]any{"target": "user:x", "reason": "spam", "detail": "\x00"}, "detail"},
	}
}
