package forge_test

import (
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/tx"
)

// The chain orders pushes: an update applies only from the ref's value on
// chain, and a push's updates apply all or none.
func TestPushIsCompareAndSwapAndAtomic(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	up := func(ref, old, new string) m { return m{"ref": ref, "old": old, "new": new} }
	refs := func() map[string]string {
		t.Helper()
		list, err := forge.Refs(w.st, id)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, r := range list {
			out[r.Name] = r.ID
		}
		return out
	}

	// A ref the chain lacks is created from the zero id only.
	w.fails(tx.CodeStaleRef, writer, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha1, "new": sha2})
	c := w.ok(writer, "repo.push", m{"repo": id, "updates": []m{up("refs/heads/main", forge.ZeroSHA, sha1), up("refs/tags/v1", forge.ZeroSHA, sha1)}})
	if len(c.Refs) != 2 || c.Refs[0].Ref != "refs/heads/main" || c.Refs[1].Ref != "refs/tags/v1" || c.Refs[0].ID+1 != c.Refs[1].ID || c.RepoID() != id {
		t.Fatalf("refs of the change = %+v", c.Refs)
	}
	// Another node's push from the same old value loses the race.
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha1, "new": sha2})
	w.fails(tx.CodeStaleRef, maint, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha1, "new": sha3})
	w.fails(tx.CodeStaleRef, maint, "repo.push", m{"repo": id, "ref": "refs/tags/v1", "old": forge.ZeroSHA, "new": sha3})
	// One stale update refuses the whole push.
	w.fails(tx.CodeStaleRef, writer, "repo.push", m{"repo": id, "updates": []m{up("refs/heads/topic", forge.ZeroSHA, sha3), up("refs/heads/main", sha1, sha3)}})
	if got := refs(); len(got) != 2 || got["refs/heads/main"] != sha2 || got["refs/tags/v1"] != sha1 {
		t.Fatalf("refs after a refused push = %v", got)
	}
	// A deleted ref is gone, and comes back from the zero id.
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/tags/v1", "old": sha1, "new": forge.ZeroSHA})
	w.fails(tx.CodeStaleRef, writer, "repo.push", m{"repo": id, "ref": "refs/tags/v1", "old": sha1, "new": forge.ZeroSHA})
	w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/tags/v1", "old": forge.ZeroSHA, "new": sha3})
	if got := refs(); len(got) != 2 || got["refs/tags/v1"] != sha3 {
		t.Fatalf("refs = %v", got)
	}
	// Malformed lists.
	for _, bad := range []m{
		{"repo": id, "updates": []m{}},
		{"repo": id, "updates": []m{up("refs/heads/a", forge.ZeroSHA, sha1), up("refs/heads/a", forge.ZeroSHA, sha1)}},
		{"repo": id, "ref": "refs/heads/b", "old": forge.ZeroSHA, "new": sha1, "updates": []m{up("refs/heads/c", forge.ZeroSHA, sha1)}},
	} {
		w.fails(tx.CodeInvalidField, writer, "repo.push", bad)
	}
}

// A push may name the manifest of its big objects: a CIDv1 dag-cbor
// sha2-256 in base32, carried on each of its ref updates; anything else
// refuses the push.
func TestPushManifest(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	const manifest = "bafyreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy" // dag-cbor sha2-256 of "foo"
	c := w.ok(writer, "repo.push", m{"repo": id, "manifest": manifest,
		"updates": []m{{"ref": "refs/heads/main", "old": forge.ZeroSHA, "new": sha1}, {"ref": "refs/tags/v1", "old": forge.ZeroSHA, "new": sha1}}})
	if len(c.Refs) != 2 || c.Refs[0].Manifest != manifest || c.Refs[1].Manifest != manifest {
		t.Fatalf("refs of the change = %+v", c.Refs)
	}
	if c := w.ok(writer, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha1, "new": sha2}); c.Refs[0].Manifest != "" {
		t.Fatalf("a push without a manifest has %q", c.Refs[0].Manifest)
	}
	for _, bad := range []string{
		"manifest", // not a CID
		"QmRJzsvyCQyizr73Gmms8ZRtvNxmgqumxc2KUp71dfEmoj",              // CIDv0
		"bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy", // raw codec
		"baf4bcfal53d3l2r7b7n4sxin2r7tyw6coxniumy",                    // git-raw sha1
		"zdpuAoPnekKvccPH2KVtY7PGMuwgtDQ2uWrP43XnuxY3b5ziZ",           // the same CID in base58
		strings.ToUpper(manifest),
		"bafyrgqhx7o5g4brw7ciok3536mud4usmn6rsasxcta4c2yshihinyzrygjxcqlcbxzpeevgyqidxfrkrriwfvdamp57nugkzjj7lkokfhypno", // sha2-512
		manifest + strings.Repeat("a", forge.MaxManifest),                                                                // too long
	} {
		w.fails(tx.CodeInvalidField, writer, "repo.push", m{"repo": id, "ref": "refs/heads/main", "old": sha2, "new": sha3, "manifest": bad})
	}
}

// The manifest of a push's big objects may come after the push, from a
// writer; the chain checks its form and that the repository is public.
func TestRepoManifestAfterThePush(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	const manifest = "bafyreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"
	c := w.ok(writer, "repo.manifest", m{"repo": id, "manifest": manifest})
	if c.Manifest == nil || c.Manifest.Repo != id || c.Manifest.Manifest != manifest || c.RepoID() != id || len(c.Repos) != 1 || c.Repos[0].UpdatedHeight != w.height {
		t.Fatalf("change = %+v", c)
	}
	w.fails(tx.CodeForbidden, reader, "repo.manifest", m{"repo": id, "manifest": manifest})
	w.fails(tx.CodeNotFound, writer, "repo.manifest", m{"repo": id + 100, "manifest": manifest})
	for _, bad := range []string{"", "manifest", "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"} {
		w.fails(tx.CodeInvalidField, writer, "repo.manifest", m{"repo": id, "manifest": bad})
	}
	w = newWorld(t)
	w.private = true
	w.fails(tx.CodeInvalidField, owner, "repo.manifest", m{"repo": w.team(), "manifest": manifest})
}

// Each action's payload type names that action, so a typed payload cannot
// reach the chain under another action's name.
func TestPayloadTypesNameTheirAction(t *testing.T) {
	for _, name := range forge.Actions() {
		p, ok := forge.PayloadOf(name)
		if !ok {
			t.Fatalf("%s has no payload type", name)
		}
		a, ok := p.(forge.Action)
		if !ok {
			t.Fatalf("%s's payload %T names no action", name, p)
		}
		if got := a.ActionName(); got != name {
			t.Errorf("%s's payload %T names %s", name, p, got)
		}
	}
}
