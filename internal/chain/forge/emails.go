package forge

import (
	"encoding/json"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/tx"
)

// Emails an account claims (user.emails): git author emails that are its,
// so a repository's contributors count commits under them as the account's
// and one person is not listed twice. The claim is the account's signed
// word, public on chain like its profile; an email belongs to the first
// account that claims it until that account lets it go. Nothing checks
// that the claimant reads the mailbox: a node without mail cannot, and the
// claim is shown with the account, so a false one is there for all to see.

const (
	MaxEmails   = 10
	MaxEmailLen = 254 // RFC 5321's limit on a path
)

// UserEmails is the payload of user.emails: the actor's claimed emails,
// replacing the previous list. Emails compare in lower case.
type UserEmails struct {
	Emails []string `json:"emails"`
}

func (UserEmails) ActionName() string { return "user.emails" }

// EmailClaim is a change's new list of an account's claimed emails.
type EmailClaim struct {
	Address common.Address `json:"address"`
	Emails  []string       `json:"emails"`
}

// ValidEmail reports whether e looks like an email a commit could carry:
// one @ with something on each side, a dot in the domain, no spaces or
// angle brackets, lower case.
func ValidEmail(e string) bool {
	local, domain, ok := strings.Cut(e, "@")
	return ok && local != "" && strings.Contains(domain, ".") && !strings.Contains(domain, "@") && len(e) <= MaxEmailLen &&
		!strings.ContainsAny(e, " \t<>,;\"") && e == strings.ToLower(e) && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

func emailKey(email string) []byte             { return key([]byte("email"), []byte(email)) }
func userEmailsKey(addr common.Address) []byte { return key([]byte("user-emails"), addr.Bytes()) }

func userEmails(s *session, payload []byte) error {
	var p UserEmails
	if err := decode(payload, &p); err != nil {
		return err
	}
	if len(p.Emails) > MaxEmails {
		return invalid("emails", "may hold at most %d emails", MaxEmails)
	}
	for _, e := range p.Emails {
		if !ValidEmail(e) {
			return invalid("emails", "%q is not an email address in lower case, such as name@example.org", e)
		}
	}
	if dup, ok := firstDuplicate(p.Emails); ok {
		return invalid("emails", "lists %q twice", dup)
	}
	var old []string
	if _, err := s.getJSON(userEmailsKey(s.actor), &old); err != nil {
		return err
	}
	for _, e := range old {
		if err := s.kv.Set(emailKey(e), none); err != nil {
			return err
		}
	}
	for _, e := range p.Emails {
		owner, err := s.kv.Get(emailKey(e))
		if err != nil {
			return err
		}
		if len(owner) == common.AddressLength && common.BytesToAddress(owner) != s.actor {
			return tx.NewError(tx.CodeNameTaken, "%s is claimed by another account", e)
		}
		if err := s.kv.Set(emailKey(e), s.actor.Bytes()); err != nil {
			return err
		}
	}
	list := p.Emails
	if list == nil {
		list = []string{}
	}
	b, _ := json.Marshal(list) // strings: cannot fail
	if err := s.kv.Set(userEmailsKey(s.actor), b); err != nil {
		return err
	}
	s.change.Emails = &EmailClaim{Address: s.actor, Emails: list}
	return nil
}
