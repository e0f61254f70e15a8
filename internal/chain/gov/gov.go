// Package gov is the chain module for governance: proposals, votes and
// their tally. Voting power is the voter's stake at the start of the
// proposal's block times the reputation multiplier then, in basis points.
// Stakes keep a history (checkpoint lists) instead of being copied when a
// proposal is made, and the tally is kept as votes arrive, so ending a
// vote costs the same for ten voters or a hundred thousand.
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
//	gov/stake/<addr>         checkpoint list: A = the account's stake from that height
package gov

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/checkpoint"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/reputation"
)

// KV is the state the module reads and writes.
type KV = checkpoint.KV

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

// Rule violations; the app gives each a transaction code.
var (
	ErrInvalid           = errors.New("invalid proposal")
	ErrNotFound          = errors.New("no such proposal")
	ErrClosed            = errors.New("voting on this proposal has ended")
	ErrNoPower           = errors.New("no voting power on this proposal")
	ErrInsufficientStake = errors.New("not enough stake to propose")
	ErrBadDeposit        = errors.New("the deposit does not match the chain's proposal deposit")
)

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
func stakeKey(a common.Address) []byte  { return append([]byte("gov/stake/"), a.Bytes()...) }
func stakerKey(a common.Address) []byte { return append([]byte("gov/staker/"), a.Bytes()...) }
func stakerAtKey(i uint64) []byte       { return binary.BigEndian.AppendUint64([]byte("gov/stakers/"), i) }

var (
	seqKey         = []byte("gov/seq")
	stakerCountKey = []byte("gov/stakers/n")
)

// GetProposal reads proposal id.
func GetProposal(kv KV, id uint64) (*Proposal, error) {
	var p Proposal
	ok, err := getJSON(kv, proposalKey(id), &p)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w #%d", ErrNotFound, id)
	}
	return &p, nil
}

func saveProposal(kv KV, p *Proposal) error { return putJSON(kv, proposalKey(p.ID), p) }

// GetVote reads a's vote on proposal id; nil when a has not voted.
func GetVote(kv KV, id uint64, a common.Address) (*Vote, error) {
	var v Vote
	ok, err := getJSON(kv, voteKey(id, a), &v)
	if err != nil || !ok {
		return nil, err
	}
	return &v, nil
}

func getJSON(kv KV, key []byte, dst any) (bool, error) {
	raw, err := kv.Get(key)
	if err != nil || raw == nil {
		return false, err
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return false, fmt.Errorf("decode %q: %w", key, err)
	}
	return true, nil
}

func putJSON(kv KV, key []byte, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return kv.Set(key, raw)
}

func getUint(kv KV, key []byte) (uint64, error) {
	v, err := kv.Get(key)
	if err != nil || v == nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("corrupt value at %q", key)
	}
	return binary.BigEndian.Uint64(v), nil
}

func setUint(kv KV, key []byte, n uint64) error {
	return kv.Set(key, binary.BigEndian.AppendUint64(nil, n))
}

// StakeChanged records a's stake (now staked) from height on; the ledger
// calls nothing itself, so the app calls this after every Stake and Unstake.
func StakeChanged(kv KV, a common.Address, height, staked uint64) error {
	place, err := getUint(kv, stakerKey(a))
	if err != nil {
		return err
	}
	if place == 0 {
		n, err := getUint(kv, stakerCountKey)
		if err != nil {
			return err
		}
		if err := kv.Set(stakerAtKey(n), a.Bytes()); err != nil {
			return err
		}
		if err := setUint(kv, stakerCountKey, n+1); err != nil {
			return err
		}
		if err := setUint(kv, stakerKey(a), n+1); err != nil {
			return err
		}
	}
	return checkpoint.Record(kv, stakeKey(a), checkpoint.Entry{Height: height, A: staked})
}

// PowerBefore is a's voting power at the start of block height: its stake
// then times its reputation multiplier then.
func PowerBefore(kv KV, p params.Reputation, a common.Address, height uint64) (stake, multiplierBps, power uint64, err error) {
	e, _, err := checkpoint.Before(kv, stakeKey(a), height)
	if err != nil {
		return 0, 0, 0, err
	}
	score, err := reputation.ScoreBefore(kv, p, a, height)
	if err != nil {
		return 0, 0, 0, err
	}
	m := reputation.Multiplier(p, score)
	return e.A, m, reputation.Apply(e.A, m), nil
}

// TotalPowerBefore sums every staker's power at the start of block
// height. It reads every account that ever staked: proposals are rare, and
// this keeps votes and tallies from reading more than their own keys.
func TotalPowerBefore(kv KV, p params.Reputation, height uint64) (uint64, error) {
	n, err := getUint(kv, stakerCountKey)
	if err != nil {
		return 0, err
	}
	var total uint64
	for i := range n {
		raw, err := kv.Get(stakerAtKey(i))
		if err != nil {
			return 0, err
		}
		_, _, power, err := PowerBefore(kv, p, common.BytesToAddress(raw), height)
		if err != nil {
			return 0, err
		}
		if total+power < total {
			return 0, errors.New("total voting power overflows")
		}
		total += power
	}
	return total, nil
}

func idList(kv KV, key []byte) ([]uint64, error) {
	var ids []uint64
	_, err := getJSON(kv, key, &ids)
	return ids, err
}

func appendID(kv KV, key []byte, id uint64) error {
	ids, err := idList(kv, key)
	if err != nil {
		return err
	}
	return putJSON(kv, key, append(ids, id))
}
