package itemjson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

type item struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

func key(parts ...string) *Key {
	k := &Key{}
	for _, p := range parts {
		k.Str(p)
	}
	return k
}

// TestEncodeKeepsByKey: an item is shaped and encoded once per key, and
// a page joined from kept items is byte for byte what encoding/json
// writes for the slice, HTML escaping included.
func TestEncodeKeepsByKey(t *testing.T) {
	c := New(1 << 20)
	items := []item{{1, `<b>"one" & more</b>`}, {2, "two"}}
	shaped := 0
	page := func() []byte {
		var out [][]byte
		for _, it := range items {
			b, err := c.Encode(key("item", it.Title, string(rune('0'+it.Number))), func() any { shaped++; return it })
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return Array(out)
	}
	want, _ := json.Marshal(items)
	for range 3 {
		if got := page(); !bytes.Equal(got, want) {
			t.Fatalf("page:\n%s\nencoding/json:\n%s", got, want)
		}
	}
	if shaped != 2 {
		t.Fatalf("shaped %d times for two items read three times", shaped)
	}
	items[1].Title = "two, edited"
	want, _ = json.Marshal(items)
	if got := page(); !bytes.Equal(got, want) || shaped != 3 {
		t.Fatalf("after an edit, shaped %d times: %s", shaped, got)
	}
	if got := Array(nil); string(got) != "[]" {
		t.Fatalf("empty page: %s", got)
	}
}

// TestKeysTellValuesApart: values that would run together as text write
// different keys.
func TestKeysTellValuesApart(t *testing.T) {
	pairs := [][2]*Key{
		{key("ab", "c"), key("a", "bc")},
		{key("", "x"), key("x", "")},
	}
	num := func(f func(*Key)) *Key { k := &Key{}; f(k); return k }
	pairs = append(pairs,
		[2]*Key{num(func(k *Key) { k.Uint(1); k.Uint(300) }), num(func(k *Key) { k.Uint(300); k.Uint(1) })},
		[2]*Key{num(func(k *Key) { k.Int(-1) }), num(func(k *Key) { k.Int(1) })},
		[2]*Key{num(func(k *Key) { k.Bool(true) }), num(func(k *Key) { k.Bool(false) })},
	)
	for i, p := range pairs {
		if bytes.Equal(p[0].Bytes(), p[1].Bytes()) {
			t.Fatalf("pair %d writes the same key %x", i, p[0].Bytes())
		}
	}
	k := key("a")
	k.Reset()
	if len(k.Bytes()) != 0 {
		t.Fatal("Reset left bytes")
	}
}

// TestBoundStartsAgain: past its bound the cache starts again empty, and
// an item bigger than maxItem is never kept.
func TestBoundStartsAgain(t *testing.T) {
	one, _ := json.Marshal(item{1, "x"})
	c := New(3 * len(one))
	for i := range 5 {
		if _, err := c.Encode(key("n", string(rune('a'+i))), func() any { return item{1, "x"} }); err != nil {
			t.Fatal(err)
		}
		if c.bytes > c.max || len(c.m) > 3 {
			t.Fatalf("holds %d bytes in %d items, bound %d", c.bytes, len(c.m), c.max)
		}
	}
	c = New(1 << 30)
	big := item{1, strings.Repeat("x", maxItem)}
	b, err := c.Encode(key("big"), func() any { return big })
	if err != nil || len(b) <= maxItem || len(c.m) != 0 {
		t.Fatalf("an item of %d bytes: kept %d, err %v", len(b), len(c.m), err)
	}
}
