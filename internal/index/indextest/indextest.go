// Package indextest helps tests compare projections of the chain: a dump
// of the projection's tables as text, and a comparison of two dumps table
// by table.
package indextest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/store"
)

// Tables are the projection's tables with the order that makes a dump of
// each deterministic.
var Tables = map[string]string{
	"chain_index":    "id",
	"chain_blocks":   "height",
	"chain_txs":      "height, tx_index",
	"chain_accounts": "address",
	"chain_nodes":    "operator",
	// Community roles' holders.
	"community_roles": "address, role",
	// The forge's projection (without forge_private_index, node-local).
	"forge_repos":           "id",
	"forge_collaborators":   "repo_id, user_address",
	"forge_stars":           "repo_id, user_address",
	"forge_watches":         "repo_id, user_address",
	"forge_labels":          "id",
	"forge_issues":          "repo_id, number",
	"forge_issue_labels":    "repo_id, number, label_id",
	"forge_issue_assignees": "repo_id, number, assignee",
	"forge_comments":        "id",
	"forge_pulls":           "repo_id, number",
	"forge_reviews":         "id",
	"forge_review_comments": "id",
	"forge_ref_updates":     "id",
	"forge_activity":        "repo_id, verb, k",
	// Organizations and teams.
	"forge_orgs":         "id",
	"forge_teams":        "id",
	"forge_team_members": "team_id, user_address",
	"forge_team_repos":   "team_id, repo_id",
	// Community events and their answers.
	"community_events":      "id",
	"community_event_rsvps": "event_id, address",
	// The marketplace (market_hooks is node-local).
	"market_listings": "id",
	"market_installs": "listing_id, repo_id",
	// Governance and rewards.
	"gov_proposals": "id",
	"gov_votes":     "proposal, voter",
	"chain_rewards": "height, seq",
	"chain_epochs":  "epoch",

	"bounties":       "repo_id, number",
	"bounty_funders": "repo_id, number, seq",
	// Treasury grants.
	"grants":           "id",
	"grant_milestones": "grant_id, milestone",
	"grant_approvals":  "grant_id, milestone, reviewer",
	// The counters of the notifications derived from all of the above: a
	// rebuild, in place (after a reset) or fresh, must count the same.
	"notification_counts": "user_address, repo_id, subject_type, reason, unread, pinned",
	// The counters of the issue lists, kept by triggers (migration 00083).
	"forge_issue_counts": "repo_id, is_pull, state, block",
	// The counters of the comment lists (migration 00085).
	"forge_comment_counts": "repo_id, number",
	"forum_topic_counts":   "category",
	// The counters of the activity lists (migrations 00087 and 00089).
	"forge_activity_counts":      "repo_id, actor",
	"forge_activity_repo_counts": "repo_id",
}

// Dump reads every row of the projection in st as text.
func Dump(t testing.TB, st *store.Store) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for table, order := range Tables {
		rows, err := st.DB().Query("SELECT * FROM " + table + " ORDER BY " + order)
		if err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("scan %s: %v", table, err)
			}
			cells := make([]string, len(vals))
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				cells[i] = fmt.Sprint(v)
			}
			out[table] = append(out[table], strings.Join(cells, "|"))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		rows.Close()
	}
	return out
}

// SameDump fails the test, naming each table that differs, unless got and
// want are the same projection.
func SameDump(t testing.TB, what string, got, want map[string][]string) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	for table := range Tables {
		if !reflect.DeepEqual(got[table], want[table]) {
			t.Errorf("%s: table %s differs:\n got  %q\n want %q", what, table, got[table], want[table])
		}
	}
}
