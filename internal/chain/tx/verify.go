package tx

import (
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// Tx is a verified transaction: its fields parsed and its signature shown
// to come from From. Whether From can afford it, and whether Nonce is the
// next one, is for the ledger to decide.
type Tx struct {
	Kind     Kind
	From     common.Address
	To       common.Address // zero when the type has no recipient
	Amount   uint64         // micro-units
	Nonce    uint64
	Target   string         // what a Tip thanks; empty for other types
	Username string         // the name a ClaimUsername claims
	Actor    common.Address // the user a Forge action is for; From signed it: the actor, or a key it delegated to
	Action   string         // a Forge action's name, e.g. "issue.create"
	Payload  string         // a Forge action's or a proposal's fields as JSON
	// Governance: a Propose's type, title, description and deposit; a
	// Vote's proposal and option.
	ProposalType string
	Title        string
	Description  string
	Deposit      uint64
	Proposal     uint64
	Option       string
	// RegisterNode: the node's public URL, libp2p peer id and multiaddrs
	// (separated by single spaces).
	URL    string
	PeerID string
	Addrs  string
	// Bounties: the repository (its chain id), the issue's number and the
	// height a BountyFund share can be refunded after.
	Repo   uint64
	Issue  uint64
	Expiry uint64
	// GrantApprove: the grant (its proposal's id) and the milestone's
	// index, from 0.
	Grant     uint64
	Milestone uint64
	// Delegate and Undelegate: the key authorized, the account that
	// authorized it (Undelegate; From for Delegate) and the scopes as the
	// message spells them (the delegation module parses them).
	Delegate common.Address
	Account  common.Address
	Scopes   string
	Hash     [32]byte // the EIP-712 digest the wallet signed
}

// Verify checks env as a transaction on the chain chainID and returns it
// parsed. A wrong chain id is not detected separately: the chain id is in
// the signed domain, so the signature then recovers another address and
// Verify answers wrong_signer.
func Verify(env Envelope, chainID uint64) (Tx, error) {
	// 1. The type decides which fields the message must have.
	kind := Kind(env.Type)
	fields, ok := registry[kind]
	if !ok {
		return Tx{}, unknownKind(env.Type)
	}
	// 2. Read the message; the canonical form is what gets hashed.
	t := Tx{Kind: kind}
	message, err := readMessage(fields, env.Message, &t)
	if err != nil {
		return Tx{}, err
	}
	// 3. Hash as EIP-712 and check the signer is the sender.
	sig, err := parseSignature(env.Signature)
	if err != nil {
		return Tx{}, err
	}
	if t.Hash, err = digest(kind, message, chainID); err != nil {
		return Tx{}, err
	}
	signer, err := recoverSigner(t.Hash, sig)
	if err != nil {
		return Tx{}, err
	}
	if signer != t.From {
		return Tx{}, NewError(CodeWrongSigner, "the signature does not match the sender address %s: it was made by another key, for another chain, or over a different message", t.From.Hex())
	}
	return t, nil
}

// unknownKind refuses a type name that is not registered, naming the right
// spelling when only the case is wrong. Type names stay case-sensitive: the
// name is the EIP-712 primaryType the wallet signed, and a client that sent
// "transfer" has most likely signed primaryType "transfer" too, whose type
// hash differs (it would then read wrong_signer, which says less). Were the
// envelope's spelling folded instead, one signed transaction would have
// several encodings: several CometBFT hashes for one transfer, and one more
// spelling in every place that reads the type.
func unknownKind(name string) *Error {
	if k, ok := FoldKind(name); ok {
		return NewError(CodeUnknownType, "unknown transaction type %q: type names are case-sensitive; did you mean %q?", name, k)
	}
	return NewError(CodeUnknownType, "unknown transaction type %q; known types are %s", name, knownTypes())
}

func knownTypes() string {
	names := make([]string, 0, len(registry))
	for _, k := range Kinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

// readMessage checks that msg has exactly the type's fields, reads each
// into t and returns the canonical message.
func readMessage(fields []field, msg map[string]any, t *Tx) (apitypes.TypedDataMessage, error) {
	for _, key := range slices.Sorted(maps.Keys(msg)) {
		if !slices.ContainsFunc(fields, func(f field) bool { return f.name == key }) {
			return nil, invalidField(key, "is not part of a %s transaction", t.Kind)
		}
	}
	canonical := make(apitypes.TypedDataMessage, len(fields))
	for _, f := range fields {
		v, ok := msg[f.name]
		if !ok {
			return nil, NewError(CodeInvalidField, "the message has no field %q, which a %s transaction needs", f.name, t.Kind)
		}
		s, err := f.read(v, t)
		if err != nil {
			return nil, err
		}
		canonical[f.name] = s
	}
	return canonical, nil
}

// parseSignature reads r ‖ s ‖ v and returns it with v as 0 or 1, the form
// crypto.SigToPub wants. Wallets send v as 27/28; some libraries as 0/1.
func parseSignature(s string) ([]byte, error) {
	sig, err := hexutil.Decode(s)
	if err != nil || len(sig) != crypto.SignatureLength {
		return nil, NewError(CodeBadSignature, "the signature must be 0x followed by 130 hex digits (65 bytes)")
	}
	v := sig[crypto.RecoveryIDOffset]
	if v >= 27 {
		v -= 27
	}
	r, sv := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:64])
	if v > 1 {
		return nil, NewError(CodeBadSignature, "the signature's last byte (v) must be 27, 28, 0 or 1")
	}
	// Rejecting high s (as Ethereum does since Homestead) leaves one valid
	// signature per message and key, so a relayer cannot make a second
	// transaction with different bytes out of someone's signed one.
	if !crypto.ValidateSignatureValues(v, r, sv, true) {
		return nil, NewError(CodeBadSignature, "the signature's r or s value is out of range")
	}
	sig[crypto.RecoveryIDOffset] = v
	return sig, nil
}

func recoverSigner(hash [32]byte, sig []byte) (common.Address, error) {
	pub, err := crypto.SigToPub(hash[:], sig)
	if err != nil {
		return common.Address{}, NewError(CodeBadSignature, "the signature cannot be checked: %v", err)
	}
	return crypto.PubkeyToAddress(*pub), nil
}
