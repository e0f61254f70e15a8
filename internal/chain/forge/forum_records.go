package forge

import "github.com/ethereum/go-ethereum/common"

// The forum's records, as its actions' events carry them (Change.ForumTopic,
// ForumPost, ForumRevision). The forum's actions, keys and rules are
// internal/chain/forum's; the records stay here because Change, whose JSON
// is the event, names them.

// ForumTopic is a forum topic: its opening text and the counters and
// flags the projection shows.
type ForumTopic struct {
	ID       uint64         `json:"id"`
	Category string         `json:"category"`
	Title    string         `json:"title"`
	Body     string         `json:"body"`
	Author   common.Address `json:"author"`
	Pinned   bool           `json:"pinned,omitempty"`
	Locked   bool           `json:"locked,omitempty"`
	// Answer is the accepted answer, a post of this topic; 0 for none.
	Answer uint64 `json:"answer,omitempty"`
	// Replies counts its posts; LastPostHeight is when the newest came
	// (the creation for none): lists sort by it.
	Replies        uint64 `json:"replies"`
	LastPostHeight uint64 `json:"lastPostHeight"`
	// Revisions counts its edits of title or body.
	Revisions     uint64 `json:"revisions,omitempty"`
	CreatedHeight uint64 `json:"createdHeight"`
	UpdatedHeight uint64 `json:"updatedHeight"`
}

// ForumPost is a reply in a topic. Quote is the post of the same topic it
// quotes; 0 for none.
type ForumPost struct {
	ID            uint64         `json:"id"`
	Topic         uint64         `json:"topic"`
	Author        common.Address `json:"author"`
	Body          string         `json:"body"`
	Quote         uint64         `json:"quote,omitempty"`
	Revisions     uint64         `json:"revisions,omitempty"`
	CreatedHeight uint64         `json:"createdHeight"`
	UpdatedHeight uint64         `json:"updatedHeight"`
}

// Kinds of forum revisions.
const (
	ForumRevisionTopic = "topic"
	ForumRevisionPost  = "post"
)

// ForumRevision is the text an edit replaced: revision N (1 for the
// first edit) of topic or post ID, as it was before, and who edited it.
type ForumRevision struct {
	Kind   string         `json:"kind"`
	ID     uint64         `json:"id"`
	N      uint64         `json:"n"`
	Title  string         `json:"title,omitempty"`
	Body   string         `json:"body"`
	Editor common.Address `json:"editor"`
}
