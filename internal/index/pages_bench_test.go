package index_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dforge/dforge/internal/index"
)

// BenchmarkIssuePages is `make bench-pages`: page 1 against page 150 of a
// 10,000-issue repository's open issues (50 a page; 7,500 are open, so
// page 150 is the last full one), skipping the rows before the page with
// OFFSET and counting the total (as the list first did), seeking and
// counting (readdb.SeekPage, as it did next), and as it does now (a seek,
// the total from forge_issue_counts), in the same run. Each read follows a
// write to the issues, as on a busy chain: neither the page nor the total
// comes from the read cache.
func BenchmarkIssuePages(b *testing.B) {
	ctx := context.Background()
	ix := seededIndex(b, 10000)
	for _, sort := range []string{"newest", "recentupdate"} {
		for _, mode := range []string{index.PageOffset, index.PageSeekCounting, index.PageSeek} {
			for _, number := range []int{1, 150} {
				f := index.IssueFilter{State: "open", Sort: sort}
				p := index.Page{Number: number, Limit: 50}
				b.Run(fmt.Sprintf("%s/%s/page-%d", sort, mode, number), func(b *testing.B) {
					for b.Loop() {
						index.Changed(ix, "forge_issues")
						list, _, err := index.IssuesAt(ctx, ix, 1, f, p, mode)
						if err != nil || len(list) != 50 {
							b.Fatalf("read %d issues: %v", len(list), err)
						}
					}
				})
			}
		}
	}
}
