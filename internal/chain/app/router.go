package app

import (
	"errors"
	"math"
	"strconv"
	"strings"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/ledger"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
)

// applyOn routes a verified transaction to the module that owns its type;
// height is the block it is applied in. Every transaction first consumes
// its sender's nonce, so a replay fails.
func (a *App) applyOn(kv state.KV, t tx.Tx, height int64) ([]abci.Event, error) {
	if err := ledger.UseNonce(kv, t.From, t.Nonce); err != nil {
		return nil, ledgerError(err)
	}
	switch t.Kind {
	case tx.KindTransfer, tx.KindTip:
		if err := ledger.Transfer(kv, t.From, t.To, t.Amount); err != nil {
			return nil, ledgerError(err)
		}
		return []abci.Event{transferEvent(t)}, nil
	case tx.KindStake:
		if err := ledger.Stake(kv, t.From, t.Amount); err != nil {
			return nil, ledgerError(err)
		}
		if err := a.stakeChanged(kv, t.From, height); err != nil {
			return nil, err
		}
		return []abci.Event{amountEvent(t)}, nil
	case tx.KindUnstake:
		maturesAt := uint64(height) + a.params.UnbondingBlocks
		if height <= 0 || maturesAt > math.MaxInt64 {
			return nil, tx.NewError(tx.CodeInvalidField, "the unbonding period from height %d is out of range", height)
		}
		if err := ledger.Unstake(kv, t.From, t.Amount, maturesAt); err != nil {
			return nil, ledgerError(err)
		}
		if err := a.stakeChanged(kv, t.From, height); err != nil {
			return nil, err
		}
		ev := amountEvent(t)
		ev.Attributes = append(ev.Attributes, abci.EventAttribute{Key: "maturesAt", Value: strconv.FormatUint(maturesAt, 10)})
		return []abci.Event{ev}, nil
	case tx.KindTreasuryDeposit:
		if err := ledger.Transfer(kv, t.From, TreasuryAddress, t.Amount); err != nil {
			return nil, ledgerError(err)
		}
		t.To = TreasuryAddress
		return []abci.Event{transferEvent(t)}, nil
	case tx.KindClaimUsername:
		previous, err := names.Claim(kv, t.From, t.Username)
		if err != nil {
			return nil, namesError(err)
		}
		// Claiming one's default name in any case gives back the default.
		if t.Username, err = names.Of(kv, t.From); err != nil {
			return nil, err
		}
		return []abci.Event{claimUsernameEvent(t, previous)}, nil
	case tx.KindForge:
		return a.applyForge(kv, t, height)
	case tx.KindPropose:
		return a.propose(kv, t, height)
	case tx.KindVote:
		return a.vote(kv, t, height)
	case tx.KindRegisterNode:
		return registerNode(kv, t)
	default:
		return nil, tx.NewError(tx.CodeUnknownType, "%s transactions are not enabled on this chain yet", t.Kind)
	}
}

// stakeChanged gives governance the account's new stake, whose history
// voting power is snapshotted from.
func (a *App) stakeChanged(kv state.KV, addr common.Address, height int64) error {
	staked, err := ledger.Staked(kv, addr)
	if err != nil {
		return err
	}
	return gov.StakeChanged(kv, a.params.Reputation, addr, uint64(height), staked)
}

// transferEvent describes a movement between two accounts (Transfer, Tip,
// TreasuryDeposit, whose "to" is the treasury).
func transferEvent(t tx.Tx) abci.Event {
	attrs := []abci.EventAttribute{
		{Key: "from", Value: t.From.Hex(), Index: true},
		{Key: "to", Value: t.To.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(t.Amount, 10)},
	}
	if t.Target != "" {
		attrs = append(attrs, abci.EventAttribute{Key: "target", Value: t.Target, Index: true})
	}
	return abci.Event{Type: string(t.Kind), Attributes: attrs}
}

// amountEvent describes a transaction on the sender's own account (Stake,
// Unstake).
func amountEvent(t tx.Tx) abci.Event {
	return abci.Event{Type: string(t.Kind), Attributes: []abci.EventAttribute{
		{Key: "from", Value: t.From.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(t.Amount, 10)},
	}}
}

// claimUsernameEvent names the claimed username and the claimed name it
// replaced ("" when the account had only its default).
func claimUsernameEvent(t tx.Tx, previous string) abci.Event {
	return abci.Event{Type: string(t.Kind), Attributes: []abci.EventAttribute{
		{Key: "from", Value: t.From.Hex(), Index: true},
		{Key: "username", Value: t.Username, Index: true},
		{Key: "previous", Value: previous},
	}}
}

// namesError gives a username rule violation its stable transaction code.
func namesError(err error) error {
	switch {
	case errors.Is(err, names.ErrTaken):
		return tx.NewError(tx.CodeUsernameTaken, "that username is taken by another account; choose another")
	case errors.Is(err, names.ErrInvalid), errors.Is(err, names.ErrReserved):
		return tx.NewError(tx.CodeInvalidField, "%s", strings.TrimPrefix(err.Error(), names.ErrInvalid.Error()+": "))
	default:
		return err
	}
}

// EventUnbondingMatured is the block-level event for an unbonding entry
// paid back to its account at the start of a block.
const EventUnbondingMatured = "UnbondingMatured"

func unbondingMaturedEvent(m ledger.Matured, height uint64) abci.Event {
	return abci.Event{Type: EventUnbondingMatured, Attributes: []abci.EventAttribute{
		{Key: "address", Value: m.Address.Hex(), Index: true},
		{Key: "amount", Value: strconv.FormatUint(m.Amount, 10)},
		{Key: "height", Value: strconv.FormatUint(height, 10)},
	}}
}

// ledgerError gives a ledger rule violation its stable transaction code.
func ledgerError(err error) error {
	switch {
	case errors.Is(err, ledger.ErrBadNonce):
		return tx.NewError(tx.CodeBadNonce, "%s", err.Error())
	case errors.Is(err, ledger.ErrInsufficientStake):
		return tx.NewError(tx.CodeInsufficientFunds, "%s", err.Error())
	case errors.Is(err, ledger.ErrInsufficientFunds):
		return tx.NewError(tx.CodeInsufficientFunds, "the sender's balance is too low for this amount")
	case errors.Is(err, ledger.ErrNonPositive):
		return tx.NewError(tx.CodeNonPositiveAmount, "the amount must be greater than zero")
	case errors.Is(err, ledger.ErrOverflow):
		return tx.NewError(tx.CodeInvalidField, "the amount would overflow the recipient's balance")
	default:
		return err
	}
}
