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
