package index

import (
	"context"
	"fmt"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/index/readdb"
	"github.com/dforge/dforge/internal/store"
)

// BenchmarkIssueWrites is `make bench-issue-writes`: the projection's
// write of a block of 8 new issues and 8 closed ones in a repository that
// already has 10,000, with forge_issue_counts' triggers (as the node runs)
// and with them dropped, the two stores written in turn so that both see
// the same load. It answers whether the counters cost the writes.
func BenchmarkIssueWrites(b *testing.B) {
	ctx := context.Background()
	with, without := issueWriteStore(b, "with"), issueWriteStore(b, "without")
	for _, trigger := range []string{"forge_issues_count_insert", "forge_issues_count_delete", "forge_issues_count_update"} {
		if _, err := without.db.ExecContext(ctx, "DROP TRIGGER "+trigger); err != nil {
			b.Fatal(err)
		}
	}
	var took [2]time.Duration
	next := uint64(10_001)
	ixs := []*Index{with, without}
	for b.Loop() {
		block := issueBlock(next)
		next += 8
		// Each goes first in every other block.
		for k := range 2 {
			i := (k + int(next/8)) % 2
			start := time.Now()
			if err := ixs[i].writeBlock(ctx, block); err != nil {
				b.Fatal(err)
			}
			took[i] += time.Since(start)
		}
	}
	b.ReportMetric(float64(took[0].Microseconds())/float64(b.N)/1000, "ms/block-counted")
	b.ReportMetric(float64(took[1].Microseconds())/float64(b.N)/1000, "ms/block-uncounted")
}

// writeBlock writes changes in one transaction as the projection does: its
// statements prepared on the writer's connection (readdb.DB.WriteTx).
func (ix *Index) writeBlock(ctx context.Context, changes []forgeChange) error {
	raw, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	tx := ix.rd.WriteTx(raw)
	defer tx.Rollback()
	if err := writeForge(ctx, tx, changes); err != nil {
		return err
	}
	return tx.Commit()
}

// issueWriteStore is an index whose repository 1 has 10,000 issues,
// written through the projection.
func issueWriteStore(b *testing.B, name string) *Index {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), name+".db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	owner := common.BigToAddress(big.NewInt(1))
	repo := forgeChange{height: 1, timeNS: 1, change: forge.Change{Action: "repo.create", Actor: owner, Height: 1,
		Repos: []forge.Repo{{ID: 1, Owner: owner, Name: "r", DefaultBranch: "main", CreatedHeight: 1}}}}
	if err := inTx(ctx, st.DB(), func(tx *readdb.WriteTx) error { return writeForge(ctx, tx, []forgeChange{repo}) }); err != nil {
		b.Fatal(err)
	}
	for first := uint64(1); first <= 10_000; first += 1000 {
		var changes []forgeChange
		for n := first; n < first+1000; n++ {
			changes = append(changes, newIssue(n))
		}
		if err := inTx(ctx, st.DB(), func(tx *readdb.WriteTx) error { return writeForge(ctx, tx, changes) }); err != nil {
			b.Fatal(err)
		}
	}
	return quietIndex(st)
}

// issueBlock is a block's changes: issues first to first+7 opened, and
// eight older ones closed.
func issueBlock(first uint64) []forgeChange {
	var out []forgeChange
	for n := first; n < first+8; n++ {
		out = append(out, newIssue(n))
		closed := newIssue(n - 10_000 + 1)
		closed.change.Action = "issue.close"
		closed.change.Issue.State, closed.change.Issue.ClosedHeight = "closed", n
		out = append(out, closed)
	}
	return out
}

func newIssue(n uint64) forgeChange {
	author := common.BigToAddress(new(big.Int).SetUint64(n%50 + 2))
	return forgeChange{height: int64(n), timeNS: int64(n) * 1000, change: forge.Change{Action: "issue.create", Actor: author, Height: n,
		Issue: &forge.Issue{Repo: 1, Number: n, Author: author, Title: fmt.Sprintf("Issue %d", n), Body: "Some words.", State: "open",
			Labels: []uint64{}, Assignees: []common.Address{}, CreatedHeight: n, UpdatedHeight: n}}}
}
