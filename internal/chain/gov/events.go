package gov

import (
	"encoding/json"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
)

// Governance event types. Each carries the proposal (and the vote) as
// JSON in "data", which the index projects as it is.
const (
	EventProposal = "Proposal"
	EventVote     = "Vote"
)

// ProposalEvent describes a proposal after a change; cause is "propose",
// "vote", "end" or "execute".
func ProposalEvent(pr *Proposal, cause string) abci.Event {
	data, _ := json.Marshal(pr) // a Proposal always marshals
	return abci.Event{Type: EventProposal, Attributes: []abci.EventAttribute{
		{Key: "id", Value: strconv.FormatUint(pr.ID, 10), Index: true},
		{Key: "cause", Value: cause},
		{Key: "status", Value: pr.Status, Index: true},
		{Key: "data", Value: string(data)},
	}}
}

// VoteEvent describes a vote: the proposal with its new tally, the voter
// and the vote as JSON.
func VoteEvent(pr *Proposal, voter common.Address, v *Vote) abci.Event {
	data, _ := json.Marshal(v) // a Vote always marshals
	ev := ProposalEvent(pr, "vote")
	ev.Attributes = append(ev.Attributes,
		abci.EventAttribute{Key: "voter", Value: voter.Hex(), Index: true},
		abci.EventAttribute{Key: "vote", Value: string(data)})
	return ev
}
