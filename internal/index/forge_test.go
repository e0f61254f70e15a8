package index_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain"
	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/chain/names"
	"github.com/dforge/dforge/internal/chain/tx"
	"github.com/dforge/dforge/internal/chain/upgrade"
	"github.com/dforge/dforge/internal/forge/private"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/indextest"
	"github.com/dforge/dforge/internal/store"
)

const (
	sha1 = "1111111111111111111111111111111111111111"
	sha2 = "2222222222222222222222222222222222222222"
	sha3 = "3333333333333333333333333333333333333333"
)

// forgeAct submits one forge action relayed by op for actor.
func forgeAct(t *testing.T, op *wallet, ch *chain.Chain, ix *index.Index, actor common.Address, action string, payload map[string]any) {
	t.Helper()
	raw, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	op.submit(t, ch, ix, tx.KindForge, map[string]any{"actor": actor.Hex(), "action": action, "payload": string(raw)})
}

// privateEntries applies actions to a private store and returns them as
// the index takes them.
func privateEntries(t *testing.T, actor common.Address) []index.PrivateEntry {
	t.Helper()
	st := private.OpenMemory()
	var out []index.PrivateEntry
	for i, a := range []struct {
		action, payload string
	}{
		{"repo.create", `{"name":"secret","private":true}`},
		{"issue.create", `{"repo":281474976710657,"title":"private plans"}`},
		{"issue.comment", `{"repo":281474976710657,"number":1,"body":"shh"}`},
	} {
		e, err := st.Apply(actor, a.action, a.payload, int64(1_800_000_000+i)*1e9)
		if err != nil {
			t.Fatalf("%s: %v", a.action, err)
		}
		out = append(out, index.PrivateEntry{Seq: e.Seq, TimeNS: e.TimeNS, Events: []abci.Event{e.Change.Event()}})
	}
	return out
}

// TestForgeRebuildEqualsLive projects every forge action live, then
// rebuilds from the stopped chain's blocks into a fresh database and into
// the live one: the rows are the same, and a rebuild keeps the private
// store's rows, which are not the chain's.
func TestForgeRebuildEqualsLive(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		op := newWallet()
		alice, bob, carol := newWallet().addr, newWallet().addr, newWallet().addr
		// pending-transfers alone: the operator still relays without
		// delegations, and transfers wait for their recipient.
		genesis := app.Genesis{Params: testParams, Operators: []common.Address{op.addr}, Upgrades: []string{upgrade.PendingTransfers}}
		dir := t.TempDir()

		// 1. Live: every action, including deletions.
		ch := openChain(t, dir, genesis)
		live := openStore(t, dsn)
		defer live.Close()
		ix := index.New(quiet, live, ch.Client())
		stop := follow(t, ix)
		act := func(actor common.Address, action string, payload map[string]any) {
			t.Helper()
			forgeAct(t, op, ch, ix, actor, action, payload)
		}
		act(alice, "repo.create", map[string]any{"name": "x", "description": "the x"})
		act(alice, "repo.create", map[string]any{"name": "gone"})
		act(alice, "repo.collaborator.set", map[string]any{"repo": 1, "user": carol, "permission": "maintain"})
		act(alice, "repo.collaborator.set", map[string]any{"repo": 1, "user": bob, "permission": "write"})
		act(alice, "repo.collaborator.set", map[string]any{"repo": 1, "user": bob, "permission": "none"})
		act(carol, "label.create", map[string]any{"repo": 1, "name": "bug", "color": "#ff0000"})
		act(carol, "label.create", map[string]any{"repo": 1, "name": "old", "color": "#00ff00"})
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "one", "body": "b"})
		act(carol, "issue.edit", map[string]any{"repo": 1, "number": 1, "labels": []uint64{1, 2}, "assignees": []common.Address{carol}})
		act(carol, "label.delete", map[string]any{"repo": 1, "label": 2})
		act(bob, "issue.comment", map[string]any{"repo": 1, "number": 1, "body": "more"})
		act(carol, "issue.close", map[string]any{"repo": 1, "number": 1, "reason": "completed"})
		act(alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/main", "old": forge.ZeroSHA, "new": sha1})
		act(alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/topic", "old": forge.ZeroSHA, "new": sha2})
		act(alice, "pr.create", map[string]any{"repo": 1, "title": "two", "headBranch": "topic", "headSha": sha2, "baseSha": sha1})
		act(bob, "pr.review", map[string]any{"repo": 1, "number": 2, "state": "approve", "commitSha": sha2,
			"comments": []map[string]any{{"path": "f", "line": 2, "side": "old", "body": "ok"}}})
		act(alice, "pr.update", map[string]any{"repo": 1, "number": 2, "headSha": sha3})
		act(carol, "pr.merge", map[string]any{"repo": 1, "number": 2, "style": "merge", "mergeSha": sha1})
		act(bob, "repo.star", map[string]any{"repo": 1})
		act(carol, "repo.star", map[string]any{"repo": 1})
		act(carol, "repo.unstar", map[string]any{"repo": 1})
		act(bob, "repo.watch", map[string]any{"repo": 1})
		act(bob, "repo.fork", map[string]any{"repo": 1})
		act(alice, "repo.update", map[string]any{"repo": 1, "name": "y", "description": "renamed"})
		act(alice, "repo.transfer", map[string]any{"repo": 2, "newOwner": bob})
		act(bob, "repo.transfer.accept", map[string]any{"repo": 2})
		// Marketplace listings: installs, one in a repository deleted next
		// (its install goes with it), a listing renamed and one deleted.
		ci := map[string]any{"name": "CI", "description": "a\nb", "events": []string{"push"}, "url_template": "https://ci.example/{owner}/{repo}"}
		act(bob, "listing.publish", ci)
		act(alice, "listing.install", map[string]any{"listing": 1, "repo": 1})
		act(bob, "listing.install", map[string]any{"listing": 1, "repo": 2})
		act(bob, "listing.update", map[string]any{"id": 1, "name": "CI two", "homepage": "https://ci.example"})
		ci["name"] = "Gone"
		act(carol, "listing.publish", ci)
		act(alice, "listing.install", map[string]any{"listing": 2, "repo": 1})
		act(carol, "listing.delete", map[string]any{"id": 2})
		act(bob, "repo.delete", map[string]any{"repo": 2})
		if l, ok, err := ix.Marketplace().Listing(ctx, 1); err != nil || !ok || l.Installs != 1 || l.Name != "CI two" {
			t.Fatalf("listing 1 after its repository 2 was deleted: %+v %v %v, want 1 install", l, ok, err)
		}
		if l, ok, err := ix.Marketplace().Listing(ctx, 2); err != nil || !ok || !l.Deleted || l.Installs != 1 {
			t.Fatalf("deleted listing 2: %+v %v %v", l, ok, err)
		}
		// Organizations: one kept with a team, a member and a repository,
		// one deleted, whose name a second one takes.
		act(alice, "org.create", map[string]any{"name": "acme", "fullName": "Acme"})
		act(alice, "team.create", map[string]any{"org": 1, "name": "devs", "permission": "write", "units": []string{"repo.code"}})
		act(alice, "team.member.add", map[string]any{"team": 2, "user": carol})
		act(alice, "repo.create", map[string]any{"name": "tool", "org": 1})
		act(alice, "team.repo.add", map[string]any{"team": 2, "repo": 4})
		act(bob, "org.create", map[string]any{"name": "gone"})
		act(bob, "org.delete", map[string]any{"org": 2})
		act(carol, "org.create", map[string]any{"name": "Gone"})
		// A comment edited and one deleted: the activity follows both.
		act(bob, "issue.comment", map[string]any{"repo": 1, "number": 2, "body": "first words"})
		act(bob, "issue.comment", map[string]any{"repo": 1, "number": 2, "body": "regret"})
		on2, _, err := ix.Comments(ctx, 1, 2, index.Page{Number: 1, Limit: 10})
		if err != nil || len(on2) != 2 {
			t.Fatalf("comments on #2: %+v %v", on2, err)
		}
		act(bob, "comment.edit", map[string]any{"repo": 1, "comment": on2[0].ID, "body": "second words"})
		act(bob, "comment.delete", map[string]any{"repo": 1, "comment": on2[1].ID})
		// The forum: a topic, replies (one quoting), edits kept as
		// revisions, an accepted answer.
		act(carol, "forum.topic.create", map[string]any{"category": "help", "title": "How?", "body": "ask @" + names.Default(alice)})
		act(bob, "forum.post.create", map[string]any{"topic": 1, "body": "like this"})
		act(alice, "forum.post.create", map[string]any{"topic": 1, "body": "> like this\n\nthanks", "quote": 1})
		act(carol, "forum.topic.edit", map[string]any{"topic": 1, "title": "How so?"})
		act(bob, "forum.post.edit", map[string]any{"post": 1, "body": "like that"})
		act(carol, "forum.topic.answer", map[string]any{"topic": 1, "post": 1})
		// An offer left pending: its row and carol's notification.
		act(alice, "repo.transfer", map[string]any{"repo": 1, "newOwner": carol})
		if err := ix.ProjectPrivate(ctx, privateEntries(t, alice)...); err != nil {
			t.Fatal(err)
		}
		checkAgainstChain(t, ch, ix, op.addr)
		stop()
		if err := ch.Close(); err != nil {
			t.Fatal(err)
		}

		// 2. What the projection shows.
		r, err := ix.RepoByName(ctx, alice, "Y")
		if err != nil || r.ID != 1 || r.Stars != 1 || r.Forks != 1 || r.Watchers != 1 || r.OpenIssues != 0 || r.OpenPulls != 0 || r.Description != "renamed" {
			t.Fatalf("repository = %+v %v", r, err)
		}
		if _, err := ix.RepoByID(ctx, 2); err == nil {
			t.Fatal("the deleted repository is still projected")
		}
		if tr, ok, err := ix.RepoTransfer(ctx, 1); err != nil || !ok || !r.PendingTransfer || tr.Recipient.Address != carol.Hex() || tr.Doer.Address != alice.Hex() {
			t.Fatalf("pending transfer of repository 1 = %+v %v %v (repository says %v)", tr, ok, err, r.PendingTransfer)
		}
		if _, ok, err := ix.RepoTransfer(ctx, 2); err != nil || ok {
			t.Fatalf("the accepted transfer of repository 2 is still pending: %v %v", ok, err)
		}
		is, err := ix.Issue(ctx, 1, 1)
		if err != nil || len(is.Labels) != 1 || is.Labels[0].Name != "bug" || is.Comments != 1 || is.State != "closed" {
			t.Fatalf("issue = %+v %v", is, err)
		}
		collabs, _ := ix.Collaborators(ctx, 1)
		if len(collabs) != 1 || collabs[0].User.Address != carol.Hex() || collabs[0].Permission != "maintain" {
			t.Fatalf("collaborators = %+v", collabs)
		}
		org, err := ix.OrgByName(ctx, "ACME")
		if err != nil || org.Repos != 1 || org.FullName != "Acme" {
			t.Fatalf("organization = %+v %v", org, err)
		}
		if owner, ok, err := ix.AddressOf(ctx, "gone"); err != nil || !ok || owner != forge.OrgAddress(3) {
			t.Fatalf("the freed name resolves to %s %v %v, want the second organization", owner.Hex(), ok, err)
		}
		tool, err := ix.RepoByName(ctx, forge.OrgAddress(1), "tool")
		if err != nil || tool.Owner.Username != "acme" {
			t.Fatalf("organization's repository = %+v %v", tool, err)
		}
		if p, err := ix.Permission(ctx, tool, carol); err != nil || p != forge.PermWrite {
			t.Fatalf("carol's permission through the team = %v %v", p, err)
		}
		if p, err := ix.Permission(ctx, tool, alice); err != nil || p != forge.PermOwner {
			t.Fatalf("the owner's permission = %v %v", p, err)
		}
		if p, err := ix.Permission(ctx, tool, bob); err != nil || p != forge.PermRead {
			t.Fatalf("a stranger's permission = %v %v", p, err)
		}
		secret, err := ix.RepoByName(ctx, alice, "secret")
		if err != nil || !secret.Private || secret.ID != forge.PrivateIDBase+1 {
			t.Fatalf("private repository = %+v %v", secret, err)
		}
		topic, err := ix.Forum().TopicByID(ctx, 1)
		if err != nil || topic.Title != "How so?" || topic.Answer != 1 || topic.Replies != 2 || topic.Revisions != 1 {
			t.Fatalf("forum topic = %+v %v", topic, err)
		}
		if revs, _, err := ix.Forum().Revisions(ctx, forge.ForumRevisionPost, 1, index.Page{Number: 1, Limit: 10}); err != nil || len(revs) != 1 || revs[0].Body != "like this" {
			t.Fatalf("post revisions = %+v %v", revs, err)
		}
		checkActivity(t, ix, alice, bob)

		// 3. Rebuilt from the blocks, into a fresh database (with the same
		// private entries) and into the live one.
		hist, err := chain.OpenHistory(dir, quiet)
		if err != nil {
			t.Fatal(err)
		}
		defer hist.Close()
		catchUp(t, live, hist)
		resumed := index.New(quiet, live, hist)
		if err := resumed.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		want := indextest.Dump(t, live)
		rebuilt := openStore(t, freshDatabase(t, name))
		defer rebuilt.Close()
		rix := index.New(quiet, rebuilt, hist)
		if _, err := index.Rebuild(ctx, quiet, rebuilt, hist); err != nil {
			t.Fatal(err)
		}
		if err := rix.ProjectPrivate(ctx, privateEntries(t, alice)...); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "fresh rebuild", indextest.Dump(t, rebuilt), want)
		if _, err := index.Rebuild(ctx, quiet, live, hist); err != nil {
			t.Fatal(err)
		}
		indextest.SameDump(t, "rebuild in place", indextest.Dump(t, live), want)
		checkBackfill(t, live, name)
		// Private entries projected twice are written once.
		if err := rix.ProjectPrivate(ctx, privateEntries(t, alice)...); err != nil {
			t.Fatal(err)
		}
		if seq, _ := rix.PrivateSeq(ctx); seq != 3 {
			t.Fatalf("private seq %d", seq)
		}
	})
}

// A forge action refused in its block is recorded as failed, changes no
// forge row, and still counts in its operator's nonce.
func TestRefusedForgeActionUsesTheNonce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	op := newWallet()
	alice := newWallet().addr
	c := newScriptedChain(t, app.Genesis{Params: testParams, Operators: []common.Address{op.addr}})
	raw := encoded(t, op.sign(t, tx.KindForge, map[string]any{"actor": alice.Hex(), "action": "repo.create", "payload": `{"name":"x"}`}))
	c.add(nil, item{raw: raw, code: tx.CodeNameTaken, log: "taken", events: []abci.Event{event(app.EventNonceUsed, "from", op.addr.Hex())}})
	st := openStore(t, filepath.Join(t.TempDir(), "index.db"))
	defer st.Close()
	ix := index.New(quiet, st, c)
	if err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if a, _ := ix.Account(ctx, op.addr); a.Nonce != 1 {
		t.Fatalf("operator nonce %d, want 1", a.Nonce)
	}
	if got, _, _ := ix.Txs(ctx, index.TxFilter{Type: "Forge"}, index.Page{Number: 1, Limit: 5}); len(got) != 1 || got[0].Code != tx.CodeNameTaken {
		t.Fatalf("transactions = %+v", got)
	}
	if list, total, _ := ix.Repos(ctx, index.RepoFilter{}, index.Page{Number: 1, Limit: 5}); total != 0 || len(list) != 0 {
		t.Fatalf("repositories = %+v", list)
	}
}

// checkActivity checks the activity projection of TestForgeRebuildEqualsLive:
// every verb in the public list, nothing of the deleted repository nor of
// the private one, which its owner alone sees.
func checkActivity(t *testing.T, ix *index.Index, owner, stranger common.Address) {
	t.Helper()
	ctx := context.Background()
	all := index.Page{Number: 1, Limit: 100}
	public, _, err := ix.RecentActivity(ctx, all)
	if err != nil {
		t.Fatal(err)
	}
	verbs := map[string]bool{}
	for _, a := range public {
		verbs[a.Type] = true
		if a.Repo.ID == 2 || a.Repo.Private {
			t.Fatalf("public activity holds %+v", a)
		}
	}
	for _, a := range public {
		if a.Type == "comment" && (a.Content == "regret" || a.Content == "first words") {
			t.Errorf("a deleted or edited comment shows as it was: %+v", a)
		}
	}
	for _, v := range []string{"repo.create", "push", "issue.open", "pr.open", "comment", "review", "pr.merge"} {
		if !verbs[v] {
			t.Errorf("public activity has no %s: %+v", v, public)
		}
	}
	private := func(viewer common.Address) (n int) {
		list, _, err := ix.Activities(ctx, index.ActivityFilter{Viewer: viewer}, all)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range list {
			if a.Repo.Private {
				n++
			}
		}
		return n
	}
	if n := private(owner); n != 3 {
		t.Errorf("the owner sees %d private actions, want 3 (create, issue, comment)", n)
	}
	if n := private(stranger); n != 0 {
		t.Errorf("a stranger sees %d private actions", n)
	}
}

// checkBackfill empties forge_activity and fills it again with migration
// 00028's statements, as a node that had the forge tables before the
// activity table gets it: the same rows as the indexer's, but for the
// creator of a repository, which the migration takes to be its owner.
func checkBackfill(t *testing.T, st *store.Store, dialect string) {
	t.Helper()
	const rows = `SELECT repo_id, verb, k, ord, CASE WHEN verb = 'repo.create' THEN '' ELSE actor END, number, is_pull, title, detail,
		content, height, time_ns FROM forge_activity ORDER BY repo_id, verb, k`
	dump := func() []string {
		t.Helper()
		r, err := st.DB().Query(rows)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var out []string
		for r.Next() {
			v := make([]any, 12)
			ptrs := make([]any, len(v))
			for i := range v {
				ptrs[i] = &v[i]
			}
			if err := r.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(v...))
		}
		return out
	}
	want := dump()
	if len(want) == 0 {
		t.Fatal("no activity to compare")
	}
	migrations, err := store.Migrations(store.Dialect(dialect))
	if err != nil {
		t.Fatal(err)
	}
	sqlText, err := fs.ReadFile(migrations, "00028_activity.sql")
	if err != nil {
		t.Fatal(err)
	}
	up := strings.Split(string(sqlText), "-- +goose Down")[0]
	if _, err := st.DB().Exec(`DELETE FROM forge_activity`); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range strings.Split(up, ";\n") {
		if i := strings.Index(stmt, "INSERT INTO"); i >= 0 {
			if _, err := st.DB().Exec(stmt[i:]); err != nil {
				t.Fatalf("backfill: %v\n%s", err, stmt[i:])
			}
		}
	}
	if got := dump(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("backfilled activity:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
