package forge

import "github.com/ethereum/go-ethereum/common"

// The community calendar's records, as its actions' events carry them
// (Change.CommunityEvent, Change.RSVP). Its actions, keys and rules are
// internal/chain/calendar's; the records stay here because Change, whose
// JSON is the event, names them.

// Event is an event on the community calendar.
type Event struct {
	ID          uint64         `json:"id"`
	Organizer   common.Address `json:"organizer"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	// StartsAt and EndsAt are Unix seconds; EndsAt is after StartsAt.
	StartsAt int64 `json:"startsAt"`
	EndsAt   int64 `json:"endsAt"`
	// Timezone is the IANA zone the organizer gave the times in.
	Timezone  string `json:"timezone"`
	OnlineURL string `json:"onlineUrl,omitempty"`
	Place     string `json:"place,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
	// Going and Maybe count the current answers.
	Going         uint64 `json:"going"`
	Maybe         uint64 `json:"maybe"`
	CreatedHeight uint64 `json:"createdHeight"`
	UpdatedHeight uint64 `json:"updatedHeight"`
}

// EventRSVP is one account's answer to an event.
type EventRSVP struct {
	Event  uint64         `json:"event"`
	User   common.Address `json:"user"`
	Status string         `json:"status"`
}
