package index_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/index/forum"
)

// The forum's topic lists (latest activity first) and a topic's replies
// page by a seek (readdb.SeekPage): pages read in turn give the whole list
// in its order, with its total on every page.
func TestForumPagesSeekThroughTheLists(t *testing.T) {
	t.Parallel()
	eachDatabase(t, func(t *testing.T, _, dsn string) {
		ctx := context.Background()
		alice, bob := newWallet().addr, newWallet().addr
		ix, act := actingIndex(t, dsn)
		for i := 1; i <= 9; i++ {
			category := "help"
			if i%3 == 0 {
				category = "general"
			}
			act(alice, "forum.topic.create", map[string]any{"category": category, "title": fmt.Sprintf("topic %d", i), "body": "b"})
		}
		// Replies move topics up the list; topic 3 gets a long thread.
		for _, topic := range []int{2, 5, 7, 2} {
			act(bob, "forum.post.create", map[string]any{"topic": topic, "body": "bump"})
		}
		for i := range 11 {
			act(bob, "forum.post.create", map[string]any{"topic": 3, "body": fmt.Sprintf("reply %d", i)})
		}

		for _, f := range []forum.Filter{{}, {Category: "help"}, {Category: "general"}} {
			all, total, err := ix.Forum().Topics(ctx, f, index.Page{Number: 1, Limit: 100})
			if err != nil || int64(len(all)) != total || total == 0 {
				t.Fatalf("%+v: the whole list: %d of %d, %v", f, len(all), total, err)
			}
			var want, got []uint64
			for _, tp := range all {
				want = append(want, tp.ID)
			}
			for page := 1; page <= 6; page++ {
				list, n, err := ix.Forum().Topics(ctx, f, index.Page{Number: page, Limit: 2})
				if err != nil || n != total {
					t.Fatalf("%+v page %d: total %d, want %d, %v", f, page, n, total, err)
				}
				for _, tp := range list {
					got = append(got, tp.ID)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%+v: the pages in turn %v, want %v", f, got, want)
			}
			if f.Category == "" && fmt.Sprint(want[:4]) != "[3 2 7 5]" {
				t.Fatalf("the list's head %v, want the topics replied to last first: [3 2 7 5]", want[:4])
			}
		}

		// The categories' counts, from the counters, as the lists count.
		cats, err := ix.Forum().Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		counted := map[string]int64{}
		for _, c := range cats {
			counted[c.Name] = c.Topics
		}
		if counted["help"] != 6 || counted["general"] != 3 {
			t.Fatalf("the categories' counts %v, want help 6 and general 3", counted)
		}

		all, total, err := ix.Forum().Posts(ctx, 3, index.Page{Number: 1, Limit: 100})
		if err != nil || total != 11 || len(all) != 11 {
			t.Fatalf("topic 3's replies: %d of %d, %v", len(all), total, err)
		}
		var got []string
		for page := 1; page <= 4; page++ {
			list, n, err := ix.Forum().Posts(ctx, 3, index.Page{Number: page, Limit: 4})
			if err != nil || n != 11 {
				t.Fatalf("replies page %d: total %d, %v", page, n, err)
			}
			for _, p := range list {
				got = append(got, p.Body)
			}
		}
		var want []string
		for i := range 11 {
			want = append(want, fmt.Sprintf("reply %d", i))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("the replies' pages in turn %v, want %v", got, want)
		}
	})
}
