package index_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
)

// The activity counters (migrations 00087 and 00089) hold each
// repository's and each account's count of actions through inserts, a conflicting insert that adds nothing, a
// deleted comment's row and a deleted repository; the totals the lists
// read from them match COUNT(*) for the public list, a viewer who may read
// a private repository, one repository's feed, and followed feeds.
func TestActivityCountersFollowEveryWrite(t *testing.T) {
	eachDatabase(t, func(t *testing.T, name, dsn string) {
		ctx := context.Background()
		st := openStore(t, dsn)
		defer st.Close()
		ix := index.New(quiet, st, nil)
		exec := writer(t, st, ix, "forge_activity")
		addRepos(exec, map[int64]bool{1: false, 2: false, 3: true})
		// A fan follows unnamed and stars repository 2; named watches
		// repository 3: their feeds pick by actor and by repository.
		fan := common.HexToAddress("0xfa0")
		exec(`INSERT INTO forge_follows (follower, followed, height, time_ns) VALUES ($1, $2, 1, 1)`, fan.Hex(), unnamed.Hex())
		exec(`INSERT INTO forge_stars (repo_id, user_address, height, time_ns) VALUES (2, $1, 1, 1)`, fan.Hex())
		exec(`INSERT INTO forge_watches (repo_id, user_address, height, time_ns) VALUES (3, $1, 1, 1)`, named.Hex())
		k := int64(0)
		act := func(repo int64, verb string, actor common.Address) {
			t.Helper()
			k++
			exec(`INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns)
				VALUES ($1, $2, $3, 1, $4, 0, FALSE, '', '', '', 1, $3) ON CONFLICT (repo_id, verb, k) DO NOTHING`, repo, verb, k, actor.Hex())
		}
		for i := range 12 {
			act(1, "comment", []common.Address{named, unnamed}[i%2])
		}
		for range 4 {
			act(2, "push", named)
			act(3, "push", unnamed)
		}
		act(2, "comment", unnamed) // followed by the fan, in a repository the fan stars: counted once
		count := func(where string) int64 {
			t.Helper()
			var n int64
			if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM forge_activity a JOIN forge_repos r ON r.id = a.repo_id WHERE `+where).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		check := func(step string) {
			t.Helper()
			if got, want := counters(t, st, "SELECT repo_id, actor, actions FROM forge_activity_counts ORDER BY repo_id, actor"),
				counters(t, st, "SELECT repo_id, actor, COUNT(*) FROM forge_activity GROUP BY repo_id, actor ORDER BY repo_id, actor"); !slices.Equal(got, want) {
				t.Fatalf("%s: counters %v, want the rows' counts %v", step, got, want)
			}
			if got, want := counters(t, st, "SELECT repo_id, '', actions FROM forge_activity_repo_counts ORDER BY repo_id"),
				counters(t, st, "SELECT repo_id, '', COUNT(*) FROM forge_activity GROUP BY repo_id ORDER BY repo_id"); !slices.Equal(got, want) {
				t.Fatalf("%s: repository counters %v, want the rows' counts %v", step, got, want)
			}
			p := index.Page{Number: 2, Limit: 3} // a full page past the first: its total is not the page's
			for _, c := range []struct {
				what  string
				f     index.ActivityFilter
				where string
			}{
				{"the public list", index.ActivityFilter{}, "r.private = FALSE"},
				{"the owner's list", index.ActivityFilter{Viewer: named}, "TRUE"},
				{"a stranger's list", index.ActivityFilter{Viewer: common.HexToAddress("0x1234")}, "r.private = FALSE"},
				{"repository 1's feed", index.ActivityFilter{Repo: 1}, "r.id = 1"},
				{"private repository 3's feed, to a stranger", index.ActivityFilter{Repo: 3}, "r.id = 3 AND r.private = FALSE"},
				{"an account's actions, to a stranger", index.ActivityFilter{Actor: &unnamed}, "a.actor = '" + unnamed.Hex() + "' AND r.private = FALSE"},
				{"an account's actions, to the owner", index.ActivityFilter{Viewer: named, Actor: &unnamed}, "a.actor = '" + unnamed.Hex() + "'"},
				{"an account's actions in one repository", index.ActivityFilter{Actor: &named, Repo: 1}, "a.actor = '" + named.Hex() + "' AND r.id = 1"},
				{"a fan's feed", index.ActivityFilter{Viewer: fan, FeedOf: &fan}, "(a.actor = '" + unnamed.Hex() + "' OR a.repo_id = 2) AND r.private = FALSE"},
				{"the owner's feed", index.ActivityFilter{Viewer: named, FeedOf: &named}, "(a.actor = '" + named.Hex() + "' OR a.repo_id = 3)"},
				{"the owner's feed in one repository", index.ActivityFilter{Viewer: named, FeedOf: &named, Repo: 3}, "r.id = 3"},
			} {
				if _, total, err := ix.Activities(ctx, c.f, p); err != nil || total != count(c.where) {
					t.Errorf("%s: %s's total is %d, COUNT(*) says %d (%v)", step, c.what, total, count(c.where), err)
				}
			}
		}
		check("written")
		k = 1
		act(1, "comment", unnamed) // already there (as named's): adds no row
		check("a conflicting insert")
		exec(`DELETE FROM forge_activity WHERE repo_id = 1 AND verb = 'comment' AND k = 5`)
		check("a comment deleted")
		exec(`DELETE FROM forge_activity WHERE repo_id = $1`, 2)
		exec(`DELETE FROM forge_activity WHERE repo_id = 1 AND actor = $1`, unnamed.Hex())
		check("repository 2 and an account's actions in repository 1 deleted")
		if got := counters(t, st, "SELECT repo_id, actor, actions FROM forge_activity_counts WHERE repo_id = 2 OR (repo_id = 1 AND actor = '"+unnamed.Hex()+"')"); len(got) != 0 {
			t.Errorf("a deleted repository keeps counters %v; a fresh projection would hold none", got)
		}
		if got := counters(t, st, "SELECT repo_id, '', actions FROM forge_activity_repo_counts WHERE repo_id = 2"); len(got) != 0 {
			t.Errorf("a deleted repository keeps its counter %v; a fresh projection would hold none", got)
		}
		// The totals are the counters' (no COUNT(*) over the actions): a
		// counter moved by hand moves the total. The lists by repository
		// read one counter per repository; those by account, per account.
		exec(`UPDATE forge_activity_repo_counts SET actions = 1000 WHERE repo_id = 1`)
		exec(`UPDATE forge_activity_counts SET actions = 2000 WHERE repo_id = 1`) // named's only, now
		for _, c := range []struct {
			what string
			f    index.ActivityFilter
			want int64
		}{
			{"repository 1's feed", index.ActivityFilter{Repo: 1}, 1000},
			{"the public list", index.ActivityFilter{}, 1000},
			{"the owner's list", index.ActivityFilter{Viewer: named}, 1000 + 4},
			{"the owner's actions", index.ActivityFilter{Actor: &named}, 2000},
			{"the owner's feed", index.ActivityFilter{Viewer: named, FeedOf: &named}, 2000 + 4},
		} {
			if _, total, err := ix.Activities(ctx, c.f, index.Page{Number: 1, Limit: 2}); err != nil || total != c.want {
				t.Errorf("%s: total %d (%v), not its counters' %d", c.what, total, err, c.want)
			}
		}
	})
}

// addRepos writes a repository of named's for each id, private or not,
// straight into the projection.
func addRepos(exec func(q string, args ...any), private map[int64]bool) {
	for id, priv := range private {
		exec(`INSERT INTO forge_repos (id, owner, name, lower_name, description, default_branch, protected_branches, private,
			fork_of, stars, forks, watchers, open_issues, open_pulls, created_height, created_time_ns, updated_height, updated_time_ns)
			VALUES ($1, $2, $3, $3, '', 'main', '[]', $4, NULL, 0, 0, 0, 0, 0, 1, 1, 1, 1)`, id, named.Hex(), fmt.Sprintf("r%d", id), priv)
	}
}
