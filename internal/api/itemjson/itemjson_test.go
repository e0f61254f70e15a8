package itemjson

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

type person struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
}

type meta struct {
	Merged bool    `json:"merged"`
	At     *string `json:"merged_at"`
}

type inner struct {
	Promoted string `json:"promoted"`
}

// item has a field of every kind list items hold.
type item struct {
	inner
	Number    uint64     `json:"number"`
	Title     string     `json:"title"`
	User      person     `json:"user"`
	Assignee  *person    `json:"assignee"`
	Labels    []string   `json:"labels"`
	Assets    []struct{} `json:"assets"`
	Pull      *meta      `json:"pull_request,omitempty"`
	Score     float64    `json:"score"`
	Pinned    bool       `json:"pinned"`
	Closed    time.Time  `json:"closed"` // encodes itself, from unexported fields
	Ratio     int32      `json:"ratio"`
	unexposed string
}

func sample() item {
	at := "2026-12-04T05:00:00Z"
	return item{
		inner: inner{Promoted: "p"}, Number: 7, Title: `<b>"quoted" & more</b>`, User: person{"alice", 1},
		Assignee: &person{"bob", 2}, Labels: []string{"bug", "ui"}, Assets: []struct{}{}, Pull: &meta{true, &at},
		Score: 1.5, Pinned: true, Closed: time.Date(2026, 12, 4, 5, 0, 0, 0, time.UTC), Ratio: -3,
	}
}

func mustArray[T any](t *testing.T, c *Cache, items []T) []byte {
	t.Helper()
	got, err := Array(c, items)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("Array:\n%s\nencoding/json:\n%s", got, want)
	}
	return got
}

// TestArrayIsEncodingJSONs: a page put together from kept items is
// byte for byte what encoding/json writes, empty or not.
func TestArrayIsEncodingJSONs(t *testing.T) {
	c := New(1 << 20)
	mustArray(t, c, []item{})
	mustArray(t, c, []item{sample(), {}, sample()})
	mustArray(t, c, []item{sample(), {}, sample()}) // now from the cache
	if len(c.m) != 2 {
		t.Fatalf("kept %d encodings of two contents", len(c.m))
	}
}

// TestEveryChangeIsEncodedAgain changes each field of a kept item in
// turn, down to the fields of what it points to, and checks the page
// shows the change: no field is left out of what an item is kept by.
func TestEveryChangeIsEncodedAgain(t *testing.T) {
	c := New(1 << 20)
	base := sample()
	mustArray(t, c, []item{base})
	changes := 0
	var visit func(path string, get func(*item) reflect.Value)
	visit = func(path string, get func(*item) reflect.Value) {
		probe := sample()
		v := get(&probe)
		switch v.Kind() {
		case reflect.Struct:
			if v.Type() == reflect.TypeFor[time.Time]() {
				break
			}
			for i := range v.NumField() {
				if !v.Type().Field(i).IsExported() && !v.Type().Field(i).Anonymous {
					continue
				}
				visit(path+"."+v.Type().Field(i).Name, func(it *item) reflect.Value { return get(it).Field(i) })
			}
			return
		case reflect.Pointer:
			visit(path+".*", func(it *item) reflect.Value { return get(it).Elem() })
			// and the pointer gone
			probe := sample()
			get(&probe).SetZero()
			changed(t, c, path+"=nil", probe)
			changes++
			return
		}
		probe = sample()
		v = get(&probe)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int32, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Uint64:
			v.SetUint(v.Uint() + 1)
		case reflect.Float64:
			v.SetFloat(v.Float() + 0.25)
		case reflect.Slice:
			if v.Len() == 0 {
				v.SetZero() // [] becomes null
			} else {
				v.Set(v.Slice(0, v.Len()-1))
			}
		case reflect.Struct: // time.Time
			v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		default:
			t.Fatalf("%s: no change written for %s", path, v.Kind())
		}
		changed(t, c, path, probe)
		changes++
	}
	visit("item", func(it *item) reflect.Value { return reflect.ValueOf(it).Elem() })
	if changes < 15 {
		t.Fatalf("only %d fields changed", changes)
	}
}

func changed(t *testing.T, c *Cache, what string, probe item) {
	t.Helper()
	base, err := json.Marshal(sample())
	if err != nil {
		t.Fatal(err)
	}
	mustArray(t, c, []item{sample()})
	if len(c.m) == 0 {
		t.Fatalf("%s: nothing kept", what)
	}
	got := mustArray(t, c, []item{probe})
	if string(got) == "["+string(base)+"]" {
		t.Fatalf("%s: the change did not show", what)
	}
}

// TestBoundStartsAgain: past its bound the cache starts again empty, and
// an item bigger than maxItem is never kept.
func TestBoundStartsAgain(t *testing.T) {
	one, _ := json.Marshal(sample())
	c := New(3 * len(one))
	items := make([]item, 5)
	for i := range items {
		items[i] = sample()
		items[i].Number = uint64(i)
	}
	mustArray(t, c, items)
	if c.bytes > c.max || len(c.m) > 3 {
		t.Fatalf("holds %d bytes in %d items, bound %d", c.bytes, len(c.m), c.max)
	}
	big := sample()
	big.Title = string(make([]byte, maxItem))
	mustArray(t, c, []item{big})
	for _, b := range c.m {
		if len(b) > maxItem {
			t.Fatal("kept an item over maxItem")
		}
	}
}
