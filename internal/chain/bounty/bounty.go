// Package bounty is the chain module of issue bounties: tokens funders put
// in escrow on a public issue, paid to the author of the pull request whose
// merge closes the issue ("fixes #N"), or taken back by each funder once
// their share expired on an issue no merge paid.
//
// State, under bounty/:
//
//	bounty/issue/<repo>/<number>   a Bounty (JSON): the open shares, in the
//	                               order funders first came, and the last
//	                               payout; repo and number 8-byte big-endian
//
// The escrow is one ledger account (EscrowAddress) that no key controls:
// its balance is always the sum of every open share of every issue.
package bounty

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/state"
)

// EscrowAddress holds every open bounty's tokens. It is derived like the
// treasury's, so no key controls it: only this module moves its funds.
var EscrowAddress = common.BytesToAddress(crypto.Keccak256([]byte("dforge/bounty-escrow"))[12:])

// Statuses of a bounty.
const (
	StatusOpen     = "open"     // shares are in escrow
	StatusPaid     = "paid"     // a merge paid the escrow to the pull request's author
	StatusRefunded = "refunded" // every funder took their share back
)

// Share is one funder's part of a bounty. Expiry is the height after which
// the funder may take it back; funding again keeps the later of the two.
type Share struct {
	Funder common.Address `json:"funder"`
	Amount uint64         `json:"amount"`
	Expiry uint64         `json:"expiry"`
}

// Bounty is an issue's bounty as state holds it. Total is the sum of the
// open shares; the Paid fields describe the last payout.
type Bounty struct {
	Repo       uint64         `json:"repo"`
	Number     uint64         `json:"number"`
	Status     string         `json:"status"`
	Total      uint64         `json:"total"`
	Shares     []Share        `json:"shares"`
	PaidTo     common.Address `json:"paidTo,omitempty"`
	PaidAmount uint64         `json:"paidAmount,omitempty"`
	PaidHeight uint64         `json:"paidHeight,omitempty"`
}

func issueKey(repo, number uint64) []byte {
	k := append([]byte("bounty/issue/"), state.Uint64(repo)...)
	return append(append(k, '/'), state.Uint64(number)...)
}

// Get reads the bounty of an issue; ok is false when it was never funded.
func Get(kv state.Reader, repo, number uint64) (b Bounty, ok bool, err error) {
	ok, err = state.GetJSON(kv, issueKey(repo, number), &b)
	if err != nil {
		return Bounty{}, false, fmt.Errorf("read bounty %d#%d: %w", repo, number, err)
	}
	return b, ok, nil
}

func put(kv state.KV, b Bounty) error {
	if err := state.SetJSON(kv, issueKey(b.Repo, b.Number), b); err != nil {
		return fmt.Errorf("write bounty %d#%d: %w", b.Repo, b.Number, err)
	}
	return nil
}

// Fund moves amount from funder into escrow and adds it to the bounty of
// open issue number of repo, at height. The funder's share keeps the later
// of its expiry and this one.
func Fund(kv state.KV, funder common.Address, repo, number, amount, expiry, height uint64) (Bounty, error) {
	// 1. The rules, before anything moves.
	if amount == 0 {
		return Bounty{}, ErrZeroAmount
	}
	is, ok, err := forge.IssueOf(kv, repo, number)
	if err != nil {
		return Bounty{}, err
	}
	switch {
	case !ok:
		return Bounty{}, fmt.Errorf("%w: repository %d has no issue #%d", ErrUnknownIssue, repo, number)
	case is.IsPull:
		return Bounty{}, fmt.Errorf("%w: #%d is a pull request", ErrNotIssue, number)
	case is.State != forge.StateOpen:
		return Bounty{}, fmt.Errorf("%w: issue #%d is closed", ErrClosed, number)
	case expiry <= height:
		return Bounty{}, fmt.Errorf("%w: %d is not above the current height %d", ErrExpiry, expiry, height)
	}
	b, _, err := Get(kv, repo, number)
	if err != nil {
		return Bounty{}, err
	}
	if b.Total+amount < b.Total {
		return Bounty{}, ErrOverflow
	}
	// 2. The tokens, then the record.
	if err := ledger.Transfer(kv, funder, EscrowAddress, amount); err != nil {
		return Bounty{}, err
	}
	b.Repo, b.Number, b.Status, b.Total = repo, number, StatusOpen, b.Total+amount
	b.Shares = addShare(b.Shares, Share{Funder: funder, Amount: amount, Expiry: expiry})
	return b, put(kv, b)
}

// addShare adds s to the funder's share, or appends it for a new funder.
// Amounts cannot overflow: each is at most the bounty's total.
func addShare(shares []Share, s Share) []Share {
	for i := range shares {
		if shares[i].Funder == s.Funder {
			shares[i].Amount += s.Amount
			shares[i].Expiry = max(shares[i].Expiry, s.Expiry)
			return shares
		}
	}
	return append(shares, s)
}

// Refund gives funder their share of the bounty on issue number of repo
// back, at height: only past the share's expiry. A paid bounty has no
// shares left, so there is nothing to refund.
func Refund(kv state.KV, funder common.Address, repo, number, height uint64) (Bounty, Share, error) {
	b, _, err := Get(kv, repo, number)
	if err != nil {
		return Bounty{}, Share{}, err
	}
	i := -1
	for j, s := range b.Shares {
		if s.Funder == funder {
			i = j
			break
		}
	}
	if i < 0 {
		return Bounty{}, Share{}, fmt.Errorf("%w: %s has no share in the bounty of %d#%d", ErrNoShare, funder.Hex(), repo, number)
	}
	s := b.Shares[i]
	if height <= s.Expiry {
		return Bounty{}, Share{}, fmt.Errorf("%w: the share can be refunded after height %d (now %d)", ErrNotExpired, s.Expiry, height)
	}
	if err := ledger.Transfer(kv, EscrowAddress, funder, s.Amount); err != nil {
		return Bounty{}, Share{}, fmt.Errorf("refund from escrow: %w", err)
	}
	b.Shares = append(b.Shares[:i:i], b.Shares[i+1:]...)
	b.Total -= s.Amount
	if b.Total == 0 {
		b.Status = StatusRefunded
	}
	return b, s, put(kv, b)
}

// Payout pays the whole escrow of issue number of repo to to, the author
// of the pull request whose merge closed it, at height. An issue with no
// open bounty pays nothing and writes nothing (ok false), so chains without
// bounties keep the state they had.
func Payout(kv state.KV, repo, number uint64, to common.Address, height uint64) (b Bounty, ok bool, err error) {
	b, found, err := Get(kv, repo, number)
	if err != nil || !found || b.Total == 0 {
		return Bounty{}, false, err
	}
	if err := ledger.Transfer(kv, EscrowAddress, to, b.Total); err != nil {
		return Bounty{}, false, fmt.Errorf("pay bounty %d#%d: %w", repo, number, err)
	}
	b.Status, b.PaidTo, b.PaidAmount, b.PaidHeight = StatusPaid, to, b.Total, height
	b.Total, b.Shares = 0, nil
	return b, true, put(kv, b)
}
