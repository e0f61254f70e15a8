package market_test

import (
	"slices"
	"testing"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/webhook"
)

// The chain's list of events a listing may ask for is the webhooks' list:
// an install's webhook takes every event its listing names.
func TestListingEventsAreTheWebhookEvents(t *testing.T) {
	if !slices.Equal(chainforge.ListingEvents, webhook.Events) {
		t.Fatalf("chain listing events %v differ from webhook events %v", chainforge.ListingEvents, webhook.Events)
	}
}
