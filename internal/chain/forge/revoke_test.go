package forge_test

import (
	"encoding/binary"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// deleted lists the ids of the repositories a change deleted, in order.
func deleted(c forge.Change) []uint64 {
	var ids []uint64
	for _, r := range c.Repos {
		if r.Deleted {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// lastRepo is the change's last record of repository id.
func lastRepo(t *testing.T, c forge.Change, id uint64) forge.Repo {
	t.Helper()
	for i := len(c.Repos) - 1; i >= 0; i-- {
		if c.Repos[i].ID == id {
			return c.Repos[i]
		}
	}
	t.Fatalf("change %s has no record of repository %d", c.Action, id)
	return forge.Repo{}
}

func (w *world) fork(actor common.Address, src uint64, name string) uint64 {
	w.t.Helper()
	return w.ok(actor, "repo.fork", m{"repo": src, "name": name}).Repos[0].ID
}

func (w *world) collab(actor common.Address, repo uint64, user common.Address, perm string) forge.Change {
	w.t.Helper()
	return w.ok(actor, "repo.collaborator.set", m{"repo": repo, "user": user, "permission": perm})
}

// Someone who can no longer read a private repository loses their forks
// in its fork network, and the forks made of them.
func TestRemovedCollaboratorLosesForks(t *testing.T) {
	w := newWorld(t)
	w.private = true
	x := w.team()
	wx := w.fork(writer, x, "wx")
	rx := w.fork(reader, x, "rx")
	// A fork of the writer's fork, by someone the writer let in.
	w.collab(writer, wx, stranger, "read")
	swx := w.fork(stranger, wx, "swx")
	// The writer's fork of the reader's fork.
	w.collab(reader, rx, writer, "read")
	wrx := w.fork(writer, rx, "wrx")

	// Still a reader: nothing goes.
	if c := w.collab(owner, x, writer, "read"); len(c.Repos) != 0 {
		t.Fatalf("downgrade to read changed repositories %+v", c.Repos)
	}
	c := w.collab(owner, x, writer, "none")
	if got, want := deleted(c), []uint64{wx, swx, wrx}; !equal(got, want) {
		t.Fatalf("deleted %v, want %v", got, want)
	}
	if r := lastRepo(t, c, x); r.Forks != 1 {
		t.Fatalf("x counts %d forks, want 1 (the reader's)", r.Forks)
	}
	if r := lastRepo(t, c, rx); r.Forks != 0 || r.Deleted {
		t.Fatalf("reader's fork = %+v", r)
	}
	if id := c.Event().Attributes[2]; id.Key != forge.AttrRepo || id.Value != "281474976710657" {
		t.Fatalf("event's repository %+v, want x", id)
	}
	for _, id := range []uint64{wx, swx, wrx} {
		w.fails(tx.CodeNotFound, writer, "repo.push", m{"repo": id, "ref": "refs/heads/x", "old": forge.ZeroSHA, "new": sha1})
		w.fails(tx.CodeNotFound, stranger, "repo.star", m{"repo": id})
	}
	w.ok(reader, "repo.star", m{"repo": rx})
	// Let in again, the writer forks under the same name.
	w.collab(owner, x, writer, "write")
	w.fork(writer, x, "wx")
}

// A transfer takes the former owner's read access, and their forks of
// forks with it; a collaborator's fork stays.
func TestTransferRevokesFormerOwnersForks(t *testing.T) {
	w := newWorld(t)
	w.private = true
	x := w.team()
	rx := w.fork(reader, x, "rx")
	w.collab(reader, rx, owner, "read")
	orx := w.fork(owner, rx, "orx")
	// A private store's transfers wait for the recipient: the move, and
	// what it revokes, come with the acceptance.
	if c := w.ok(owner, "repo.transfer", m{"repo": x, "newOwner": maint}); len(c.Repos) != 0 {
		t.Fatalf("an offer moved %+v", c.Repos)
	}
	c := w.ok(maint, "repo.transfer.accept", m{"repo": x})
	if c.Repos[0].ID != x || c.Repos[0].Owner != maint {
		t.Fatalf("transfer's first record %+v", c.Repos[0])
	}
	if got := deleted(c); !equal(got, []uint64{orx}) {
		t.Fatalf("deleted %v, want the former owner's fork %d", got, orx)
	}
	w.ok(reader, "repo.star", m{"repo": rx})
}

// Forks made before the store kept fork lists are found too.
func TestRevokeFindsForksMadeBeforeForkLists(t *testing.T) {
	w := newWorld(t)
	w.private = true
	x := w.team()
	rx := w.fork(reader, x, "rx")
	// What a store written before fork lists has: none.
	if err := w.st.Set(binary.BigEndian.AppendUint64([]byte("forge/forks/"), x), []byte{0}); err != nil {
		t.Fatal(err)
	}
	if got := deleted(w.collab(owner, x, reader, "none")); !equal(got, []uint64{rx}) {
		t.Fatalf("deleted %v, want %d", got, rx)
	}
}

// Everyone reads a public repository: removing a collaborator takes no
// fork.
func TestPublicForksStay(t *testing.T) {
	w := newWorld(t)
	x := w.team()
	wx := w.fork(writer, x, "wx")
	if c := w.collab(owner, x, writer, "none"); len(c.Repos) != 0 {
		t.Fatalf("removing a public repository's collaborator changed %+v", c.Repos)
	}
	w.ok(writer, "repo.star", m{"repo": wx})
}
