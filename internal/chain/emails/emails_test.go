package emails_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/forge/actiontest"
	"github.com/dforge/dforge/internal/chain/tx"
)

type m = actiontest.M

var (
	owner  = actiontest.Owner
	writer = actiontest.Writer
)

// user.emails: an account claims emails, replaces its list, and cannot
// take one another account holds until that one lets it go.
func TestUserEmails(t *testing.T) {
	w := actiontest.New(t)
	c := w.OK(owner, "user.emails", m{"emails": []string{"alice@example.org", "a@work.example"}})
	if c.Emails == nil || c.Emails.Address != owner || len(c.Emails.Emails) != 2 {
		t.Fatalf("claim %+v", c.Emails)
	}
	w.Fails(tx.CodeNameTaken, writer, "user.emails", m{"emails": []string{"alice@example.org"}})
	w.OK(owner, "user.emails", m{"emails": []string{"a@work.example"}})
	w.OK(writer, "user.emails", m{"emails": []string{"alice@example.org"}})
	w.OK(owner, "user.emails", m{"emails": []string{"a@work.example"}}) // its own again
	for _, bad := range []string{"Alice@example.org", "alice", "a@b", "a b@example.org", "@example.org"} {
		w.Fails(tx.CodeInvalidField, owner, "user.emails", m{"emails": []string{bad}})
	}
	w.Fails(tx.CodeInvalidField, owner, "user.emails", m{"emails": []string{"x@example.org", "x@example.org"}})
	if c := w.OK(owner, "user.emails", m{"emails": []string{}}); len(c.Emails.Emails) != 0 {
		t.Fatalf("cleared: %+v", c.Emails)
	}
}
