package gov

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/grants"
	"github.com/dforge/dforge/internal/chain/params"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// Create is what a Propose transaction asks for.
type Create struct {
	Proposer    common.Address
	Type        string
	Title       string
	Description string
	Payload     string // JSON object of strings, by type (see payloadKeys)
	Deposit     uint64
}

// payloadKeys are the members each type's payload must have, exactly.
var payloadKeys = map[string][]string{
	TypeText:      {},
	TypeParam:     {"name", "value"},
	TypeSpend:     {"amount", "reason", "to"},
	TypeValidator: {"power", "pubKey"},
	TypeRole:      {"account", "action", "role"},
	TypeGrant:     grants.PayloadKeys,
	TypeUpgrade:   {"height", "name"},
}

// MaxValidatorPower bounds a validator's power so CometBFT's total (at
// most MaxInt64 / 8) can never be reached by proposals.
const MaxValidatorPower = 1 << 40

// Validate checks c's fields and payload against p, without state.
func (c Create) Validate(p params.Params) (map[string]string, error) {
	title := strings.TrimSpace(c.Title)
	if title == "" || utf8.RuneCountInString(c.Title) > MaxTitle || !utf8.ValidString(c.Title) {
		return nil, fmt.Errorf("%w: the title must be 1 to %d characters", ErrInvalid, MaxTitle)
	}
	if utf8.RuneCountInString(c.Description) > MaxDescription || !utf8.ValidString(c.Description) {
		return nil, fmt.Errorf("%w: the description may be at most %d characters", ErrInvalid, MaxDescription)
	}
	keys, ok := payloadKeys[c.Type]
	if !ok {
		return nil, fmt.Errorf("%w: the type must be text, param, spend, validator, role, grant or upgrade", ErrInvalid)
	}
	payload, err := decodePayload(c.Payload, keys)
	if err != nil {
		return nil, err
	}
	if c.Deposit != p.Gov.ProposalDeposit {
		return nil, fmt.Errorf("%w: it is %d micro-units, the transaction offers %d", ErrBadDeposit, p.Gov.ProposalDeposit, c.Deposit)
	}
	return payload, checkEffect(c.Type, payload, p)
}

// decodePayload reads a JSON object whose members are exactly keys, each a string.
func decodePayload(raw string, keys []string) (map[string]string, error) {
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	var m map[string]string
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	if err := dec.Decode(&m); err != nil || dec.More() {
		return nil, fmt.Errorf("%w: the payload must be a JSON object of strings", ErrInvalid)
	}
	if len(m) != len(keys) {
		return nil, fmt.Errorf("%w: the payload must have exactly the members %s", ErrInvalid, strings.Join(keys, ", "))
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return nil, fmt.Errorf("%w: the payload must have exactly the members %s", ErrInvalid, strings.Join(keys, ", "))
		}
	}
	return m, nil
}

// checkEffect refuses an effect that could never be applied.
func checkEffect(typ string, m map[string]string, p params.Params) error {
	switch typ {
	case TypeParam:
		if _, err := p.Set(m["name"], m["value"]); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
	case TypeSpend:
		if !common.IsHexAddress(m["to"]) || common.HexToAddress(m["to"]) == (common.Address{}) {
			return fmt.Errorf("%w: to must be a 0x address other than zero", ErrInvalid)
		}
		if n, err := parseUint(m["amount"]); err != nil || n == 0 {
			return fmt.Errorf("%w: amount must be a whole number of micro-units above zero", ErrInvalid)
		}
		if strings.TrimSpace(m["reason"]) == "" || utf8.RuneCountInString(m["reason"]) > MaxReason {
			return fmt.Errorf("%w: reason must be 1 to %d characters", ErrInvalid, MaxReason)
		}
	case TypeValidator:
		if _, err := ValidatorKey(m["pubKey"]); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		if n, err := parseUint(m["power"]); err != nil || n > MaxValidatorPower {
			return fmt.Errorf("%w: power must be a whole number from 0 (remove) to %d", ErrInvalid, uint64(MaxValidatorPower))
		}
	case TypeGrant:
		if _, err := grants.ParseTerms(m); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
	case TypeRole:
		return checkRole(m)
	case TypeUpgrade:
		if err := upgrade.ValidName(m["name"]); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		if n, err := parseUint(m["height"]); err != nil || n == 0 {
			return fmt.Errorf("%w: height must be a block height (1 or more)", ErrInvalid)
		}
	}
	return nil
}

// checkRole refuses a role change naming an unknown role or action, or an
// account that is not a non-zero 0x address. Whether the account holds the
// role is decided when the proposal executes: the vote may take weeks.
func checkRole(m map[string]string) error {
	if !roles.Valid(m["role"]) {
		return fmt.Errorf("%w: role must be one of %s", ErrInvalid, strings.Join(roles.All, ", "))
	}
	if !common.IsHexAddress(m["account"]) || common.HexToAddress(m["account"]) == (common.Address{}) {
		return fmt.Errorf("%w: account must be a 0x address other than zero", ErrInvalid)
	}
	if m["action"] != roles.ActionGrant && m["action"] != roles.ActionRevoke {
		return fmt.Errorf("%w: action must be grant or revoke", ErrInvalid)
	}
	return nil
}

// ValidatorKey decodes a base64 ed25519 public key.
func ValidatorKey(s string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(key) != 32 {
		return nil, fmt.Errorf("pubKey must be a base64 ed25519 public key of 32 bytes")
	}
	return key, nil
}

func parseUint(s string) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || s != strconv.FormatUint(n, 10) {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return n, nil
}

// Propose makes a proposal at height. The caller has already moved the
// deposit out of the proposer's balance (into the escrow) on the same
// store, and checked the proposer's stake.
func Propose(kv state.KV, p params.Params, height uint64, c Create) (*Proposal, error) {
	payload, err := c.Validate(p)
	if err != nil {
		return nil, err
	}
	id, err := state.GetUint64(kv, seqKey)
	if err != nil {
		return nil, err
	}
	id++
	if err := state.SetUint64(kv, seqKey, id); err != nil {
		return nil, err
	}
	total, err := TotalPowerBefore(kv, p.Reputation, height)
	if err != nil {
		return nil, err
	}
	pr := &Proposal{
		ID: id, Proposer: c.Proposer, Type: c.Type, Title: strings.TrimSpace(c.Title), Description: c.Description,
		Payload: payload, Deposit: c.Deposit, Status: StatusActive,
		CreatedHeight: height, VotingEndHeight: height + max(p.Gov.VotingPeriodBlocks, 1),
		QuorumBps: p.Gov.QuorumBps, ThresholdBps: p.Gov.ThresholdBps, TotalPower: total,
	}
	if err := saveProposal(kv, pr); err != nil {
		return nil, err
	}
	return pr, appendID(kv, endsKey(pr.VotingEndHeight), id)
}

// CastVote records voter's vote at height, replacing an earlier one.
func CastVote(kv state.KV, p params.Reputation, height uint64, voter common.Address, id uint64, option string) (*Proposal, *Vote, error) {
	if !slices.Contains([]string{Yes, No, Abstain}, option) {
		return nil, nil, fmt.Errorf("%w: the option must be yes, no or abstain", ErrInvalid)
	}
	pr, err := GetProposal(kv, id)
	if err != nil {
		return nil, nil, err
	}
	if pr.Status != StatusActive || height >= pr.VotingEndHeight {
		return nil, nil, fmt.Errorf("%w (#%d is %s)", ErrClosed, id, pr.Status)
	}
	prev, err := GetVote(kv, id, voter)
	if err != nil {
		return nil, nil, err
	}
	var power uint64
	if prev != nil {
		power = prev.Power // the snapshot does not move
		*pr.option(prev.Option) -= prev.Power
	} else {
		if _, _, power, err = PowerBefore(kv, p, voter, pr.CreatedHeight); err != nil {
			return nil, nil, err
		}
		if power == 0 {
			return nil, nil, fmt.Errorf("%w: the account had no stake when #%d was proposed (block %d)", ErrNoPower, id, pr.CreatedHeight)
		}
		pr.Voters++
	}
	*pr.option(option) += power
	v := &Vote{Proposal: id, Voter: voter, Option: option, Power: power, Height: height}
	if err := state.SetJSON(kv, voteKey(id, voter), v); err != nil {
		return nil, nil, err
	}
	return pr, v, saveProposal(kv, pr)
}

func (p *Proposal) option(o string) *uint64 {
	switch o {
	case Yes:
		return &p.Yes
	case No:
		return &p.No
	default:
		return &p.Abstain
	}
}

// QuorumReached: the share of the snapshotted power that voted, abstain
// included, is at least the quorum.
func (p *Proposal) QuorumReached() bool {
	voted := p.Yes + p.No + p.Abstain
	return p.TotalPower > 0 && mulOK(voted, 10_000) >= mulOK(p.QuorumBps, p.TotalPower)
}

// ThresholdReached: yes is more than the threshold's share of yes + no.
func (p *Proposal) ThresholdReached() bool {
	return p.Yes+p.No > 0 && mulOK(p.Yes, 10_000) > mulOK(p.ThresholdBps, p.Yes+p.No)
}

// mulOK multiplies without overflow by saturating; powers stay below 2^62
// in practice, so saturation never decides a tally.
func mulOK(a, b uint64) uint64 {
	if a != 0 && b > ^uint64(0)/a {
		return ^uint64(0)
	}
	return a * b
}
