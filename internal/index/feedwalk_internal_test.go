package index

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/store"
)

// TestAFeedReadDownTheTimeIndexGivesTheSamePages: a dense feed's first
// pages are read by walking every action newest first (feedFrom), its
// deep ones through the actor and repository indexes; either way every
// page is the one the indexes give, in the same order, with the same
// total, and the list's last page and the page past it are right.
func TestAFeedReadDownTheTimeIndexGivesTheSamePages(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "feed.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix := quietIndex(st)
	viewer := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	if err := fillActivity(ctx, st.DB(), viewer, 100, 20000); err != nil {
		t.Fatal(err)
	}
	f := ActivityFilter{Viewer: viewer, FeedOf: &viewer}
	_, matches, err := ix.Activities(ctx, f, Page{Number: 1, Limit: 50})
	if err != nil || matches != 4822 {
		t.Fatalf("the feed's total: %d (%v)", matches, err)
	}
	walked := 0
	last := int((matches + 49) / 50)
	pages := []int{1, 5, last / 2, last - 1, last, last + 1}
	for _, n := range pages {
		p := Page{Number: n, Limit: 50}
		from, err := ix.feedFrom(ctx, matches, p, false)
		if err != nil {
			t.Fatal(err)
		}
		if from == activityFromByTime {
			walked++
		}
		ix.changed("forge_activity") // past the read cache
		got, total, err := ix.Activities(ctx, f, p)
		if err != nil || total != matches {
			t.Fatalf("page %d: total %d (%v)", n, total, err)
		}
		want := feedByIndexes(t, st, f, p)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("page %d read from %q: %d actions, the indexes give %d; first %+v against %+v", n, from, len(got), len(want), first(got), first(want))
		}
	}
	if walked == 0 || walked == len(pages) {
		t.Fatalf("%d of %d pages walked the time index; the dense feed's first pages should, its deep ones should not", walked, len(pages))
	}

	// Page after page, each page starts right after the last action of
	// the page before, which is kept: it walks the time index from there
	// however deep it is, and is still the page the indexes give (held to
	// OFFSET's pages at the start, every tenth and at the end; every page
	// adds actions not seen before, as many as the total).
	var args sqlArgs
	where := f.where(&args)
	ix.changed("forge_activity")
	walked = 0
	seen := map[int64]bool{}
	for n := 1; n <= last+1; n++ {
		p := Page{Number: n, Limit: 50}
		keyed := ix.activityAfter(ctx, where, args, p) != nil
		if keyed != (n > 1 && n <= last) {
			t.Fatalf("page %d: read after the page before: %t", n, keyed)
		}
		from, err := ix.feedFrom(ctx, matches, p, keyed)
		if err != nil {
			t.Fatal(err)
		}
		if from == activityFromByTime {
			walked++
		}
		got, total, err := ix.Activities(ctx, f, p)
		if err != nil || total != matches {
			t.Fatalf("page %d: total %d (%v)", n, total, err)
		}
		unseen(t, seen, got, fmt.Sprintf("page %d", n))
		if n > 3 && n%10 != 0 && n < last-1 {
			continue
		}
		if want := feedByIndexes(t, st, f, p); !reflect.DeepEqual(got, want) {
			t.Fatalf("page %d after page %d: %d actions, the indexes give %d; first %+v against %+v", n, n-1, len(got), len(want), first(got), first(want))
		}
	}
	if int64(len(seen)) != matches {
		t.Fatalf("the pages held %d actions of %d", len(seen), matches)
	}
	if walked < last-2 {
		t.Fatalf("%d of %d pages read page after page walked the time index; all but the last few should", walked, last+1)
	}

	// Home's list, page after page, seeks from the page before's last
	// action (readdb.PageAfter) and gives OFFSET's pages too.
	home := ActivityFilter{}
	var homeArgs sqlArgs
	homeWhere := home.where(&homeArgs)
	seen = map[int64]bool{}
	for n := 1; ; n++ {
		p := Page{Number: n, Limit: 500}
		if keyed := ix.activityAfter(ctx, homeWhere, homeArgs, p) != nil; keyed != (n > 1) {
			t.Fatalf("Home's page %d: read after the page before: %t", n, keyed)
		}
		got, total, err := ix.Activities(ctx, home, p)
		if err != nil || total != 20100 { // the actions and the repositories' creations
			t.Fatalf("Home's page %d: total %d (%v)", n, total, err)
		}
		unseen(t, seen, got, fmt.Sprintf("Home's page %d", n))
		if n <= 3 || n%10 == 0 || len(got) < p.Limit {
			if want := feedByIndexes(t, st, home, p); !reflect.DeepEqual(got, want) {
				t.Fatalf("Home's page %d after page %d: %d actions, OFFSET gives %d; first %+v against %+v", n, n-1, len(got), len(want), first(got), first(want))
			}
		}
		if len(got) < p.Limit {
			break
		}
	}
	if len(seen) != 20100 {
		t.Fatalf("Home's pages held %d actions of 20,100", len(seen))
	}
}

// unseen adds a page's actions to seen, and fails on one already there: a
// page read after the page before repeats none of it.
func unseen(t *testing.T, seen map[int64]bool, page []Activity, what string) {
	t.Helper()
	for _, a := range page {
		if seen[a.ID] {
			t.Fatalf("%s repeats action %d", what, a.ID)
		}
		seen[a.ID] = true
	}
}

// feedByIndexes is page p of f read through activityFrom by OFFSET, as
// every feed was before feedFrom.
func feedByIndexes(t *testing.T, st *store.Store, f ActivityFilter, p Page) []Activity {
	t.Helper()
	var args sqlArgs
	where := f.where(&args)
	n := len(args)
	q := fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s LIMIT $%d OFFSET $%d", activityColumns, activityFrom, where, activityOrder.SQL(), n+1, n+2)
	rows, err := st.DB().QueryContext(context.Background(), q, append(args, p.Limit, p.Offset())...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := []Activity{}
	for rows.Next() {
		a, err := scanActivity(rows)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

func first(list []Activity) any {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}
