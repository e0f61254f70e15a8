package forge_test

import (
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
)

// pendingWorld is a world under the pending-transfers rules, as a new
// chain is from its first block.
func pendingWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t)
	if err := upgrade.Apply(w.st, upgrade.PendingTransfers, 0); err != nil {
		t.Fatal(err)
	}
	return w
}

// A transfer to a user is an offer: the repository stays its owner's
// until the recipient accepts; a rejection ends the offer and nothing
// moved.
func TestTransferWaitsForTheRecipient(t *testing.T) {
	w := pendingWorld(t)
	id := w.team()
	c := w.ok(owner, "repo.transfer", m{"repo": id, "newOwner": stranger})
	if c.Transfer == nil || c.Transfer.State != forge.TransferPending || c.Transfer.Recipient != stranger || c.Transfer.Doer != owner || c.Transfer.Repo != id {
		t.Fatalf("offer change = %+v", c.Transfer)
	}
	if len(c.Repos) != 0 || c.RepoID() != id {
		t.Fatalf("an offer moved the repository: %+v", c.Repos)
	}
	// Still the owner's: they act on it, the recipient does not.
	w.ok(owner, "repo.update", m{"repo": id, "description": "still mine"})
	w.fails(tx.CodeForbidden, stranger, "repo.update", m{"repo": id, "description": "mine?"})

	c = w.ok(stranger, "repo.transfer.reject", m{"repo": id})
	if c.Transfer == nil || c.Transfer.State != forge.TransferRejected || len(c.Repos) != 0 {
		t.Fatalf("reject change = %+v", c)
	}
	w.fails(tx.CodeNotFound, stranger, "repo.transfer.accept", m{"repo": id})

	// Offered again, and accepted: it moves, as an immediate transfer did.
	w.ok(owner, "repo.transfer", m{"repo": id, "newOwner": stranger})
	c = w.ok(stranger, "repo.transfer.accept", m{"repo": id})
	if c.Transfer == nil || c.Transfer.State != forge.TransferAccepted || len(c.Repos) != 1 || c.Repos[0].Owner != stranger {
		t.Fatalf("accept change = %+v", c)
	}
	w.fails(tx.CodeForbidden, owner, "repo.update", m{"repo": id, "description": "mine"})
	w.ok(stranger, "repo.update", m{"repo": id, "description": "mine now"})
	w.fails(tx.CodeNotFound, stranger, "repo.transfer.reject", m{"repo": id})
}

// Every way an offer can be refused gives its stable code and changes
// nothing.
func TestTransferRefusals(t *testing.T) {
	w := pendingWorld(t)
	id := w.team()
	w.fails(tx.CodeNotFound, stranger, "repo.transfer.accept", m{"repo": id}) // nothing pending
	w.fails(tx.CodeNotFound, owner, "repo.transfer.reject", m{"repo": id})    // nothing pending
	w.fails(tx.CodeNotFound, stranger, "repo.transfer.accept", m{"repo": 99}) // no repository
	w.fails(tx.CodeConflict, owner, "repo.transfer", m{"repo": id, "newOwner": owner})
	w.fails(tx.CodeInvalidField, owner, "repo.transfer", m{"repo": id, "newOwner": "0x0000000000000000000000000000000000000000"})
	w.fails(tx.CodeInvalidField, owner, "repo.transfer", m{"repo": id, "newOwner": stranger, "teams": []uint64{1}}) // teams need an org
	w.fails(tx.CodeForbidden, maint, "repo.transfer", m{"repo": id, "newOwner": stranger})
	// The recipient has a repository of that name already.
	w.ok(stranger, "repo.create", m{"name": "x"})
	w.fails(tx.CodeNameTaken, owner, "repo.transfer", m{"repo": id, "newOwner": stranger})

	w.ok(owner, "repo.transfer", m{"repo": id, "newOwner": reader})
	// One offer at a time, as Gitea's "repository transfer in progress".
	w.fails(tx.CodeConflict, owner, "repo.transfer", m{"repo": id, "newOwner": writer})
	// Only the recipient answers; a collaborator or a stranger cannot.
	w.fails(tx.CodeForbidden, stranger, "repo.transfer.accept", m{"repo": id})
	w.fails(tx.CodeForbidden, writer, "repo.transfer.accept", m{"repo": id})
	w.fails(tx.CodeForbidden, stranger, "repo.transfer.reject", m{"repo": id})
	w.fails(tx.CodeForbidden, owner, "repo.transfer.accept", m{"repo": id}) // the owner cannot accept for them
	w.fails(tx.CodeInvalidField, reader, "repo.transfer.accept", m{"repo": id, "extra": 1})

	// The owner cancels their offer.
	if c := w.ok(owner, "repo.transfer.reject", m{"repo": id}); c.Transfer.State != forge.TransferCancelled {
		t.Fatalf("cancel = %+v", c.Transfer)
	}
	w.fails(tx.CodeNotFound, reader, "repo.transfer.accept", m{"repo": id})

	// A repository deleted while offered ends the offer.
	w.ok(owner, "repo.transfer", m{"repo": id, "newOwner": reader})
	w.ok(owner, "repo.delete", m{"repo": id})
	w.fails(tx.CodeNotFound, reader, "repo.transfer.accept", m{"repo": id})
	w.fails(tx.CodeNotFound, reader, "repo.transfer.reject", m{"repo": id})
}

// The recipient who took a repository of the offered name meanwhile must
// free it before accepting; the refused accept changes nothing.
func TestTransferAcceptChecksTheNameAgain(t *testing.T) {
	w := pendingWorld(t)
	id := w.team()
	w.ok(owner, "repo.transfer", m{"repo": id, "newOwner": stranger})
	mine := w.ok(stranger, "repo.create", m{"name": "X"}).Repos[0].ID
	w.fails(tx.CodeNameTaken, stranger, "repo.transfer.accept", m{"repo": id})
	w.ok(stranger, "repo.update", m{"repo": mine, "name": "y"})
	if c := w.ok(stranger, "repo.transfer.accept", m{"repo": id}); c.Repos[0].Owner != stranger {
		t.Fatalf("accept = %+v", c.Repos)
	}
}

// Into an organization: immediate for whoever may create its
// repositories (Gitea's rule), with the teams asked for; an offer its
// owners answer otherwise.
func TestTransferIntoAnOrganization(t *testing.T) {
	w := pendingWorld(t)
	o := w.newOrg("acme")
	devs := w.ok(owner, "team.create", m{"org": o.ID, "name": "devs", "permission": "write"}).Teams[0]
	other := w.ok(maint, "org.create", m{"name": "other"}).Orgs[0]
	foreign := w.ok(maint, "team.create", m{"org": other.ID, "name": "ops", "permission": "read"}).Teams[0]

	mine := w.ok(owner, "repo.create", m{"name": "tool"}).Repos[0]
	w.fails(tx.CodeInvalidField, owner, "repo.transfer", m{"repo": mine.ID, "newOwner": o.Address, "teams": []uint64{foreign.ID}})
	w.fails(tx.CodeNotFound, owner, "repo.transfer", m{"repo": mine.ID, "newOwner": o.Address, "teams": []uint64{999}})
	w.fails(tx.CodeInvalidField, owner, "repo.transfer", m{"repo": mine.ID, "newOwner": o.Address, "teams": []uint64{devs.ID, devs.ID}})
	c := w.ok(owner, "repo.transfer", m{"repo": mine.ID, "newOwner": o.Address, "teams": []uint64{devs.ID}})
	if c.Transfer != nil || len(c.Repos) == 0 || c.Repos[0].Owner != o.Address || len(c.TeamRepos) != 1 || c.TeamRepos[0].Team != devs.ID {
		t.Fatalf("an owner's transfer into the org = %+v", c)
	}

	// A stranger's repository is offered; a member without the right to
	// create repositories cannot accept it; an owner can.
	w.ok(owner, "team.member.add", m{"team": devs.ID, "user": writer})
	theirs := w.ok(stranger, "repo.create", m{"name": "gift"}).Repos[0]
	c = w.ok(stranger, "repo.transfer", m{"repo": theirs.ID, "newOwner": o.Address, "teams": []uint64{devs.ID}})
	if c.Transfer == nil || c.Transfer.State != forge.TransferPending || len(c.Transfer.Teams) != 1 {
		t.Fatalf("offer to the org = %+v", c)
	}
	w.fails(tx.CodeForbidden, writer, "repo.transfer.accept", m{"repo": theirs.ID})
	c = w.ok(owner, "repo.transfer.accept", m{"repo": theirs.ID})
	if c.Repos[0].Owner != o.Address || len(c.TeamRepos) != 1 || c.TeamRepos[0].Repo != theirs.ID {
		t.Fatalf("accepted into the org = %+v", c)
	}
	w.ok(writer, "repo.push", m{"repo": theirs.ID, "ref": "refs/heads/f", "old": zero, "new": sha1}) // the team's write
}

// Before the upgrade a transfer moves the repository at once, as the
// blocks of old chains did, and the new actions and fields are refused as
// the old binary refused them; from the upgrade's height on, the same
// payload is an offer.
func TestTransferCrossingPendingTransfers(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	w.fails(tx.CodeUnknownAction, stranger, "repo.transfer.accept", m{"repo": id})
	w.fails(tx.CodeUnknownAction, stranger, "repo.transfer.reject", m{"repo": id})
	w.fails(tx.CodeInvalidField, owner, "repo.transfer", m{"repo": id, "newOwner": maint, "teams": []uint64{}})
	c := w.ok(owner, "repo.transfer", m{"repo": id, "newOwner": maint})
	if c.Transfer != nil || c.Repos[0].Owner != maint {
		t.Fatalf("transfer before the upgrade = %+v", c)
	}
	if err := upgrade.Apply(w.st, upgrade.PendingTransfers, w.height+1); err != nil {
		t.Fatal(err)
	}
	c = w.ok(maint, "repo.transfer", m{"repo": id, "newOwner": owner})
	if c.Transfer == nil || len(c.Repos) != 0 {
		t.Fatalf("transfer after the upgrade = %+v", c)
	}
	w.ok(owner, "repo.transfer.accept", m{"repo": id})
}
