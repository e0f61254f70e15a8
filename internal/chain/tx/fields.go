package tx

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// field is one member of a transaction's EIP-712 struct. read checks the
// value a client sent, stores it in the Tx and returns its canonical form
// (checksummed address, decimal string), which is what gets hashed and
// re-encoded, so the digest never depends on how the client spelled it.
type field struct {
	name string
	typ  string
	read func(v any, t *Tx) (string, error)
}

var (
	fromField = field{name: "from", typ: "address", read: func(v any, t *Tx) (string, error) {
		a, err := readAddress("from", v)
		t.From = a
		return a.Hex(), err
	}}
	toField = field{name: "to", typ: "address", read: func(v any, t *Tx) (string, error) {
		a, err := readAddress("to", v)
		if err == nil && a == (common.Address{}) {
			// The zero address means "no recipient" in Tx, and funds sent
			// there would be lost, so it is never a valid recipient.
			err = invalidField("to", "is the zero address, which cannot receive tokens")
		}
		t.To = a
		return a.Hex(), err
	}}
	amountField = field{name: "amount", typ: "uint256", read: func(v any, t *Tx) (string, error) {
		n, err := readUint("amount", v)
		if err == nil && n == 0 {
			err = NewError(CodeNonPositiveAmount, "the amount must be more than zero")
		}
		t.Amount = n
		return strconv.FormatUint(n, 10), err
	}}
	nonceField = field{name: "nonce", typ: "uint256", read: func(v any, t *Tx) (string, error) {
		n, err := readUint("nonce", v)
		t.Nonce = n
		return strconv.FormatUint(n, 10), err
	}}
	targetField = field{name: "target", typ: "string", read: func(v any, t *Tx) (string, error) {
		s, ok := v.(string)
		if !ok {
			return "", invalidField("target", "must be a string such as \"user:alice\" or \"repo:alice/x\"")
		}
		if err := CheckLine("target", s); err != nil {
			return "", err
		}
		if _, err := ParseTarget(s); err != nil {
			return "", invalidField("target", "is not valid: %v", err)
		}
		t.Target = s
		return s, nil
	}}
	// usernameField is only bounded here; the names module owns the rules.
	usernameField = field{name: "username", typ: "string", read: func(v any, t *Tx) (string, error) {
		s, ok := v.(string)
		if !ok || s == "" || len(s) > maxNameLen {
			return "", invalidField("username", "must be a string of 1 to %d characters", maxNameLen)
		}
		if err := CheckLine("username", s); err != nil {
			return "", err
		}
		t.Username = s
		return s, nil
	}}
)

// MaxActionLen bounds a Forge action's name ("repo.collaborator.set").
const MaxActionLen = 64

var (
	actorField = field{name: "actor", typ: "address", read: func(v any, t *Tx) (string, error) {
		a, err := readAddress("actor", v)
		if err == nil && a == (common.Address{}) {
			err = invalidField("actor", "is the zero address, which no person signs in as")
		}
		t.Actor = a
		return a.Hex(), err
	}}
	// actionField is only shaped here; the forge module knows the actions.
	actionField = field{name: "action", typ: "string", read: func(v any, t *Tx) (string, error) {
		s, ok := v.(string)
		if !ok || s == "" || len(s) > MaxActionLen || strings.Trim(s, "abcdefghijklmnopqrstuvwxyz.") != "" {
			return "", invalidField("action", "must be 1 to %d lower-case letters and dots, such as \"issue.create\"", MaxActionLen)
		}
		t.Action = s
		return s, nil
	}}
	// payloadField is the action's fields as compact JSON; the forge module
	// decodes it strictly. Its size is bounded by the envelope's. As JSON
	// it may hold whitespace but no other raw control character, and its
	// strings' escapes (\u0000) are checked by the module that decodes it.
	payloadField = field{name: "payload", typ: "string", read: func(v any, t *Tx) (string, error) {
		s, ok := v.(string)
		if !ok {
			return "", invalidField("payload", "must be a string holding the action's fields as JSON")
		}
		if err := CheckBody("payload", s); err != nil {
			return "", err
		}
		t.Payload = s
		return s, nil
	}}
)

// Governance fields. The gov module owns the rules; these only shape,
// and hold text to the text rules (a description is a Markdown body).
var (
	proposalTypeField = stringField("proposalType", 16, CheckLine, func(t *Tx, s string) { t.ProposalType = s })
	titleField        = stringField("title", 1024, CheckLine, func(t *Tx, s string) { t.Title = s })
	descriptionField  = stringField("description", MaxProposeTxBytes, CheckBody, func(t *Tx, s string) { t.Description = s })
	optionField       = stringField("option", 16, CheckLine, func(t *Tx, s string) { t.Option = s })
	depositField      = field{name: "deposit", typ: "uint256", read: func(v any, t *Tx) (string, error) {
		n, err := readUint("deposit", v)
		t.Deposit = n
		return strconv.FormatUint(n, 10), err
	}}
	proposalField = field{name: "proposal", typ: "uint256", read: func(v any, t *Tx) (string, error) {
		n, err := readUint("proposal", v)
		if err == nil && n == 0 {
			err = invalidField("proposal", "must be a proposal id (1 or more)")
		}
		t.Proposal = n
		return strconv.FormatUint(n, 10), err
	}}
)

// Grant fields: the grant (its proposal's id) and the milestone's index,
// numbered from 0; the grants module knows whether they exist.
var (
	grantField = field{name: "grant", typ: "uint256", read: func(v any, t *Tx) (string, error) {
		n, err := readUint("grant", v)
		if err == nil && n == 0 {
			err = invalidField("grant", "must be a grant id (1 or more)")
		}
		t.Grant = n
		return strconv.FormatUint(n, 10), err
	}}
	milestoneField = field{name: "milestone", typ: "uint256", read: func(v any, t *Tx) (string, error) {
		n, err := readUint("milestone", v)
		t.Milestone = n
		return strconv.FormatUint(n, 10), err
	}}
)

// Node registry fields, only bounded and held to the one-line rule here;
// the nodes module parses them. addrs holds the node's libp2p multiaddrs
// separated by single spaces (EIP-712 string, since every member type the
// chain signs is a scalar).
const (
	MaxNodeURLLen   = 256
	MaxPeerIDLen    = 128
	MaxNodeAddrsLen = 2048
)

var (
	urlField    = stringField("url", MaxNodeURLLen, CheckLine, func(t *Tx, s string) { t.URL = s })
	peerIDField = stringField("peerId", MaxPeerIDLen, CheckLine, func(t *Tx, s string) { t.PeerID = s })
	addrsField  = stringField("addrs", MaxNodeAddrsLen, CheckLine, func(t *Tx, s string) { t.Addrs = s })
)

// Bounty fields: the issue is named as the forge names it on chain (the
// repository's id and the issue's number), so a rename never moves a
// bounty; the bounty module checks they name an open public issue.
var (
	repoField   = positiveField("repo", "a repository id (1 or more)", func(t *Tx, n uint64) { t.Repo = n })
	issueField  = positiveField("issue", "an issue number (1 or more)", func(t *Tx, n uint64) { t.Issue = n })
	expiryField = positiveField("expiry", "a block height (1 or more)", func(t *Tx, n uint64) { t.Expiry = n })
)

// Delegation fields: the delegate and account are addresses (the module
// refuses the zero address with its own message); the scopes a
// comma-separated list the delegation module parses.
var (
	delegateField = field{name: "delegate", typ: "address", read: func(v any, t *Tx) (string, error) {
		a, err := readAddress("delegate", v)
		t.Delegate = a
		return a.Hex(), err
	}}
	accountField = field{name: "account", typ: "address", read: func(v any, t *Tx) (string, error) {
		a, err := readAddress("account", v)
		t.Account = a
		return a.Hex(), err
	}}
	scopesField = stringField("scopes", 256, CheckLine, func(t *Tx, s string) { t.Scopes = s })
)

// positiveField is a uint256 member that must be 1 or more.
func positiveField(name, what string, set func(*Tx, uint64)) field {
	return field{name: name, typ: "uint256", read: func(v any, t *Tx) (string, error) {
		n, err := readUint(name, v)
		if err == nil && n == 0 {
			err = invalidField(name, "must be %s", what)
		}
		set(t, n)
		return strconv.FormatUint(n, 10), err
	}}
}

// stringField is a string member of at most maxLen bytes that passes
// check (CheckLine or CheckBody).
func stringField(name string, maxLen int, check func(field, s string) error, set func(*Tx, string)) field {
	return field{name: name, typ: "string", read: func(v any, t *Tx) (string, error) {
		s, ok := v.(string)
		if !ok || len(s) > maxLen {
			return "", invalidField(name, "must be a string of at most %d bytes", maxLen)
		}
		if err := check(name, s); err != nil {
			return "", err
		}
		set(t, s)
		return s, nil
	}}
}

func invalidField(name, format string, args ...any) *Error {
	return NewError(CodeInvalidField, "field %q %s", name, fmt.Sprintf(format, args...))
}

// readAddress accepts 0x and 40 hex digits in any case; the EIP-55
// checksum is not required because many tools send lower case.
func readAddress(name string, v any) (common.Address, error) {
	s, ok := v.(string)
	if !ok || len(s) != 2+2*common.AddressLength || !strings.EqualFold(s[:2], "0x") || !common.IsHexAddress(s) {
		return common.Address{}, invalidField(name, "must be an address: 0x followed by 40 hex digits")
	}
	return common.HexToAddress(s), nil
}

// maxExactFloat is the largest integer a float64 (a JSON number decoded
// without UseNumber) holds exactly; above it the value may not be what the
// client wrote, so such amounts must come as decimal strings.
const maxExactFloat = 1 << 53

// readUint reads a whole number of micro-units: a decimal string, a JSON
// number, or a Go integer from callers that build messages in Go.
func readUint(name string, v any) (uint64, error) {
	switch v := v.(type) {
	case string:
		return parseDecimal(name, v)
	case json.Number:
		return parseDecimal(name, string(v))
	case float64:
		return floatToUint(name, v)
	case uint64:
		return v, nil
	case int:
		return intToUint(name, int64(v))
	case int64:
		return intToUint(name, v)
	}
	return 0, invalidField(name, "must be a whole number, as a decimal string or a JSON number")
}

func parseDecimal(name, s string) (uint64, error) {
	if strings.HasPrefix(s, "-") {
		return 0, invalidField(name, "must not be negative")
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, invalidField(name, "is too large: the most is %d", uint64(math.MaxUint64))
	}
	if err != nil {
		return 0, invalidField(name, "must be a whole number in decimal digits")
	}
	return n, nil
}

func floatToUint(name string, f float64) (uint64, error) {
	switch {
	case f < 0:
		return 0, invalidField(name, "must not be negative")
	case f != math.Trunc(f):
		return 0, invalidField(name, "must be a whole number")
	case f > maxExactFloat:
		return 0, invalidField(name, "is too large for a JSON number; send it as a decimal string")
	}
	return uint64(f), nil
}

func intToUint(name string, n int64) (uint64, error) {
	if n < 0 {
		return 0, invalidField(name, "must not be negative")
	}
	return uint64(n), nil
}
