package gitstore

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func TestLRUStaysWithinItsBound(t *testing.T) {
	c := newLRU(10_000)
	for i := range 1000 {
		c.add(fmt.Sprint("k", i), i, 100)
		if _, size := c.stats(); size > 10_000 {
			t.Fatalf("after %d adds the cache holds %d bytes", i+1, size)
		}
	}
	n, _ := c.stats()
	if n == 0 || n > 100 {
		t.Fatalf("%d entries", n)
	}
	// The most recent are kept; the oldest went first.
	if _, ok := c.get("k999"); !ok {
		t.Fatal("the newest entry was evicted")
	}
	if _, ok := c.get("k0"); ok {
		t.Fatal("the oldest entry was kept")
	}
	// A read makes an entry recent again (entries cost 100 bytes and
	// their keys and overhead: nine fit).
	c.reset(1500)
	c.add("a", 1, 100)
	c.add("b", 2, 100)
	c.get("a")
	for i := range 8 {
		c.add(fmt.Sprint("x", i), i, 100)
	}
	if _, ok := c.get("a"); !ok {
		t.Fatal("a recently read entry was evicted before older ones")
	}
	if _, ok := c.get("b"); ok {
		t.Fatal("the least recently used entry was kept")
	}
	// An entry over an eighth of the bound is not kept at all.
	c.add("huge", 0, 200)
	if _, ok := c.get("huge"); ok {
		t.Fatal("an oversized entry was kept")
	}
	// Replacing an entry keeps the accounting right.
	c.reset(1000)
	c.add("a", 1, 50)
	c.add("a", 2, 60)
	if v, _ := c.get("a"); v != 2 {
		t.Fatalf("replaced entry: %v", v)
	}
	if n, size := c.stats(); n != 1 || size != 60+int64(len("a"))+64 {
		t.Fatalf("after a replacement: %d entries, %d bytes", n, size)
	}
}

func TestCachedComputesOnceAndKeepsNoErrors(t *testing.T) {
	SetCacheBytes(DefaultCacheBytes)
	t.Cleanup(func() { SetCacheBytes(DefaultCacheBytes) })
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := cached("test\x00once", func() (string, error) {
				calls.Add(1)
				<-release
				return "value", nil
			}, func(s string) int64 { return int64(len(s)) })
			if err != nil || v != "value" {
				t.Errorf("cached: %q %v", v, err)
			}
		}()
	}
	for calls.Load() == 0 {
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("computed %d times", n)
	}
	// An error is returned, not kept: the next call computes again.
	fail := errors.New("boom")
	for i := range 2 {
		if _, err := cached("test\x00err", func() (int, error) { return 0, fail }, func(int) int64 { return 8 }); !errors.Is(err, fail) {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if v, err := cached("test\x00err", func() (int, error) { return 7, nil }, func(int) int64 { return 8 }); err != nil || v != 7 {
		t.Fatalf("after errors: %v %v", v, err)
	}
	// A cache of size 0 keeps nothing.
	SetCacheBytes(0)
	n := 0
	for range 2 {
		cached("test\x00off", func() (int, error) { n++; return n, nil }, func(int) int64 { return 8 })
	}
	if n != 2 {
		t.Fatalf("a disabled cache answered from memory (%d computations)", n)
	}
}

func TestImmutableRev(t *testing.T) {
	id := strings.Repeat("ab", 20)
	sha256 := strings.Repeat("cd", 32)
	for rev, want := range map[string]bool{
		id: true, id + "^{tree}": true, id + "^{commit}": true, id + ":": true, id + ":a/b": true, id + ":a^b": true, sha256: true,
		id[:39]: false, id[:7]: false, "main": false, "refs/heads/main^{commit}": false, "HEAD^{commit}": false,
		id + "^": false, id + "~1": false, id + "^2": false, strings.ToUpper(id): false, "main:" + id: false,
	} {
		if got := immutableRev(rev); got != want {
			t.Errorf("immutableRev(%q) = %v, want %v", rev, got, want)
		}
	}
}
