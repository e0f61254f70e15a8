package index_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
)

// What a replicating node reads: the public repositories changed since a
// height, with the operator that relayed their creation, and each ref's
// value as the chain has it (its latest update) with the relaying operator.
func TestReplicaReads(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		op0, op1 := newWallet(), newWallet()
		alice := newWallet().addr
		ch := openChain(t, t.TempDir(), app.Genesis{Params: testParams, Operators: []common.Address{op0.addr, op1.addr}})
		defer ch.Close() // before its temporary directory goes
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, ch.Client())
		defer follow(t, ix)()

		forgeAct(t, op0, ch, ix, alice, "repo.create", map[string]any{"name": "demo"})
		forgeAct(t, op0, ch, ix, alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/main", "old": forge.ZeroSHA, "new": sha1})
		forgeAct(t, op1, ch, ix, alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/main", "old": sha1, "new": sha2})
		forgeAct(t, op1, ch, ix, alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/topic", "old": forge.ZeroSHA, "new": sha3})
		forgeAct(t, op0, ch, ix, alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/topic", "old": sha3, "new": forge.ZeroSHA, "forced": true})
		const m1, m2 = "bafyreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy", "bafyreih43yvs5w5fnp2aqya7w4q75g24gogrb3sct2qe7lsvcg3i7p4pxe"
		forgeAct(t, op0, ch, ix, alice, "repo.push", map[string]any{"repo": 1, "manifest": m1,
			"updates": []map[string]any{{"ref": "refs/tags/v1", "old": forge.ZeroSHA, "new": sha1}, {"ref": "refs/tags/v2", "old": forge.ZeroSHA, "new": sha2}}})
		forgeAct(t, op0, ch, ix, alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/tags/v3", "old": forge.ZeroSHA, "new": sha3, "manifest": m2})
		forgeAct(t, op0, ch, ix, alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/tags/v3", "old": sha3, "new": sha1})
		if got, err := ix.Manifests(ctx, 1); err != nil || len(got) != 2 || got[0] != m2 || got[1] != m1 {
			t.Fatalf("manifests = %v, %v; want %s then %s", got, err, m2, m1)
		}
		// One sent after its push (twice: one row), and a push's own sent again.
		const m3 = "bafyreif2uwqjmtjted54brvjeikaiu6ike7kesvy7ucxoa2iasuwojeasy"
		forgeAct(t, op1, ch, ix, alice, "repo.manifest", map[string]any{"repo": 1, "manifest": m3})
		forgeAct(t, op1, ch, ix, alice, "repo.manifest", map[string]any{"repo": 1, "manifest": m3})
		if got, err := ix.Manifests(ctx, 1); err != nil || len(got) != 3 || got[0] != m3 || got[1] != m2 || got[2] != m1 {
			t.Fatalf("manifests = %v, %v; want %s, %s, %s", got, err, m3, m2, m1)
		}
		forgeAct(t, op0, ch, ix, alice, "repo.manifest", map[string]any{"repo": 1, "manifest": m1})
		if got, err := ix.Manifests(ctx, 1); err != nil || len(got) != 3 || got[0] != m1 || got[1] != m3 {
			t.Fatalf("manifests = %v, %v; want %s first, then %s", got, err, m1, m3)
		}
		if err := ix.ProjectPrivate(ctx, privateEntries(t, alice)...); err != nil {
			t.Fatal(err)
		}

		refs, err := ix.ChainRefs(ctx, 1)
		if err != nil || len(refs) != 5 {
			t.Fatalf("chain refs = %+v, %v", refs, err)
		}
		if main := refs[0]; main.Ref != "refs/heads/main" || main.SHA != sha2 || main.Relayer != op1.addr {
			t.Errorf("main = %+v, want %s relayed by %s", main, sha2, op1.addr)
		}
		if topic := refs[1]; topic.Ref != "refs/heads/topic" || topic.SHA != forge.ZeroSHA || topic.Relayer != op0.addr || topic.Update <= refs[0].Update {
			t.Errorf("topic = %+v, want deleted by %s, the newest update", topic, op0.addr)
		}

		repos, err := ix.PublicRepos(ctx, -1)
		if err != nil || len(repos) != 1 || repos[0].Name != "demo" || repos[0].Relayer != op0.addr {
			t.Fatalf("public repositories = %+v, %v (the private one is not listed)", repos, err)
		}
		if later, err := ix.PublicRepos(ctx, repos[0].UpdatedHeight); err != nil || len(later) != 0 {
			t.Fatalf("public repositories changed after %d = %+v, %v", repos[0].UpdatedHeight, later, err)
		}
	})
}
