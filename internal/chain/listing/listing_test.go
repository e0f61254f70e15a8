package listing_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge/actiontest"
	"github.com/dforge/dforge/internal/chain/listing"
	"github.com/dforge/dforge/internal/chain/tx"
)

type m = actiontest.M

var (
	owner    = actiontest.Owner
	maint    = actiontest.Maint
	writer   = actiontest.Writer
	stranger = actiontest.Stranger
)

func ciListing(name string) m {
	return m{"name": name, "description": "Builds every push.\nTwo lines.", "events": []string{"push", "pull_request"},
		"url_template": "https://ci.example/hook/{owner}/{repo}?id={repo_id}", "homepage": "https://ci.example"}
}

// A listing is published, renamed, refused on a clash of names without
// regard to case, changed only by its publisher, and deleted (hidden: no
// more installs, but its installs can still be removed).
func TestListingLifecycle(t *testing.T) {
	w := actiontest.New(t)
	repo := w.Team()
	c := w.OK(stranger, "listing.publish", ciListing("Build Bot"))
	l := c.Listing
	if l == nil || l.ID != 1 || l.Publisher != stranger || l.Name != "Build Bot" || len(l.Events) != 2 {
		t.Fatalf("published %+v", l)
	}
	w.Fails(tx.CodeNameTaken, owner, "listing.publish", ciListing("build bot"))
	w.Fails(tx.CodeForbidden, owner, "listing.update", m{"id": l.ID, "name": "Mine"})
	w.Fails(tx.CodeNotFound, stranger, "listing.update", m{"id": 99, "name": "Mine"})
	if u := w.OK(stranger, "listing.update", m{"id": l.ID, "name": "CI Bot", "events": []string{"push"}}).Listing; u.Name != "CI Bot" || len(u.Events) != 1 || u.Description == "" {
		t.Fatalf("updated %+v", u)
	}
	// The old name is free again, the new one taken.
	other := w.OK(owner, "listing.publish", ciListing("build BOT")).Listing.ID
	w.Fails(tx.CodeNameTaken, owner, "listing.update", m{"id": other, "name": "ci bot"})

	// Installs: maintainers and up of the repository, once each.
	w.Fails(tx.CodeForbidden, writer, "listing.install", m{"listing": l.ID, "repo": repo})
	w.Fails(tx.CodeForbidden, stranger, "listing.install", m{"listing": l.ID, "repo": repo})
	w.Fails(tx.CodeNotFound, owner, "listing.install", m{"listing": 42, "repo": repo})
	w.Fails(tx.CodeNotFound, owner, "listing.install", m{"listing": l.ID, "repo": 4242})
	in := w.OK(maint, "listing.install", m{"listing": l.ID, "repo": repo}).Install
	if in == nil || !in.On || in.Repo != repo || in.Listing != l.ID || in.Installer != maint {
		t.Fatalf("install %+v", in)
	}
	w.Fails(tx.CodeConflict, owner, "listing.install", m{"listing": l.ID, "repo": repo})
	w.Fails(tx.CodeNotFound, owner, "listing.uninstall", m{"listing": other, "repo": repo})

	// Deleted: hidden and its name free; installed nowhere new, removable.
	if d := w.OK(stranger, "listing.delete", m{"id": l.ID}).Listing; !d.Deleted {
		t.Fatalf("deleted %+v", d)
	}
	w.Fails(tx.CodeNotFound, stranger, "listing.update", m{"id": l.ID, "name": "again"})
	w.Fails(tx.CodeNotFound, stranger, "listing.delete", m{"id": l.ID})
	w.Fails(tx.CodeNotFound, owner, "listing.install", m{"listing": l.ID, "repo": repo})
	w.OK(stranger, "listing.publish", ciListing("CI Bot"))
	if out := w.OK(owner, "listing.uninstall", m{"listing": l.ID, "repo": repo}).Install; out == nil || out.On {
		t.Fatalf("uninstall %+v", out)
	}
	w.Fails(tx.CodeNotFound, owner, "listing.uninstall", m{"listing": l.ID, "repo": repo})
}

// Bad fields are refused with a stable code naming the field: URL
// templates that are not absolute http(s) URLs or hold other braces are
// invalid_url, unknown or no events and empty or long names invalid_field.
func TestListingRefusals(t *testing.T) {
	w := actiontest.New(t)
	w.Team()
	with := func(k string, v any) m {
		p := ciListing("n")
		p[k] = v
		return p
	}
	long := make([]rune, listing.MaxName+1)
	for i := range long {
		long[i] = 'é'
	}
	cases := []struct {
		p     m
		code  uint32
		field string
	}{
		{with("url_template", "ftp://ci.example/{repo}"), tx.CodeInvalidURL, "url_template"},
		{with("url_template", "javascript:alert(1)"), tx.CodeInvalidURL, "url_template"},
		{with("url_template", "/relative/{owner}"), tx.CodeInvalidURL, "url_template"},
		{with("url_template", "https://user:pw@ci.example/"), tx.CodeInvalidURL, "url_template"},
		{with("url_template", "https://ci.example/{branch}"), tx.CodeInvalidURL, "url_template"},
		{with("url_template", "https://ci.example/{owner"), tx.CodeInvalidURL, "url_template"},
		{with("url_template", ""), tx.CodeInvalidURL, "url_template"},
		{with("homepage", "ftp://x.example"), tx.CodeInvalidURL, "homepage"},
		{with("events", []string{}), tx.CodeInvalidField, "events"},
		{with("events", []string{"push", "nope"}), tx.CodeInvalidField, "events"},
		{with("events", []string{"push", "push"}), tx.CodeInvalidField, "events"},
		{with("name", ""), tx.CodeInvalidField, "name"},
		{with("name", "  "), tx.CodeInvalidField, "name"},
		{with("name", string(long)), tx.CodeInvalidField, "name"},
		{with("description", strings.Repeat("a", listing.MaxDescription+1)), tx.CodeInvalidField, "description"},
	}
	for _, c := range cases {
		_, err := w.Do(owner, "listing.publish", c.p)
		var te *tx.Error
		if !errors.As(err, &te) || te.Code != c.code || te.Field != c.field {
			t.Errorf("publish %v: got %v (field %q), want %s on %q", c.p, err, fieldOf(err), tx.CodeName(c.code), c.field)
		}
	}
	id := w.OK(owner, "listing.publish", ciListing("ok")).Listing.ID
	w.Fails(tx.CodeInvalidURL, owner, "listing.update", m{"id": id, "url_template": "javascript:x"})
	w.Fails(tx.CodeInvalidField, owner, "listing.update", m{"id": id, "events": []string{}})
}

// Installs are public records: a private repository takes none.
func TestListingPrivateRepo(t *testing.T) {
	w := actiontest.New(t)
	w.OK(owner, "listing.publish", ciListing("ci"))
	w.Private = true
	repo := w.Team()
	w.Fails(tx.CodeInvalidField, owner, "listing.install", m{"listing": 1, "repo": repo})
}

func TestFillURLTemplate(t *testing.T) {
	got := listing.FillURLTemplate("https://ci.example/{owner}/{repo}?id={repo_id}&r={repo}", "a b", "x/y", 42)
	if want := "https://ci.example/a%20b/x%2Fy?id=42&r=x%2Fy"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// fieldOf is the field a rejection names, for messages.
func fieldOf(err error) string {
	var te *tx.Error
	if errors.As(err, &te) {
		return te.Field
	}
	return ""
}
