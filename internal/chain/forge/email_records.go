package forge

import "github.com/ethereum/go-ethereum/common"

// The e-mails' record, as user.emails' events carry it (Change.Emails).
// The action, keys and rules are internal/chain/emails'; the record stays
// here because Change, whose JSON is the event, names it.

// EmailClaim is a change's new list of an account's claimed emails.
type EmailClaim struct {
	Address common.Address `json:"address"`
	Emails  []string       `json:"emails"`
}
