// Package emails is the chain module of the e-mails an account claims
// (user.emails): git author emails that are its, so a repository's
// contributors count commits under them as the account's and one person is
// not listed twice. The claim is the account's signed word, public on
// chain like its profile; an email belongs to the first account that
// claims it until that account lets it go. Nothing checks that the
// claimant reads the mailbox: a node without mail cannot, and the claim is
// shown with the account, so a false one is there for all to see.
//
// Its action is a forge action: init registers it into the forge module's
// one actions table (forge.Register); the record its events carry
// (forge.EmailClaim) stays in the forge package. README.md is the spec.
package emails

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

func init() {
	forge.Register("user.emails", Set{}, set)
}

// Bounds of a claim.
const (
	MaxEmails   = 10
	MaxEmailLen = 254 // RFC 5321's limit on a path
)

// Set is the payload of user.emails: the actor's claimed emails, replacing
// the previous list. Emails compare in lower case.
type Set struct {
	Emails []string `json:"emails"`
}

func (Set) ActionName() string { return "user.emails" }

// ValidEmail reports whether e looks like an email a commit could carry:
// one @ with something on each side, a dot in the domain, no spaces or
// angle brackets, lower case.
func ValidEmail(e string) bool {
	local, domain, ok := strings.Cut(e, "@")
	return ok && local != "" && strings.Contains(domain, ".") && !strings.Contains(domain, "@") && len(e) <= MaxEmailLen &&
		!strings.ContainsAny(e, " \t<>,;\"") && e == strings.ToLower(e) && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// State keys: forge/email/<email> and forge/user-emails/<address>, under
// the forge module's prefix, where they were before e-mails had their own
// package (the app hash depends on them).
func emailKey(email string) []byte { return forge.StateKey([]byte("email"), []byte(email)) }
func userEmailsKey(addr common.Address) []byte {
	return forge.StateKey([]byte("user-emails"), addr.Bytes())
}

// firstDuplicate is the first email s lists twice, if any.
func firstDuplicate(s []string) (string, bool) {
	for i := range s {
		if slices.Contains(s[:i], s[i]) {
			return s[i], true
		}
	}
	return "", false
}

func set(s *forge.Session, payload []byte) error {
	var p Set
	if err := forge.Decode(payload, &p); err != nil {
		return err
	}
	if len(p.Emails) > MaxEmails {
		return forge.Invalid("emails", "may hold at most %d emails", MaxEmails)
	}
	for _, e := range p.Emails {
		if !ValidEmail(e) {
			return forge.Invalid("emails", "%q is not an email address in lower case, such as name@example.org", e)
		}
	}
	if dup, ok := firstDuplicate(p.Emails); ok {
		return forge.Invalid("emails", "lists %q twice", dup)
	}
	actor := s.Actor()
	var old []string
	if _, err := s.GetJSON(userEmailsKey(actor), &old); err != nil {
		return err
	}
	for _, e := range old {
		if err := s.KV().Set(emailKey(e), forge.None()); err != nil {
			return err
		}
	}
	for _, e := range p.Emails {
		owner, err := s.KV().Get(emailKey(e))
		if err != nil {
			return err
		}
		if len(owner) == common.AddressLength && common.BytesToAddress(owner) != actor {
			return tx.NewError(tx.CodeNameTaken, "%s is claimed by another account", e)
		}
		if err := s.KV().Set(emailKey(e), actor.Bytes()); err != nil {
			return err
		}
	}
	list := p.Emails
	if list == nil {
		list = []string{}
	}
	b, _ := json.Marshal(list) // strings: cannot fail
	if err := s.KV().Set(userEmailsKey(actor), b); err != nil {
		return err
	}
	s.Change().Emails = &forge.EmailClaim{Address: actor, Emails: list}
	return nil
}
