// Package gov is the chain module for governance: proposals, votes and
// their tally. Voting power is the voter's stake at the start of the
// proposal's block times the reputation multiplier then, in basis points.
//
// Every staker's power record (stake and multiplier) and the chain's total
// power keep a history (checkpoint lists), so a proposal snapshots them by
// reading one record, and the tally is kept as votes arrive: making a
// proposal, voting and ending a vote each cost the same for ten stakers or
// a hundred thousand. A record is refreshed when its stake changes, when
// its owner earns reputation, and by a sweep of a few stakers at the start
// of every block, which carries reputation decay into voting power within
// an epoch however many stakers there are.
//
// State keys:
//
//	gov/seq                  the last proposal id
//	gov/proposal/<id>        a Proposal (JSON)
//	gov/vote/<id>/<addr>     a Vote (JSON)
//	gov/ends/<height>        ids whose voting ends at the start of height (JSON)
//	gov/exec/<height>        ids executed at the start of height (JSON)
//	gov/stakers/n, /<i>      every account that ever staked, in order
//	gov/staker/<addr>        its place in that list, plus one
//	gov/power/<addr>         checkpoint list: A = stake, B = multiplier (bps)
//	gov/total                checkpoint list: A = Σ stake × multiplier
package gov

import (
	"encoding/binary"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/checkpoint"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/reputation"
	"github.com/dforge/dforge/internal/chain/state"
)

// Proposal statuses.
const (
	StatusActive   = "active"
	StatusPassed   = "passed"
	StatusRejected = "rejected"
	StatusExecuted = "executed"
	StatusFailed   = "failed" // passed, but its effect could not be applied
)

// Proposal types.
const (
	TypeText      = "text"
	TypeParam     = "param"
	TypeSpend     = "spend"
	TypeValidator = "validator"
	TypeRole      = "role" // grants or revokes a community role (package roles)
	// TypeGrant escrows a grant's total from the treasury; its reviewers
	// release it milestone by milestone (package grants).
	TypeGrant = "grant"
	// TypeUpgrade schedules a named rule change at a height (package
	// upgrade): from that block on the new rules apply.
	TypeUpgrade = "upgrade"
)

// Options of a vote.
const (
	Yes     = "yes"
	No      = "no"
	Abstain = "abstain"
)

// Proposal is a proposal with its running tally.
type Proposal struct {
	ID          uint64            `json:"id"`
	Proposer    common.Address    `json:"proposer"`
	Type        string            `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Payload     map[string]string `json:"payload"`
	Deposit     uint64            `json:"deposit"`
	Status      string            `json:"status"`
	Failure     string            `json:"failure,omitempty"`
	// CreatedHeight is the block it was made in; power is snapshotted at
	// that block's start.
	CreatedHeight uint64 `json:"createdHeight"`
	// VotingEndHeight is the block at whose start voting ends: votes are
	// taken in blocks before it.
	VotingEndHeight uint64 `json:"votingEndHeight"`
	// ExecuteHeight is when a passed proposal with an effect is applied;
	// 0 until it passes, or when it has no effect.
	ExecuteHeight uint64 `json:"executeHeight,omitempty"`
	EndedHeight   uint64 `json:"endedHeight,omitempty"`
	// The parameters it is judged by, fixed when it is made.
	QuorumBps    uint64 `json:"quorumBps"`
	ThresholdBps uint64 `json:"thresholdBps"`
	TotalPower   uint64 `json:"totalPower"`
	Yes          uint64 `json:"yes"`
	No           uint64 `json:"no"`
	Abstain      uint64 `json:"abstain"`
	Voters       uint64 `json:"voters"`
}

// Vote is one account's vote on a proposal.
type Vote struct {
	Proposal uint64         `json:"proposal"`
	Voter    common.Address `json:"voter"`
	Option   string         `json:"option"`
	Power    uint64         `json:"power"`
	Height   uint64         `json:"height"`
}

// Text limits.
const (
	MaxTitle       = 200
	MaxDescription = 20_000
	MaxReason      = 1_000
)

func proposalKey(id uint64) []byte { return binary.BigEndian.AppendUint64([]byte("gov/proposal/"), id) }
func voteKey(id uint64, a common.Address) []byte {
	return append(binary.BigEndian.AppendUint64([]byte("gov/vote/"), id), a.Bytes()...)
}
func endsKey(h uint64) []byte           { return binary.BigEndian.AppendUint64([]byte("gov/ends/"), h) }
func execKey(h uint64) []byte           { return binary.BigEndian.AppendUint64([]byte("gov/exec/"), h) }
func powerKey(a common.Address) []byte  { return append([]byte("gov/power/"), a.Bytes()...) }
func stakerKey(a common.Address) []byte { return append([]byte("gov/staker/"), a.Bytes()...) }
func stakerAtKey(i uint64) []byte       { return binary.BigEndian.AppendUint64([]byte("gov/stakers/"), i) }

var (
	seqKey         = []byte("gov/seq")
	stakerCountKey = []byte("gov/stakers/n")
	totalKey       = []byte("gov/total")
)

// GetProposal reads proposal id.
func GetProposal(kv state.KV, id uint64) (*Proposal, error) {
	var p Proposal
	ok, err := state.GetJSON(kv, proposalKey(id), &p)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w #%d", ErrNotFound, id)
	}
	return &p, nil
}

func saveProposal(kv state.KV, p *Proposal) error { return state.SetJSON(kv, proposalKey(p.ID), p) }

// GetVote reads a's vote on proposal id; nil when a has not voted.
func GetVote(kv state.KV, id uint64, a common.Address) (*Vote, error) {
	var v Vote
	ok, err := state.GetJSON(kv, voteKey(id, a), &v)
	if err != nil || !ok {
		return nil, err
	}
	return &v, nil
}

// StakeChanged refreshes a's power record after its stake became staked;
// the app calls it after every Stake and Unstake.
func StakeChanged(kv state.KV, p params.Reputation, a common.Address, height, staked uint64) error {
	if err := enlist(kv, a); err != nil {
		return err
	}
	return refresh(kv, p, a, height, staked)
}

// Refresh recomputes a's power record from its current stake and
// reputation (after a reward raised it); an account that never staked has
// none to refresh.
func Refresh(kv state.KV, p params.Reputation, a common.Address, height uint64) error {
	place, err := state.GetUint64(kv, stakerKey(a))
	if err != nil || place == 0 {
		return err
	}
	staked, err := ledger.Staked(kv, a)
	if err != nil {
		return err
	}
	return refresh(kv, p, a, height, staked)
}

// enlist adds a to the staker list the sweep walks.
func enlist(kv state.KV, a common.Address) error {
	place, err := state.GetUint64(kv, stakerKey(a))
	if err != nil || place != 0 {
		return err
	}
	n, err := state.GetUint64(kv, stakerCountKey)
	if err != nil {
		return err
	}
	if err := kv.Set(stakerAtKey(n), a.Bytes()); err != nil {
		return err
	}
	if err := state.SetUint64(kv, stakerCountKey, n+1); err != nil {
		return err
	}
	return state.SetUint64(kv, stakerKey(a), n+1)
}

// refresh writes a's record and moves the total by the change in power;
// nothing is written when nothing changed.
func refresh(kv state.KV, p params.Reputation, a common.Address, height, staked uint64) error {
	score, err := reputation.Score(kv, p, a)
	if err != nil {
		return err
	}
	m := reputation.Multiplier(p, score)
	old, _, err := checkpoint.Last(kv, powerKey(a))
	if err != nil {
		return err
	}
	if old.A == staked && old.B == m {
		return nil
	}
	if err := checkpoint.Record(kv, powerKey(a), checkpoint.Entry{Height: height, A: staked, B: m}); err != nil {
		return err
	}
	total, _, err := checkpoint.Last(kv, totalKey)
	if err != nil {
		return err
	}
	sum := total.A - reputation.Apply(old.A, old.B) + reputation.Apply(staked, m)
	return checkpoint.Record(kv, totalKey, checkpoint.Entry{Height: height, A: sum})
}

// Sweep refreshes n stakers, block after block round the staker list, so
// decayed reputation reaches voting power without an epoch-wide rewrite.
// Where it starts follows from the height, so a sweep that changes nothing
// writes nothing (an idle chain's blocks keep their app hash).
func Sweep(kv state.KV, p params.Reputation, height uint64, n int) error {
	count, err := state.GetUint64(kv, stakerCountKey)
	if err != nil || count == 0 {
		return err
	}
	at := height % count * uint64(n) % count
	for range min(uint64(n), count) {
		at %= count
		raw, err := kv.Get(stakerAtKey(at))
		if err != nil {
			return err
		}
		if err := Refresh(kv, p, common.BytesToAddress(raw), height); err != nil {
			return err
		}
		at++
	}
	return nil
}

// PowerBefore is a's voting power at the start of block height: its stake
// then times its multiplier then.
func PowerBefore(kv state.KV, _ params.Reputation, a common.Address, height uint64) (stake, multiplierBps, power uint64, err error) {
	e, ok, err := checkpoint.Before(kv, powerKey(a), height)
	if err != nil || !ok {
		return 0, params.OneBps, 0, err
	}
	return e.A, e.B, reputation.Apply(e.A, e.B), nil
}

// TotalPowerBefore is every staker's power summed, at the start of block height.
func TotalPowerBefore(kv state.KV, _ params.Reputation, height uint64) (uint64, error) {
	e, _, err := checkpoint.Before(kv, totalKey, height)
	return e.A, err
}

func idList(kv state.KV, key []byte) ([]uint64, error) {
	var ids []uint64
	_, err := state.GetJSON(kv, key, &ids)
	return ids, err
}

func appendID(kv state.KV, key []byte, id uint64) error {
	ids, err := idList(kv, key)
	if err != nil {
		return err
	}
	return state.SetJSON(kv, key, append(ids, id))
}
