package forge_test

import (
	"strings"
	"testing"

	"github.com/dforge/dforge/internal/chain/tx"
)

const (
	fileCID  = "bafybeibfgjl63fon76xuindyyg3rcivfobkdqbzxjlmbylhzmwmbijglge" // dag-pb sha2-256
	rawCID   = "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy" // raw sha2-256
	cborCID  = "bafyreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy" // dag-cbor: not a file
	digest64 = "abababababababababababababababababababababababababababababababab"
)

// Releases: writers only, one release per tag, deterministic ids, assets
// with unique names (regardless of case), validated CIDs and digests; a
// deleted release frees its tag.
func TestReleasesAndAssets(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	create := m{"repo": id, "tagName": "v1.0", "target": "main", "title": "First", "note": "notes\n\twith tabs"}
	w.fails(tx.CodeForbidden, reader, "release.create", create)
	w.fails(tx.CodeNotFound, stranger, "release.create", m{"repo": id + 100, "tagName": "v1"})
	c := w.ok(writer, "release.create", create)
	rel := c.Release
	if rel == nil || rel.ID != 1 || rel.TagName != "v1.0" || rel.Publisher != writer || len(rel.Assets) != 0 || c.RepoID() != id {
		t.Fatalf("release = %+v", rel)
	}
	w.fails(tx.CodeConflict, maint, "release.create", m{"repo": id, "tagName": "v1.0"})
	for _, bad := range []m{
		{"repo": id, "tagName": ""},
		{"repo": id, "tagName": "a..b"},
		{"repo": id, "tagName": "v2", "target": "bad branch"},
		{"repo": id, "tagName": "v2", "title": strings.Repeat("t", 256)},
	} {
		w.fails(tx.CodeInvalidField, writer, "release.create", bad)
	}
	w.fails(tx.CodeInvalidText, writer, "release.create", m{"repo": id, "tagName": "v2", "title": "a\nb"})

	// Assets.
	asset := m{"repo": id, "release": rel.ID, "name": "tool.bin", "size": 10, "cid": fileCID, "sha256": digest64}
	w.fails(tx.CodeForbidden, reader, "release.asset.add", asset)
	a := w.ok(writer, "release.asset.add", asset).Release.Assets
	if len(a) != 1 || a[0].ID != 1 || a[0].Name != "tool.bin" || a[0].CID != fileCID || a[0].Uploader != writer {
		t.Fatalf("assets = %+v", a)
	}
	w.ok(writer, "release.asset.add", m{"repo": id, "release": rel.ID, "name": "b.txt", "size": 0, "cid": rawCID, "sha256": digest64})
	w.fails(tx.CodeConflict, writer, "release.asset.add", m{"repo": id, "release": rel.ID, "name": "TOOL.bin", "size": 1, "cid": fileCID, "sha256": digest64})
	for _, bad := range []m{
		{"repo": id, "release": rel.ID, "name": "x", "size": 1, "cid": cborCID, "sha256": digest64},
		{"repo": id, "release": rel.ID, "name": "x", "size": 1, "cid": "QmRJzsvyCQyizr73Gmms8ZRtvNxmgqumxc2KUp71dfEmoj", "sha256": digest64},
		{"repo": id, "release": rel.ID, "name": "x", "size": 1, "cid": fileCID, "sha256": "AB"},
		{"repo": id, "release": rel.ID, "name": "a/b", "size": 1, "cid": fileCID, "sha256": digest64},
		{"repo": id, "release": rel.ID, "name": "x", "size": -1, "cid": fileCID, "sha256": digest64},
	} {
		w.fails(tx.CodeInvalidField, writer, "release.asset.add", bad)
	}
	w.fails(tx.CodeNotFound, writer, "release.asset.add", m{"repo": id, "release": 99, "name": "x", "size": 1, "cid": fileCID, "sha256": digest64})
	got := w.ok(writer, "release.asset.edit", m{"repo": id, "release": rel.ID, "id": 1, "name": "tool-linux.bin"}).Release.Assets
	if got[0].Name != "tool-linux.bin" {
		t.Fatalf("renamed asset = %+v", got[0])
	}
	got = w.ok(writer, "release.asset.delete", m{"repo": id, "release": rel.ID, "id": 1}).Release.Assets
	if len(got) != 1 || got[0].Name != "b.txt" {
		t.Fatalf("assets after a delete = %+v", got)
	}
	w.fails(tx.CodeNotFound, writer, "release.asset.delete", m{"repo": id, "release": rel.ID, "id": 1})

	// Edits, a tag move, and a delete that frees the tag.
	w.ok(writer, "release.create", m{"repo": id, "tagName": "v2.0"})
	w.fails(tx.CodeConflict, writer, "release.edit", m{"repo": id, "id": rel.ID, "tagName": "v2.0"})
	e := w.ok(writer, "release.edit", m{"repo": id, "id": rel.ID, "tagName": "v1.1", "draft": true}).Release
	if e.TagName != "v1.1" || !e.Draft || e.Title != "First" {
		t.Fatalf("edited release = %+v", e)
	}
	w.ok(writer, "release.create", m{"repo": id, "tagName": "v1.0"}) // the old tag is free
	d := w.ok(maint, "release.delete", m{"repo": id, "id": rel.ID}).Release
	if !d.Deleted {
		t.Fatalf("deleted release = %+v", d)
	}
	w.fails(tx.CodeNotFound, writer, "release.edit", m{"repo": id, "id": rel.ID, "title": "again"})
	if r := w.ok(writer, "release.create", m{"repo": id, "tagName": "v1.1"}).Release; r.ID != 4 {
		t.Fatalf("a new release's id %d, want 4 (ids are never reused)", r.ID)
	}
}

// LFS objects: writers record them; an oid recorded before keeps its
// first record and is not in the change again.
func TestRepoLFS(t *testing.T) {
	w := newWorld(t)
	id := w.team()
	obj := m{"oid": digest64, "size": 5, "cid": fileCID}
	w.fails(tx.CodeForbidden, reader, "repo.lfs", m{"repo": id, "objects": []m{obj}})
	c := w.ok(writer, "repo.lfs", m{"repo": id, "objects": []m{obj}})
	if len(c.LFS) != 1 || c.LFS[0].Repo != id || c.LFS[0].OID != digest64 || c.RepoID() != id {
		t.Fatalf("lfs change = %+v", c.LFS)
	}
	if c := w.ok(writer, "repo.lfs", m{"repo": id, "objects": []m{{"oid": digest64, "size": 6, "cid": rawCID}}}); len(c.LFS) != 0 {
		t.Fatalf("a second record of the same oid = %+v", c.LFS)
	}
	for _, bad := range []m{
		{"repo": id, "objects": []m{}},
		{"repo": id, "objects": []m{{"oid": "xyz", "size": 5, "cid": fileCID}}},
		{"repo": id, "objects": []m{{"oid": digest64, "size": -1, "cid": fileCID}}},
		{"repo": id, "objects": []m{{"oid": digest64, "size": 1, "cid": cborCID}}},
		{"repo": id, "objects": []m{{"repo": id + 1, "oid": digest64, "size": 1, "cid": fileCID}}},
	} {
		w.fails(tx.CodeInvalidField, writer, "repo.lfs", bad)
	}
}

// A private store's files are kept off the blockstore: their records carry
// no CID, and one with a CID is refused (on chain a CID stays required).
func TestPrivateFilesHaveNoCID(t *testing.T) {
	w := newWorld(t)
	w.private = true
	id := w.team()
	rel := w.ok(writer, "release.create", m{"repo": id, "tagName": "v1"}).Release
	a := w.ok(writer, "release.asset.add", m{"repo": id, "release": rel.ID, "name": "a.bin", "size": 3, "sha256": digest64}).Release.Assets
	if len(a) != 1 || a[0].CID != "" || a[0].SHA256 != digest64 {
		t.Fatalf("private assets = %+v", a)
	}
	w.fails(tx.CodeInvalidField, writer, "release.asset.add", m{"repo": id, "release": rel.ID, "name": "b.bin", "size": 3, "cid": fileCID, "sha256": digest64})
	lfs := w.ok(writer, "repo.lfs", m{"repo": id, "objects": []m{{"oid": digest64, "size": 3}}}).LFS
	if len(lfs) != 1 || lfs[0].CID != "" {
		t.Fatalf("private LFS objects = %+v", lfs)
	}
	w.fails(tx.CodeInvalidField, writer, "repo.lfs", m{"repo": id, "objects": []m{{"oid": strings.Repeat("cd", 32), "size": 3, "cid": rawCID}}})

	pub := newWorld(t)
	pid := pub.team()
	prel := pub.ok(writer, "release.create", m{"repo": pid, "tagName": "v1"}).Release
	pub.fails(tx.CodeInvalidField, writer, "release.asset.add", m{"repo": pid, "release": prel.ID, "name": "a.bin", "size": 3, "sha256": digest64})
	pub.fails(tx.CodeInvalidField, writer, "repo.lfs", m{"repo": pid, "objects": []m{{"oid": digest64, "size": 3}}})
}
