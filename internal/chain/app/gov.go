package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/roles"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// EscrowAddress holds proposal deposits while their vote runs. No key
// controls it, as with the treasury.
var EscrowAddress = common.BytesToAddress(crypto.Keccak256([]byte("dforge/gov-escrow"))[12:])

// propose applies a Propose transaction.
func (a *App) propose(kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	staked, err := ledger.Staked(kv, t.From)
	if err != nil {
		return nil, err
	}
	if staked < a.params.Gov.MinProposerStake {
		return nil, tx.NewError(tx.CodeInsufficientStake, "proposing needs %d micro-units staked; the account has %d", a.params.Gov.MinProposerStake, staked)
	}
	c := gov.Create{Proposer: t.From, Type: t.ProposalType, Title: t.Title, Description: t.Description, Payload: t.Payload, Deposit: t.Deposit}
	if _, err := c.Validate(a.params); err != nil {
		return nil, gov.TxError(err)
	}
	if t.Deposit > 0 {
		if err := ledger.Transfer(kv, t.From, EscrowAddress, t.Deposit); err != nil {
			return nil, ledger.TxError(err)
		}
	}
	pr, err := gov.Propose(kv, a.params, uint64(height), c)
	if err != nil {
		return nil, gov.TxError(err)
	}
	events := []abci.Event{gov.ProposalEvent(pr, "propose")}
	if t.Deposit > 0 {
		events = append(events, ledger.MoveEvent(t.From, EscrowAddress, t.Deposit, "deposit"))
	}
	return events, nil
}

// vote applies a Vote transaction.
func (a *App) vote(kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	pr, v, err := gov.CastVote(kv, a.params.Reputation, uint64(height), t.From, t.Proposal, t.Option)
	if err != nil {
		return nil, gov.TxError(err)
	}
	return []abci.Event{gov.VoteEvent(pr, t.From, v)}, nil
}

// govEffects is what passed proposals do to the rest of the chain; events
// collects the token movements they make.
type govEffects struct {
	a      *App
	height uint64 // the block the proposals execute in
	events []abci.Event
}

// SettleDeposit returns the deposit when the vote reached quorum and gives
// it to the treasury when it did not.
func (g *govEffects) SettleDeposit(kv state.KV, p *gov.Proposal, refund bool) error {
	if p.Deposit == 0 {
		return nil
	}
	to, reason := TreasuryAddress, "deposit forfeited"
	if refund {
		to, reason = p.Proposer, "deposit returned"
	}
	if err := ledger.Transfer(kv, EscrowAddress, to, p.Deposit); err != nil {
		return err
	}
	g.events = append(g.events, ledger.MoveEvent(EscrowAddress, to, p.Deposit, reason))
	return nil
}

// Execute applies a passed proposal on an overlay, so a failure leaves
// nothing behind; its error is the reason the proposal records.
func (g *govEffects) Execute(kv state.KV, p *gov.Proposal) error {
	o := state.NewOverlay(kv)
	var err error
	switch p.Type {
	case gov.TypeParam:
		err = g.setParam(o, p.Payload["name"], p.Payload["value"])
	case gov.TypeSpend:
		err = g.spend(o, p.Payload)
	case gov.TypeValidator:
		err = g.a.changeValidator(o, p.Payload)
	case gov.TypeRole:
		err = g.changeRole(o, p)
	case gov.TypeGrant:
		err = g.openGrant(o, p)
	case gov.TypeUpgrade:
		err = g.scheduleUpgrade(o, p.Payload)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	if err := o.Flush(kv); err != nil {
		return err
	}
	if p.Type == gov.TypeParam {
		// The new value holds from the next action on.
		next, _ := g.a.params.Set(p.Payload["name"], p.Payload["value"])
		g.a.verifiedMu.Lock() // CheckTx's verify reads the chain id under this lock only
		g.a.params = next
		g.a.verifiedMu.Unlock()
	}
	return nil
}

func (g *govEffects) setParam(kv state.KV, name, value string) error {
	next, err := g.a.params.Set(name, value)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(next)
	if err != nil {
		return err
	}
	return kv.Set(paramsKey, raw)
}

func (g *govEffects) spend(kv state.KV, m map[string]string) error {
	amount, err := strconv.ParseUint(m["amount"], 10, 64)
	if err != nil {
		return fmt.Errorf("amount %q: %w", m["amount"], err)
	}
	have, err := ledger.Balance(kv, TreasuryAddress)
	if err != nil {
		return err
	}
	if have < amount {
		return fmt.Errorf("the treasury holds %d micro-units; the spend asks for %d", have, amount)
	}
	to := common.HexToAddress(m["to"])
	if err := ledger.Transfer(kv, TreasuryAddress, to, amount); err != nil {
		return err
	}
	g.events = append(g.events, ledger.MoveEvent(TreasuryAddress, to, amount, "treasury spend"))
	return nil
}

// changeRole grants or revokes the community role the proposal names,
// with a roles.Event for the index.
func (g *govEffects) changeRole(kv state.KV, p *gov.Proposal) error {
	c := roles.Change{Account: common.HexToAddress(p.Payload["account"]), Role: p.Payload["role"], Action: p.Payload["action"], Proposal: p.ID}
	if err := roles.Apply(kv, c); err != nil {
		return err
	}
	g.events = append(g.events, roles.Event(c))
	return nil
}

// --- the validator set ---
//
//	app/validator/<pubkey>   its power (8 bytes); 0 once removed
//	app/validators/n         how many have power

func validatorKey(pub []byte) []byte { return append([]byte("app/validator/"), pub...) }

var validatorCountKey = []byte("app/validators/n")

func initValidators(kv state.KV, vals []abci.ValidatorUpdate) error {
	for _, v := range vals {
		if err := state.SetUint64(kv, validatorKey(v.PubKeyBytes), uint64(v.Power)); err != nil {
			return err
		}
	}
	return state.SetUint64(kv, validatorCountKey, uint64(len(vals)))
}

// changeValidator adds, re-weights or removes a validator; CometBFT gets
// the update at the end of this block and applies it two blocks later.
func (a *App) changeValidator(kv state.KV, m map[string]string) error {
	pub, err := gov.ValidatorKey(m["pubKey"])
	if err != nil {
		return err
	}
	power, err := strconv.ParseUint(m["power"], 10, 64)
	if err != nil || power > gov.MaxValidatorPower {
		return fmt.Errorf("power %q is not a whole number up to %d", m["power"], uint64(gov.MaxValidatorPower))
	}
	old, err := state.GetUint64(kv, validatorKey(pub))
	if err != nil {
		return err
	}
	n, err := state.GetUint64(kv, validatorCountKey)
	if err != nil {
		return err
	}
	switch {
	case power == 0 && old == 0:
		return errors.New("that key is not a validator, so it cannot be removed")
	case power == 0 && n <= 1:
		return errors.New("the last validator cannot be removed: the chain would stop")
	case power == 0:
		n--
	case old == 0:
		n++
	}
	if err := state.SetUint64(kv, validatorKey(pub), power); err != nil {
		return err
	}
	if err := state.SetUint64(kv, validatorCountKey, n); err != nil {
		return err
	}
	a.validatorUpdates = append(a.validatorUpdates, abci.ValidatorUpdate{Power: int64(power), PubKeyType: "ed25519", PubKeyBytes: pub})
	return nil
}

// scheduleUpgrade schedules the upgrade a passed proposal names. A name
// this binary does not know is scheduled all the same: the nodes that run
// a release knowing it cross the height, the others halt there.
func (g *govEffects) scheduleUpgrade(kv state.KV, payload map[string]string) error {
	height, err := strconv.ParseUint(payload["height"], 10, 64)
	if err != nil {
		return fmt.Errorf("read the upgrade height: %w", err)
	}
	return upgrade.Schedule(kv, upgrade.Plan{Name: payload["name"], Height: height}, g.height)
}
