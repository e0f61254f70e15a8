package index

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
	"github.com/dforge/dforge/internal/store"
)

// BenchmarkActivity reads pages of the activity projection holding
// 200,000 actions by 1,000 accounts in 1,000 repositories: Home's public
// first page and its page 50, and the first page and page 50 of the feed
// of an account that follows 50 of them and stars 20 repositories. Each
// page 50 is also read after page 49 is kept (from right after its last
// action). The read cache is moved on before each timed read, so each is
// the SQL query. Run it with
//
//	go test ./internal/index -run '^$' -bench BenchmarkActivity -benchtime 50x
//
// (under scripts/with-postgres.sh for PostgreSQL too).
func BenchmarkActivity(b *testing.B) {
	onEachBenchStore(b, benchActivity)
}

func benchActivity(b *testing.B, name string, st *store.Store) {
	ctx := context.Background()
	ix := quietIndex(st)
	viewer := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	if err := fillActivity(ctx, st.DB(), viewer, 1000, 200000); err != nil {
		b.Fatal(err)
	}
	feed := ActivityFilter{Viewer: viewer, FeedOf: &viewer}
	for _, c := range []struct {
		name   string
		f      ActivityFilter
		page   int
		before bool // the page before is kept (feedPage reads after it)
	}{
		{"home", ActivityFilter{}, 1, false},
		{"home-page-50", ActivityFilter{}, 50, false},
		{"home-page-50-after-49", ActivityFilter{}, 50, true},
		{"feed", feed, 1, false},
		{"feed-page-50", feed, 50, false},
		{"feed-page-50-after-49", feed, 50, true},
	} {
		b.Run(name+"/"+c.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				ix.changed("forge_activity") // past the read cache: every read is the query
				if c.before {
					if _, _, err := ix.Activities(ctx, c.f, Page{Number: c.page - 1, Limit: 20}); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				list, _, err := ix.Activities(ctx, c.f, Page{Number: c.page, Limit: 20})
				if err != nil || len(list) != 20 {
					b.Fatalf("page %d: %d items, %v", c.page, len(list), err)
				}
			}
		})
	}
}

// fillActivity writes repos repositories through the projection, then
// actions spread over them and 997 accounts (the bench: 1,000 and
// 200,000, 200 in each), and the viewer's follows of 50 accounts and
// stars of 20 repositories.
func fillActivity(ctx context.Context, db *sql.DB, viewer common.Address, repos, actions int) error {
	var changes []forgeChange
	for i := uint64(1); i <= uint64(repos); i++ {
		owner := common.BigToAddress(new(big.Int).SetUint64(i))
		changes = append(changes, forgeChange{height: 1, timeNS: 1, change: forge.Change{Action: "repo.create", Actor: owner, Height: 1,
			Repos: []forge.Repo{{ID: i, Owner: owner, Name: fmt.Sprintf("r%d", i), DefaultBranch: "main", CreatedHeight: 1}}}})
	}
	if err := inTx(ctx, db, func(tx *readdb.WriteTx) error { return writeForge(ctx, tx, changes) }); err != nil {
		return fmt.Errorf("write repositories: %w", err)
	}
	stmts := []string{
		`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ` + strconv.Itoa(actions) + `)
		INSERT INTO forge_activity (repo_id, verb, k, ord, actor, number, is_pull, title, detail, content, height, time_ns)
		SELECT i % ` + strconv.Itoa(repos) + ` + 1, 'comment', i, 3, 'actor' || (i % 997), 1, FALSE, 'A title', '', 'Some words', i / 10 + 2, i * 1000 + 2000
		FROM s`,
		`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 50)
		INSERT INTO forge_follows (follower, followed, height, time_ns) SELECT '` + viewer.Hex() + `', 'actor' || (i * 19), 1, 1 FROM s`,
		`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 20)
		INSERT INTO forge_stars (repo_id, user_address, height, time_ns) SELECT i * ` + strconv.Itoa(repos/20) + `, '` + viewer.Hex() + `', 1, 1 FROM s`,
	}
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("fill: %w", err)
		}
	}
	return nil
}
