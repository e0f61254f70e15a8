package webhook

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// The settings page offers exactly the events a hook may subscribe to,
// which are the events this node sends.
func TestSettingsPageOffersTheEventsSent(t *testing.T) {
	src, err := os.ReadFile("../../web/src/features/webhooks/api.ts")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)export const HOOK_EVENTS = \[(.*?)\] as const`).FindSubmatch(src)
	if block == nil {
		t.Fatal("no HOOK_EVENTS in the settings page's api.ts")
	}
	var page []string
	for _, m := range regexp.MustCompile(`'([a-z_]+)'`).FindAllSubmatch(block[1], -1) {
		page = append(page, string(m[1]))
	}
	if !slices.Equal(slices.Sorted(slices.Values(page)), slices.Sorted(slices.Values(Events))) {
		t.Fatalf("the settings page offers %v; hooks take %v", page, Events)
	}
}

// A subscription to issues or pull_request also takes the events under
// it, as Gitea's issuesHook and pullHook decide; other subscriptions take
// their own event only.
func TestGroupSubscriptionsTakeTheirEvents(t *testing.T) {
	cases := []struct {
		events []string
		event  string
		want   bool
	}{
		{[]string{"issues"}, "issues", true},
		{[]string{"issues"}, "issue_label", true},
		{[]string{"issues"}, "issue_assign", true},
		{[]string{"issues"}, "issue_comment", true},
		{[]string{"issues"}, "pull_request_label", false},
		{[]string{"pull_request"}, "pull_request_review_approved", true},
		{[]string{"pull_request"}, "pull_request_review_request", true},
		{[]string{"pull_request"}, "issue_label", false},
		{[]string{"issue_label"}, "issue_label", true},
		{[]string{"issue_label"}, "issues", false},
		{[]string{"issue_label"}, "issue_assign", false},
		{[]string{"release"}, "status", false},
	}
	for _, c := range cases {
		if got := (Hook{Active: true, Events: c.events}).wants(c.event); got != c.want {
			t.Errorf("a hook subscribed to %v wants %s: %v, want %v", c.events, c.event, got, c.want)
		}
	}
	if (Hook{Events: []string{"issues"}}).wants("issues") {
		t.Error("an inactive hook wants an event")
	}
}
