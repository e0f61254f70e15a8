package tx

import "fmt"

// Stable rejection codes. They are ABCI response codes (0 is success, so
// none is 0) and the "code" of API error bodies, so clients may branch on
// them: never renumber one, only add.
const (
	CodeInvalidEncoding   uint32 = 2
	CodeUnknownType       uint32 = 3
	CodeInvalidField      uint32 = 4
	CodeBadSignature      uint32 = 5
	CodeWrongSigner       uint32 = 6
	CodeWrongChainID      uint32 = 7
	CodeBadNonce          uint32 = 8
	CodeInsufficientFunds uint32 = 9
	CodeNonPositiveAmount uint32 = 10
	CodeTxTooLarge        uint32 = 11
	CodeUsernameTaken     uint32 = 12
	// Forge codes: the operator rule, then the forge module's rules.
	CodeNotOperator     uint32 = 13
	CodeUnknownAction   uint32 = 14
	CodeNotFound        uint32 = 15
	CodeForbidden       uint32 = 16
	CodeConflict        uint32 = 17
	CodeInvalidName     uint32 = 18
	CodeNameTaken       uint32 = 19
	CodeProtectedBranch uint32 = 20
	// Governance codes.
	CodeProposalClosed    uint32 = 21
	CodeInsufficientStake uint32 = 22
	CodeBadDeposit        uint32 = 23
	CodeNoVotingPower     uint32 = 24
	// CodeInvalidText: a text field is not valid UTF-8 or holds control
	// characters (see CheckLine and CheckBody).
	CodeInvalidText uint32 = 25
	// CodeStaleRef: a ref update's old value is not the ref's value on
	// chain (another push moved it first), as git's "fetch first".
	CodeStaleRef uint32 = 26
	// CodeInvalidKey: an SSH public key that does not parse, is of a type
	// the forge does not take, or is too weak (RSA under 2048 bits).
	CodeInvalidKey uint32 = 27
	// CodeKeyTaken: the SSH public key is registered already (a key
	// belongs to one account).
	CodeKeyTaken uint32 = 28
	// CodeInvalidURL: a marketplace listing's URL template is not an
	// absolute http:// or https:// URL, or holds braces other than its
	// placeholders. (Numbered apart from the codes other modules add
	// alongside, so parallel additions cannot collide.)
	CodeInvalidURL uint32 = 60
	// Bounty codes (internal/chain/bounty), numbered apart from the
	// codes other modules add meanwhile.
	// CodeBountyNotOpen: the issue is closed (or merged), so it takes no
	// new funding.
	CodeBountyNotOpen uint32 = 50
	// CodeBountyNotIssue: the number names a pull request, not an issue.
	CodeBountyNotIssue uint32 = 51
	// CodeBountyNotExpired: a refund asked before the share's expiry.
	CodeBountyNotExpired uint32 = 52
	// CodeBountyNoShare: the sender has no share in the issue's bounty.
	CodeBountyNoShare uint32 = 53
	// CodeTopicLocked: a reply (or an author's edit) in a forum topic a
	// moderator locked.
	CodeTopicLocked uint32 = 29
	// Grant codes (54-58 are the grants module's): a GrantApprove whose
	// sender is not one of the grant's reviewers, whose milestone was
	// released already, which this reviewer approved already, or whose
	// grant expired; an unknown grant or milestone.
	CodeNotReviewer       uint32 = 54
	CodeMilestoneReleased uint32 = 55
	CodeAlreadyApproved   uint32 = 56
	CodeGrantExpired      uint32 = 57
	CodeGrantNotFound     uint32 = 58
	// Authority codes (own keys, 70-79): a forge action whose signer is
	// neither its actor nor holds the actor's live delegation for its
	// scope; a sensitive action not signed by the actor's own wallet; a
	// delegation's scopes unknown, its expiry passed, an Undelegate
	// signed by neither side; too many actions in one block from one
	// account or one relayer; an upgrade proposal this chain cannot take.
	CodeNotDelegated      uint32 = 70
	CodeSignatureRequired uint32 = 71
	CodeInvalidScope      uint32 = 72
	CodeDelegationExpired uint32 = 73
	CodeNotDelegator      uint32 = 74
	CodeRateLimited       uint32 = 75
	CodeInvalidUpgrade    uint32 = 76
)

// codeNames gives each code its machine-readable name.
var codeNames = map[uint32]string{
	CodeInvalidEncoding:   "invalid_encoding",
	CodeUnknownType:       "unknown_type",
	CodeInvalidField:      "invalid_field",
	CodeBadSignature:      "bad_signature",
	CodeWrongSigner:       "wrong_signer",
	CodeWrongChainID:      "wrong_chain_id",
	CodeBadNonce:          "bad_nonce",
	CodeInsufficientFunds: "insufficient_funds",
	CodeNonPositiveAmount: "non_positive_amount",
	CodeTxTooLarge:        "tx_too_large",
	CodeUsernameTaken:     "username_taken",
	CodeNotOperator:       "not_operator",
	CodeUnknownAction:     "unknown_action",
	CodeNotFound:          "not_found",
	CodeForbidden:         "forbidden",
	CodeConflict:          "conflict",
	CodeInvalidName:       "invalid_name",
	CodeNameTaken:         "name_taken",
	CodeProtectedBranch:   "protected_branch",
	CodeProposalClosed:    "proposal_closed",
	CodeInsufficientStake: "insufficient_stake",
	CodeBadDeposit:        "bad_deposit",
	CodeNoVotingPower:     "no_voting_power",
	CodeInvalidText:       "invalid_text",
	CodeStaleRef:          "stale_ref",
	CodeInvalidKey:        "invalid_key",
	CodeKeyTaken:          "key_taken",
	CodeInvalidURL:        "invalid_url",
	CodeBountyNotOpen:     "bounty_issue_closed",
	CodeBountyNotIssue:    "bounty_not_an_issue",
	CodeBountyNotExpired:  "bounty_not_expired",
	CodeBountyNoShare:     "bounty_nothing_to_refund",
	CodeTopicLocked:       "topic_locked",
	CodeNotReviewer:       "not_reviewer",
	CodeMilestoneReleased: "milestone_released",
	CodeAlreadyApproved:   "already_approved",
	CodeGrantExpired:      "grant_expired",
	CodeGrantNotFound:     "grant_not_found",
	CodeNotDelegated:      "not_delegated",
	CodeSignatureRequired: "wallet_signature_required",
	CodeInvalidScope:      "invalid_scope",
	CodeDelegationExpired: "expiry_passed",
	CodeNotDelegator:      "not_delegator",
	CodeRateLimited:       "rate_limited",
	CodeInvalidUpgrade:    "invalid_upgrade",
}

// CodeName returns the name of a code ("bad_signature"), or "" if the code
// is not one of ours.
func CodeName(code uint32) string { return codeNames[code] }

// Error is a rejected transaction: a stable Code and Name for programs and a
// Message for the person who sent it.
type Error struct {
	Code    uint32
	Name    string
	Message string
	// Field is the field at fault (its JSON name, "comments[0].body"),
	// when the check that failed knows it. It is not carried in ABCI
	// responses, only to callers in the same process.
	Field string
}

func (e *Error) Error() string { return e.Name + ": " + e.Message }

// Is makes errors.Is(err, &Error{Code: CodeBadNonce}) match on the code
// alone, since messages carry details that differ between rejections.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// NewError builds an *Error for code; the ledger uses it for the codes it
// decides (bad_nonce, insufficient_funds, ...).
func NewError(code uint32, format string, args ...any) *Error {
	return &Error{Code: code, Name: CodeName(code), Message: fmt.Sprintf(format, args...)}
}
