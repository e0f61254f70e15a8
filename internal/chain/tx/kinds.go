// Package tx is the transaction format of the dForge chain: the EIP-712
// types and domain that wallets sign, the envelope that carries a signed
// message into CometBFT, and the checks that turn an envelope into a
// verified Tx. It knows nothing of balances or nonces held in state; the
// ledger decides those and reports them with the codes defined here.
package tx

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// Kind is a transaction type; its value is the EIP-712 primary type name,
// which is also the envelope's "type".
type Kind string

const (
	KindTransfer        Kind = "Transfer"
	KindTip             Kind = "Tip"
	KindStake           Kind = "Stake"
	KindUnstake         Kind = "Unstake"
	KindTreasuryDeposit Kind = "TreasuryDeposit"
	KindClaimUsername   Kind = "ClaimUsername"
	// KindForge carries every forge action (repo.create, issue.comment,
	// pr.merge, ...), relayed and signed by a node's operator key on behalf
	// of the user named as actor; the forge module reads its payload.
	KindForge Kind = "Forge"
	// KindPropose makes a governance proposal, paying the deposit; KindVote
	// votes on one (again, to change the vote).
	KindPropose Kind = "Propose"
	KindVote    Kind = "Vote"
	// KindRegisterNode records an operator's node in the node registry:
	// its public URL and its libp2p peer id and addresses. Only operator
	// keys may sign one.
	KindRegisterNode Kind = "RegisterNode"
	// KindBountyFund moves an amount from the sender into the bounty
	// escrow of a public issue; KindBountyRefund takes the sender's share
	// back once it expired on an issue no merge paid.
	KindBountyFund   Kind = "BountyFund"
	KindBountyRefund Kind = "BountyRefund"
	// KindGrantApprove is a grant reviewer's approval of one milestone
	// (numbered from 0) of a grant (its proposal's id).
	KindGrantApprove Kind = "GrantApprove"
	// KindDelegate authorizes the delegate key to sign forge actions of
	// the given scopes in the sender's name until the expiry height;
	// KindUndelegate drops such a delegation, signed by the account that
	// gave it or by its delegate (internal/chain/delegation).
	KindDelegate   Kind = "Delegate"
	KindUndelegate Kind = "Undelegate"
)

// registry lists every transaction type and its EIP-712 members in signing
// order (the order is part of the type hash). Adding a type is one entry.
var registry = map[Kind][]field{
	KindTransfer:        {fromField, toField, amountField, nonceField},
	KindTip:             {fromField, toField, amountField, targetField, nonceField},
	KindStake:           {fromField, amountField, nonceField},
	KindUnstake:         {fromField, amountField, nonceField},
	KindTreasuryDeposit: {fromField, amountField, nonceField},
	KindClaimUsername:   {fromField, usernameField, nonceField},
	KindForge:           {fromField, actorField, actionField, payloadField, nonceField},
	KindPropose:         {fromField, proposalTypeField, titleField, descriptionField, payloadField, depositField, nonceField},
	KindVote:            {fromField, proposalField, optionField, nonceField},
	KindRegisterNode:    {fromField, urlField, peerIDField, addrsField, nonceField},
	KindBountyFund:      {fromField, repoField, issueField, amountField, expiryField, nonceField},
	KindBountyRefund:    {fromField, repoField, issueField, nonceField},
	KindGrantApprove:    {fromField, grantField, milestoneField, nonceField},
	KindDelegate:        {fromField, delegateField, scopesField, expiryField, nonceField},
	KindUndelegate:      {fromField, accountField, delegateField, nonceField},
}

// Kinds returns every known transaction type, sorted.
func Kinds() []Kind {
	kinds := make([]Kind, 0, len(registry))
	for k := range registry {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

// FoldKind returns the registered type spelled name in any case. It is for
// reads, such as a filter on the type; a transaction's own type must be
// spelled exactly (see unknownKind).
func FoldKind(name string) (Kind, bool) {
	for k := range registry {
		if strings.EqualFold(string(k), name) {
			return k, true
		}
	}
	return "", false
}

// Known reports whether k is a registered transaction type.
func (k Kind) Known() bool {
	_, ok := registry[k]
	return ok
}

// The EIP-712 domain: fixed name and version, and the chain id, so a
// signature is valid on one dForge chain only.
const (
	DomainName    = "dForge"
	DomainVersion = "1"
)

var domainType = []apitypes.Type{
	{Name: "name", Type: "string"},
	{Name: "version", Type: "string"},
	{Name: "chainId", Type: "uint256"},
}

// Domain is the EIP-712 domain of the chain with the given id.
func Domain(chainID uint64) apitypes.TypedDataDomain {
	return apitypes.TypedDataDomain{
		Name:    DomainName,
		Version: DomainVersion,
		ChainId: (*math.HexOrDecimal256)(new(big.Int).SetUint64(chainID)),
	}
}

// PublicDomain is the domain as GET /api/v1/chain/params publishes it.
// apitypes.TypedDataDomain marshals chainId as a hex string; wallets and
// viem expect a number, so this type exists for JSON.
type PublicDomain struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	ChainID uint64 `json:"chainId"`
}

// PublishedDomain is Domain(chainID) in its published JSON shape.
func PublishedDomain(chainID uint64) PublicDomain {
	return PublicDomain{Name: DomainName, Version: DomainVersion, ChainID: chainID}
}

// Types returns the EIP-712 types of every transaction plus EIP712Domain,
// ready to publish as JSON ({"Transfer":[{"name":"from","type":"address"},...]}).
// It returns a fresh map each call so callers cannot alter what Verify uses.
func Types() apitypes.Types {
	types := apitypes.Types{"EIP712Domain": slices.Clone(domainType)}
	for kind, fields := range registry {
		members := make([]apitypes.Type, len(fields))
		for i, f := range fields {
			members[i] = apitypes.Type{Name: f.name, Type: f.typ}
		}
		types[string(kind)] = members
	}
	return types
}

// chainIDPrefix names the CometBFT chain id ("dforge-1337") that goes with
// a numeric EIP-712 chain id: CometBFT wants a string, EIP-712 a number,
// and deriving one from the other keeps them from drifting apart.
const chainIDPrefix = "dforge-"

// ChainIDString is the CometBFT chain id for a numeric chain id.
func ChainIDString(chainID uint64) string {
	return chainIDPrefix + strconv.FormatUint(chainID, 10)
}

// ParseChainID is the inverse of ChainIDString.
func ParseChainID(s string) (uint64, error) {
	digits, ok := strings.CutPrefix(s, chainIDPrefix)
	if !ok {
		return 0, fmt.Errorf("parse chain id %q: want %s<number>", s, chainIDPrefix)
	}
	id, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || digits != strconv.FormatUint(id, 10) {
		return 0, fmt.Errorf("parse chain id %q: want %s<number>", s, chainIDPrefix)
	}
	return id, nil
}
