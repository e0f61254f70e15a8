package api_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/forgetest"
)

// TestDashboardFollowsChanges: the dashboard is kept between changes
// (index.RememberAnswer), so it must show a new block's work and a
// moderator's hide at once, and the admin's own view stays unmasked.
func TestDashboardFollowsChanges(t *testing.T) {
	for name, opts := range forgetest.Stores() {
		t.Run(name, func(t *testing.T) {
			adminKey, _ := crypto.GenerateKey()
			aliceKey, _ := crypto.GenerateKey()
			n := &issuesNode{Node: forgetest.Start(t, append(opts, forgetest.WithAdmins(crypto.PubkeyToAddress(adminKey.PublicKey)))...), t: t}
			admin, alice, bob := keyedUser(t, n.Node, adminKey), keyedUser(t, n.Node, aliceKey), n.NewUser()
			an := alice.Name()
			n.repo(alice, "tools", false)
			base := "/api/v1/repos/" + an + "/tools"
			n.must(201, alice, "POST", base+"/issues", map[string]any{"title": "First task", "assignees": []string{an}})

			dash := func() dashOut {
				t.Helper()
				var d dashOut
				if err := json.Unmarshal(n.must(200, alice, "GET", "/api/v1/user/dashboard", nil).body, &d); err != nil {
					t.Fatal(err)
				}
				return d
			}
			if d := dash(); d.Assigned.titles() != "First task" {
				t.Fatalf("assigned before: %q", d.Assigned.titles())
			}
			// A new block: the kept answer is not used again.
			n.must(201, alice, "POST", base+"/issues", map[string]any{"title": "Second task", "assignees": []string{an}})
			if d := dash(); d.Assigned.TotalCount != 2 || sorted(d.Assigned.titles()) != "First task,Second task" {
				t.Fatalf("assigned after a new issue: %q (%d)", d.Assigned.titles(), d.Assigned.TotalCount)
			}
			// A hide changes no block, and shows at once.
			rep := n.must(201, bob, "POST", "/api/v1/reports", map[string]any{"kind": "issue", "target": an + "/tools#1", "reason": "spam"}).obj()
			n.must(200, admin, "POST", fmt.Sprintf("/api/v1/admin/reports/%v/hide", rep["id"]), map[string]any{"reason": "advertising"})
			if d := dash(); sorted(d.Assigned.titles()) != "Second task,[hidden by this node's moderators]" {
				t.Fatalf("assigned after the hide: %q", d.Assigned.titles())
			}
		})
	}
}

// sorted is a comma-separated list in order, for sections whose order
// among equally recent items is not fixed.
func sorted(list string) string {
	parts := strings.Split(list, ",")
	slices.Sort(parts)
	return strings.Join(parts, ",")
}
