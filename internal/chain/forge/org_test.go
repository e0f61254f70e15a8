package forge_test

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/state"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// newOrg has owner create organization name and returns it.
func (w *world) newOrg(name string) forge.Org {
	w.t.Helper()
	c := w.ok(owner, "org.create", m{"name": name, "fullName": "The " + name})
	if len(c.Orgs) != 1 || len(c.Teams) == 0 || len(c.TeamMembers) != 1 {
		w.t.Fatalf("org.create change = %+v", c)
	}
	return c.Orgs[0]
}

func TestOrgCreateNamesAndOwners(t *testing.T) {
	w := newWorld(t)
	o := w.newOrg("acme")
	if o.ID != 1 || o.Address != forge.OrgAddress(1) || o.Visibility != "public" || o.OwnersTeam == 0 {
		t.Fatalf("org = %+v", o)
	}
	if id := w.newOrg("beta").ID; id != 2 {
		t.Fatalf("second org id %d, want 2", id)
	}
	// The name is a username: taken in any case, by orgs and by users.
	w.fails(tx.CodeNameTaken, stranger, "org.create", m{"name": "ACME"})
	if _, err := names.Claim(w.st, stranger, "alice"); err != nil {
		t.Fatal(err)
	}
	w.fails(tx.CodeNameTaken, owner, "org.create", m{"name": "Alice"})
	if _, err := names.Claim(w.st, stranger, "acme"); err == nil {
		t.Fatal("a user claimed an organization's name")
	}
	for _, bad := range []string{"", "a b", "-x", "admin", "user-0123456789ab", "x.git"} {
		w.fails(tx.CodeInvalidName, owner, "org.create", m{"name": bad})
	}
	w.fails(tx.CodeInvalidField, owner, "org.create", m{"name": "lim", "visibility": "private"})
	w.fails(tx.CodeInvalidText, owner, "org.create", m{"name": "ctl", "fullName": "a\nb"})
	w.fails(tx.CodeInvalidText, owner, "org.create", m{"name": "nul", "description": "a\x00"})
	w.fails(tx.CodeInvalidField, owner, "org.create", m{"name": "long", "location": strings.Repeat("l", forge.MaxOrgLocation+1)})
	// Only owners edit; edits are checked.
	w.fails(tx.CodeForbidden, stranger, "org.update", m{"org": o.ID, "description": "mine"})
	w.fails(tx.CodeInvalidField, owner, "org.update", m{"org": o.ID, "visibility": "limited"})
	if got := w.ok(owner, "org.update", m{"org": o.ID, "website": "https://acme.example"}).Orgs[0]; got.Website != "https://acme.example" || got.FullName != "The acme" {
		t.Fatalf("updated org = %+v", got)
	}
	w.fails(tx.CodeNotFound, owner, "org.update", m{"org": 99})
}

func TestTeamsGrantPermissions(t *testing.T) {
	w := newWorld(t)
	o := w.newOrg("acme")
	// owner creates a repository of the org; a stranger may not.
	r := w.ok(owner, "repo.create", m{"name": "app", "org": o.ID}).Repos[0]
	if r.Owner != o.Address {
		t.Fatalf("repo owner %s, want the org's address", r.Owner.Hex())
	}
	w.fails(tx.CodeForbidden, stranger, "repo.create", m{"name": "x", "org": o.ID})
	push := m{"repo": r.ID, "ref": "refs/heads/main", "old": "0000000000000000000000000000000000000000", "new": sha1}
	w.fails(tx.CodeForbidden, writer, "repo.push", push)

	devs := w.ok(owner, "team.create", m{"org": o.ID, "name": "devs", "permission": "write", "units": []string{"repo.code"}}).Teams[0]
	w.fails(tx.CodeNameTaken, owner, "team.create", m{"org": o.ID, "name": "DEVS", "permission": "read"})
	w.fails(tx.CodeNameTaken, owner, "team.create", m{"org": o.ID, "name": "owners", "permission": "read"})
	w.fails(tx.CodeInvalidField, owner, "team.create", m{"org": o.ID, "name": "x", "permission": "owner"})
	w.fails(tx.CodeInvalidField, owner, "team.create", m{"org": o.ID, "name": "x", "permission": "write", "units": []string{"repo.nope"}})
	w.fails(tx.CodeInvalidField, owner, "team.create", m{"org": o.ID, "name": "a b", "permission": "write"})
	w.fails(tx.CodeForbidden, stranger, "team.create", m{"org": o.ID, "name": "mine", "permission": "read"})

	w.ok(owner, "team.member.add", m{"team": devs.ID, "user": writer})
	// A member of a team without the repository still may not push.
	w.fails(tx.CodeForbidden, writer, "repo.push", push)
	w.fails(tx.CodeForbidden, writer, "team.repo.add", m{"team": devs.ID, "repo": r.ID})
	w.ok(owner, "team.repo.add", m{"team": devs.ID, "repo": r.ID})
	w.ok(writer, "repo.push", push)
	// Write is not maintain: the writer may not change settings.
	w.fails(tx.CodeForbidden, writer, "repo.update", m{"repo": r.ID, "description": "x"})
	w.fails(tx.CodeForbidden, writer, "repo.create", m{"name": "y", "org": o.ID})
	w.ok(owner, "team.edit", m{"team": devs.ID, "canCreateOrgRepo": true, "permission": "admin"})
	w.ok(writer, "repo.create", m{"name": "y", "org": o.ID})
	w.ok(writer, "repo.update", m{"repo": r.ID, "description": "x"})
	// Admin is not owner: deletion stays with the organization's owners.
	w.fails(tx.CodeForbidden, writer, "repo.delete", m{"repo": r.ID})
	// The Owners team keeps its rights and its last owner.
	w.fails(tx.CodeForbidden, owner, "team.edit", m{"team": o.OwnersTeam, "permission": "read"})
	w.fails(tx.CodeForbidden, owner, "team.delete", m{"team": o.OwnersTeam})
	w.fails(tx.CodeConflict, owner, "team.member.remove", m{"team": o.OwnersTeam, "user": owner})
	w.fails(tx.CodeConflict, owner, "org.member.remove", m{"org": o.ID, "user": owner})
	// A removed member loses the access; so does a deleted team's.
	w.ok(owner, "org.member.remove", m{"org": o.ID, "user": writer})
	w.fails(tx.CodeForbidden, writer, "repo.push", push)
	w.fails(tx.CodeNotFound, owner, "org.member.remove", m{"org": o.ID, "user": writer})
	w.ok(owner, "team.member.add", m{"team": devs.ID, "user": writer})
	w.ok(owner, "team.delete", m{"team": devs.ID})
	w.fails(tx.CodeForbidden, writer, "repo.update", m{"repo": r.ID, "description": "z"})
	w.fails(tx.CodeNotFound, owner, "team.member.add", m{"team": devs.ID, "user": writer})
	// A team may be named again once deleted.
	w.ok(owner, "team.create", m{"org": o.ID, "name": "devs", "permission": "read"})
}

func TestOrgTransferAndDelete(t *testing.T) {
	w := newWorld(t)
	o := w.newOrg("acme")
	mine := w.ok(stranger, "repo.create", m{"name": "tool"}).Repos[0]
	// Only the org's owners move repositories into it.
	w.fails(tx.CodeForbidden, stranger, "repo.transfer", m{"repo": mine.ID, "newOwner": o.Address})
	w.ok(owner, "team.member.add", m{"team": o.OwnersTeam, "user": stranger})
	c := w.ok(stranger, "repo.transfer", m{"repo": mine.ID, "newOwner": o.Address})
	if c.Repos[0].Owner != o.Address || len(c.Orgs) != 1 || c.Orgs[0].Repos != 1 {
		t.Fatalf("transfer change = %+v", c)
	}
	w.fails(tx.CodeConflict, owner, "org.delete", m{"org": o.ID})
	w.ok(owner, "repo.delete", m{"repo": mine.ID})
	w.fails(tx.CodeForbidden, reader, "org.delete", m{"org": o.ID})
	w.fails(tx.CodeNotFound, owner, "org.update", m{"org": 99})
	// Forks go into an organization for its owners, as repositories do.
	src := w.ok(reader, "repo.create", m{"name": "lib"}).Repos[0]
	w.fails(tx.CodeForbidden, writer, "repo.fork", m{"repo": src.ID, "org": o.ID})
	fork := w.ok(owner, "repo.fork", m{"repo": src.ID, "org": o.ID})
	if fork.Repos[0].Owner != o.Address || fork.Orgs[0].Repos != 1 {
		t.Fatalf("fork into the org = %+v", fork)
	}
	w.fails(tx.CodeConflict, owner, "repo.fork", m{"repo": fork.Repos[0].ID, "org": o.ID})
	w.fails(tx.CodeConflict, owner, "org.delete", m{"org": o.ID})
	w.ok(owner, "repo.delete", m{"repo": fork.Repos[0].ID})
	if got := w.ok(owner, "org.delete", m{"org": o.ID}).Orgs[0]; !got.Deleted {
		t.Fatalf("deleted org = %+v", got)
	}
	w.fails(tx.CodeNotFound, owner, "org.update", m{"org": o.ID})
	// The name is free again, for a user too.
	if _, err := names.Claim(state.NewOverlay(w.st), reader, "acme"); err != nil {
		t.Fatalf("claim the freed name: %v", err)
	}
	w.newOrg("acme")
	if forge.OrgAddress(1) == forge.OrgAddress(2) || forge.OrgAddress(1) == (common.Address{}) {
		t.Fatal("org addresses collide")
	}
}

// An organization's website is an http(s) address from the safe-urls
// upgrade on; before it, blocks that stored another kind replay as they
// did, and an org keeps such a website until its owner sets a new one.
func TestOrgWebsiteIsAnHTTPAddressFromSafeURLs(t *testing.T) {
	w := newWorld(t)
	w.ok(owner, "org.create", m{"name": "old", "website": "javascript:alert(1)"})

	if err := upgrade.Apply(w.st, upgrade.SafeURLs, w.height+1); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"javascript:alert(1)", "data:text/html,hi", "//example.org", "https://"} {
		w.fails(tx.CodeInvalidField, owner, "org.create", m{"name": "acme", "website": bad})
		w.fails(tx.CodeInvalidField, owner, "org.update", m{"org": 1, "website": bad})
	}
	w.ok(owner, "org.create", m{"name": "acme", "website": "https://acme.example"})
	w.ok(owner, "org.update", m{"org": 1, "description": "kept its website"})
	w.ok(owner, "org.update", m{"org": 1, "website": "https://old.example"})
	w.ok(owner, "org.update", m{"org": 1, "website": ""})
}
