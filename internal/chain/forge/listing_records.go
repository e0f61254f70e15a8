package forge

import "github.com/ethereum/go-ethereum/common"

// The marketplace's records, as its actions' events carry them
// (Change.Listing, Change.Install). Its actions, keys and rules are
// internal/chain/listing's; the records stay here because Change, whose
// JSON is the event, names them.

// Listing is a marketplace listing as stored and projected.
type Listing struct {
	ID            uint64         `json:"id"`
	Publisher     common.Address `json:"publisher"`
	Name          string         `json:"name"`
	Description   string         `json:"description"`
	Events        []string       `json:"events"`
	URLTemplate   string         `json:"url_template"`
	Homepage      string         `json:"homepage"`
	Deleted       bool           `json:"deleted,omitempty"`
	CreatedHeight uint64         `json:"createdHeight"`
	UpdatedHeight uint64         `json:"updatedHeight"`
}

// Install is a listing installed in a repository (On) or removed from it.
type Install struct {
	Listing   uint64         `json:"listing"`
	Repo      uint64         `json:"repo"`
	Installer common.Address `json:"installer"`
	On        bool           `json:"on"`
}
