package index_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/app"
	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index"
)

// TestRecentActivityAndTopContributors reads the node-wide feed and the
// contributor ranking on each database: public actions newest first, a
// private repository's never, and contributions counted per kind.
func TestRecentActivityAndTopContributors(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		op := newWallet()
		alice, bob := newWallet().addr, newWallet().addr
		ch := openChain(t, t.TempDir(), app.Genesis{Params: testParams, Operators: []common.Address{op.addr}})
		defer ch.Close()
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, ch.Client())
		stop := follow(t, ix)
		defer stop()
		act := func(actor common.Address, action string, payload map[string]any) {
			t.Helper()
			forgeAct(t, op, ch, ix, actor, action, payload)
		}
		act(alice, "repo.create", map[string]any{"name": "mill"})
		act(alice, "repo.collaborator.set", map[string]any{"repo": 1, "user": bob, "permission": "maintain"})
		act(bob, "issue.create", map[string]any{"repo": 1, "title": "Crash"})
		act(alice, "issue.comment", map[string]any{"repo": 1, "number": 1, "body": "on it"})
		act(alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/main", "old": forge.ZeroSHA, "new": sha1})
		act(alice, "repo.push", map[string]any{"repo": 1, "ref": "refs/heads/fix", "old": forge.ZeroSHA, "new": sha2})
		act(alice, "pr.create", map[string]any{"repo": 1, "title": "Fix", "headBranch": "fix", "headSha": sha2, "baseSha": sha1})
		act(bob, "pr.review", map[string]any{"repo": 1, "number": 2, "state": "approve", "commitSha": sha2})
		act(bob, "pr.merge", map[string]any{"repo": 1, "number": 2, "style": "merge", "mergeSha": sha3})
		// Alice's private repository, issue and comment.
		if err := ix.ProjectPrivate(ctx, privateEntries(t, alice)...); err != nil {
			t.Fatal(err)
		}

		list, total, err := ix.RecentActivity(ctx, index.Page{Number: 1, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range list {
			got = append(got, fmt.Sprintf("%s %s #%d %s%s", a.Type, a.Actor.Address, a.Number, a.State, a.Ref))
		}
		want := []string{
			fmt.Sprintf("pr.merge %s #2 ", bob.Hex()),
			fmt.Sprintf("review %s #2 approve", bob.Hex()),
			fmt.Sprintf("pr.open %s #2 ", alice.Hex()),
			fmt.Sprintf("push %s #0 refs/heads/fix", alice.Hex()),
			fmt.Sprintf("push %s #0 refs/heads/main", alice.Hex()),
			fmt.Sprintf("comment %s #1 ", alice.Hex()),
			fmt.Sprintf("issue.open %s #1 ", bob.Hex()),
			fmt.Sprintf("repo.create %s #0 ", alice.Hex()),
		}
		if total != int64(len(want)) || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("activity (total %d):\n%s\nwant:\n%s", total, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if list[0].Title != "Fix" || list[0].Repo.Name != "mill" || list[0].Repo.ID != 1 || list[0].Time == "" {
			t.Fatalf("merge item %+v", list[0])
		}
		// Pages of three, the deep ones by a seek, give the same list in turn.
		var paged []string
		for n := 1; n <= 4; n++ {
			page, total, err := ix.RecentActivity(ctx, index.Page{Number: n, Limit: 3})
			if err != nil || total != 8 || len(page) != min(3, max(0, 8-(n-1)*3)) {
				t.Fatalf("page %d: %+v %d %v", n, page, total, err)
			}
			for _, a := range page {
				paged = append(paged, fmt.Sprintf("%s %s #%d %s%s", a.Type, a.Actor.Address, a.Number, a.State, a.Ref))
			}
		}
		if strings.Join(paged, "\n") != strings.Join(want, "\n") {
			t.Fatalf("the pages in turn:\n%s\nwant:\n%s", strings.Join(paged, "\n"), strings.Join(want, "\n"))
		}

		top, err := ix.TopContributors(ctx, 30*24*time.Hour, 5)
		if err != nil {
			t.Fatal(err)
		}
		wantTop := []index.Contributor{
			{Address: alice.Hex(), Total: 5, Pushes: 2, PullsOpened: 1, PullsMerged: 1, Comments: 1},
			{Address: bob.Hex(), Total: 2, Reviews: 1, IssuesOpened: 1},
		}
		for i := range top {
			top[i].Username = ""
		}
		if fmt.Sprint(top) != fmt.Sprint(wantTop) {
			t.Fatalf("top contributors %+v, want %+v", top, wantTop)
		}
		if top, err := ix.TopContributors(ctx, 30*24*time.Hour, 1); err != nil || len(top) != 1 || top[0].Address != alice.Hex() {
			t.Fatalf("the top one: %+v %v", top, err)
		}
	})
}
