// Package grants is the chain module of treasury grants. A grant is made by
// a governance proposal of type grant: once it passes and executes, the
// app moves the total from the treasury to the grant escrow and Open
// records the grant. Its named reviewers approve milestones with
// wallet-signed GrantApprove transactions; once more than half of them
// approved one, Approve reports it released and the app pays its
// recipient from the escrow. At the expiry height Expire closes what is
// still open and the app returns the unreleased rest to the treasury.
//
// The module keeps the bookkeeping only; the app moves the tokens, in the
// same transaction or block step, so escrow and grants always agree.
//
// State keys:
//
//	grants/<id>              a Grant (JSON); id is the proposal's
//	grants/expiry/<height>   ids of the grants that expire at the start of height (JSON)
package grants

import (
	"encoding/binary"
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// Grant statuses on chain; the index adds proposed and rejected for grant
// proposals that are still voted on or did not pass.
const (
	StatusActive    = "active"
	StatusCompleted = "completed" // every milestone released
	StatusExpired   = "expired"
)

// Grant is an executed grant with its milestones and their approvals.
type Grant struct {
	ID         uint64           `json:"id"`
	Proposer   common.Address   `json:"proposer"`
	Title      string           `json:"title"`
	Reviewers  []common.Address `json:"reviewers"`
	Milestones []Milestone      `json:"milestones"`
	Total      uint64           `json:"total"`
	Released   uint64           `json:"released"`
	// Refunded is what went back to the treasury at expiry.
	Refunded      uint64 `json:"refunded"`
	Expiry        uint64 `json:"expiry"`
	Status        string `json:"status"`
	OpenedHeight  uint64 `json:"openedHeight"`
	ExpiredHeight uint64 `json:"expiredHeight,omitempty"`
}

// Milestone is one payment of a grant.
type Milestone struct {
	Description    string         `json:"description"`
	Amount         uint64         `json:"amount"`
	Recipient      common.Address `json:"recipient"`
	Approvals      []Approval     `json:"approvals"`
	Released       bool           `json:"released"`
	ReleasedHeight uint64         `json:"releasedHeight,omitempty"`
}

// Approval is one reviewer's approval of a milestone.
type Approval struct {
	Reviewer common.Address `json:"reviewer"`
	Height   uint64         `json:"height"`
}

func grantKey(id uint64) []byte         { return binary.BigEndian.AppendUint64([]byte("grants/"), id) }
func expiryKey(h uint64) []byte         { return binary.BigEndian.AppendUint64([]byte("grants/expiry/"), h) }
func notFound(f string, a ...any) error { return tx.NewError(tx.CodeGrantNotFound, f, a...) }

// Get reads grant id; a *tx.Error grant_not_found when there is none.
func Get(kv state.KV, id uint64) (*Grant, error) {
	var g Grant
	ok, err := state.GetJSON(kv, grantKey(id), &g)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, notFound("there is no grant #%d (a grant's id is its executed proposal's)", id)
	}
	return &g, nil
}

func save(kv state.KV, g *Grant) error { return state.SetJSON(kv, grantKey(g.ID), g) }

// Open records grant id, made by an executed proposal at height, whose
// total the caller has just moved into the escrow.
func Open(kv state.KV, id uint64, proposer common.Address, title string, t Terms, height uint64) (*Grant, error) {
	g := &Grant{ID: id, Proposer: proposer, Title: title, Reviewers: t.Reviewers, Milestones: slices.Clone(t.Milestones),
		Total: t.Total, Expiry: t.Expiry, Status: StatusActive, OpenedHeight: height}
	for i := range g.Milestones {
		g.Milestones[i].Approvals = []Approval{}
	}
	if err := save(kv, g); err != nil {
		return nil, err
	}
	var ids []uint64
	if _, err := state.GetJSON(kv, expiryKey(t.Expiry), &ids); err != nil {
		return nil, err
	}
	return g, state.SetJSON(kv, expiryKey(t.Expiry), append(ids, id))
}

// Approve records reviewer's approval of milestone index of grant id at
// height. released says the approval made a majority of the reviewers, so
// the caller must pay the milestone's amount from the escrow. A refusal is
// a *tx.Error, with nothing written.
func Approve(kv state.KV, height uint64, reviewer common.Address, id, index uint64) (g *Grant, released bool, err error) {
	if g, err = Get(kv, id); err != nil {
		return nil, false, err
	}
	if index >= uint64(len(g.Milestones)) {
		return nil, false, notFound("grant #%d has %d milestones (numbered from 0); there is no milestone %d", id, len(g.Milestones), index)
	}
	if !slices.Contains(g.Reviewers, reviewer) {
		return nil, false, tx.NewError(tx.CodeNotReviewer, "%s is not a reviewer of grant #%d", reviewer.Hex(), id)
	}
	m := &g.Milestones[index]
	switch {
	case m.Released:
		return nil, false, tx.NewError(tx.CodeMilestoneReleased, "milestone %d of grant #%d was released at block %d", index, id, m.ReleasedHeight)
	case g.Status != StatusActive || height >= g.Expiry:
		return nil, false, tx.NewError(tx.CodeGrantExpired, "grant #%d expired at block %d", id, g.Expiry)
	case slices.ContainsFunc(m.Approvals, func(a Approval) bool { return a.Reviewer == reviewer }):
		return nil, false, tx.NewError(tx.CodeAlreadyApproved, "%s already approved milestone %d of grant #%d", reviewer.Hex(), index, id)
	}
	m.Approvals = append(m.Approvals, Approval{Reviewer: reviewer, Height: height})
	if 2*len(m.Approvals) > len(g.Reviewers) {
		m.Released, m.ReleasedHeight, released = true, height, true
		g.Released += m.Amount
		if g.Released == g.Total {
			g.Status = StatusCompleted
		}
	}
	return g, released, save(kv, g)
}

// Expire closes the grants whose expiry is height and are still active:
// each is expired with Refunded set to what it had not released, which
// the caller returns from the escrow to the treasury. It returns them in
// the order they were opened.
func Expire(kv state.KV, height uint64) ([]*Grant, error) {
	var ids []uint64
	if _, err := state.GetJSON(kv, expiryKey(height), &ids); err != nil {
		return nil, err
	}
	var out []*Grant
	for _, id := range ids {
		g, err := Get(kv, id)
		if err != nil {
			return nil, err
		}
		if g.Status != StatusActive {
			continue // completed before its expiry
		}
		g.Status, g.ExpiredHeight, g.Refunded = StatusExpired, height, g.Total-g.Released
		if err := save(kv, g); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}
