package markdown

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRenderStoredIsRenderCached(t *testing.T) {
	t.Parallel()
	r := New()
	src := []byte("# Title\n\nSome *text* with a [link](https://example.com).\n")
	want, err := r.Render(src)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		got, err := r.RenderStored(src)
		if err != nil || got != want {
			t.Fatalf("RenderStored = %q, %v; want Render's %q", got, err, want)
		}
	}
	if n, _ := r.cache.size(); n != 1 {
		t.Errorf("cache holds %d entries after one body read thrice, want 1", n)
	}
}

func TestCacheRendersOnce(t *testing.T) {
	t.Parallel()
	c := newCache(16, 1<<20)
	var renders atomic.Int32
	render := func() (string, error) {
		renders.Add(1)
		time.Sleep(20 * time.Millisecond) // let the other readers arrive
		return "<p>x</p>", nil
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if got, err := c.get([]byte("x"), render); err != nil || got != "<p>x</p>" {
				t.Errorf("get = %q, %v", got, err)
			}
		})
	}
	wg.Wait()
	if got, _ := c.get([]byte("x"), render); got != "<p>x</p>" {
		t.Errorf("cached get = %q", got)
	}
	if n := renders.Load(); n != 1 {
		t.Errorf("20 concurrent reads and one later read of one body rendered it %d times, want 1", n)
	}
}

func TestCacheIsBounded(t *testing.T) {
	t.Parallel()
	c := newCache(8, 8*(100+entryBytes))
	html := strings.Repeat("h", 100)
	get := func(i int) {
		c.get(fmt.Appendf(nil, "body %d", i), func() (string, error) { return html, nil })
	}
	for i := range 100 {
		get(i)
		if n, b := c.size(); n > 8 || b > 8*(100+entryBytes) {
			t.Fatalf("after %d bodies the cache holds %d entries, %d bytes; bounds are 8 and %d", i+1, n, b, 8*(100+entryBytes))
		}
	}
	// The most recently used stay; a body read again is not rendered again.
	get(92)
	get(100)
	rendered := false
	c.get([]byte("body 92"), func() (string, error) { rendered = true; return html, nil })
	if rendered {
		t.Error("a recently read body was evicted")
	}

	// The byte bound holds with fewer, larger entries, and one body too
	// large to share the cache is not kept.
	c = newCache(1000, 4000)
	for i := range 50 {
		c.get(fmt.Appendf(nil, "big %d", i), func() (string, error) { return strings.Repeat("h", 300), nil })
	}
	if _, b := c.size(); b > 4000 {
		t.Errorf("cache holds %d bytes, bound 4000", b)
	}
	c.get([]byte("huge"), func() (string, error) { return strings.Repeat("h", 4000), nil })
	if _, b := c.size(); b > 4000 {
		t.Errorf("cache holds %d bytes after a huge body, bound 4000", b)
	}
}

func TestCacheKeepsNoErrors(t *testing.T) {
	t.Parallel()
	c := newCache(8, 1<<20)
	fail := func() (string, error) { return "", fmt.Errorf("boom") }
	if _, err := c.get([]byte("x"), fail); err == nil {
		t.Fatal("get passed no error on")
	}
	if n, _ := c.size(); n != 0 {
		t.Errorf("a failed render was cached")
	}
}
