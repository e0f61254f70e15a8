package market_test

import (
	"slices"
	"testing"

	chainlisting "github.com/dforge/dforge/internal/chain/listing"
	"github.com/dforge/dforge/internal/webhook"
)

// The chain's list of events a listing may ask for is the webhooks' list
// and Gitea's events no node sends (wiki, package), which an install's
// webhook leaves out; the chain's list cannot shrink without a rule
// change.
func TestListingEventsAreTheWebhookEvents(t *testing.T) {
	if got := webhook.Sent(chainlisting.Events); !slices.Equal(got, webhook.Events) {
		t.Fatalf("chain listing events %v give webhook events %v, want %v", chainlisting.Events, got, webhook.Events)
	}
	for _, e := range chainlisting.Events {
		if !slices.Contains(webhook.Events, e) && !webhook.NeverSent(e) {
			t.Fatalf("chain listing event %q is neither sent nor known never to be", e)
		}
	}
}
