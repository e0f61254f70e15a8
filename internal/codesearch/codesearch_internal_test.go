package codesearch

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
)

// The words of a query and the marked places on a line are the code
// analyzer's: words inside calls count, case does not, ranges are in
// characters.
func TestWordsAndLines(t *testing.T) {
	s, err := Open(Config{Dir: filepath.Join(t.TempDir(), "cs")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.words("fmt.Println(Println, x)"); len(got) != 3 || got[0] != "fmt" || got[1] != "println" || got[2] != "x" {
		t.Errorf("words %q", got)
	}
	if got := s.words(" (.) "); len(got) != 0 {
		t.Errorf("no words expected, got %q", got)
	}
	h := hit(&search.DocumentMatch{Fields: map[string]any{"repo_id": "7", "repo": "a/b", "path": "x.go"}})
	if h.RepoID != 7 || h.Repo != "a/b" || h.Path != "x.go" {
		t.Fatalf("hit %+v", h)
	}
	lines := s.matchLines("package x\n// héllo Spindle\nspindles\nSPINDLE()", map[string]bool{"spindle": true})
	if len(lines) != 2 {
		t.Fatalf("lines %+v", lines)
	}
	if l := lines[0]; l.Number != 2 || l.Ranges[0] != [2]int{9, 16} {
		t.Errorf("line %+v", l)
	}
	if l := lines[1]; l.Number != 4 || l.Ranges[0] != [2]int{0, 7} {
		t.Errorf("line %+v", l)
	}
	// Lines far down keep their numbers, CRLF ends are dropped, at most
	// five lines are given, and a letter whose lower case is longer (İ)
	// moves no place.
	long := strings.Repeat("nothing here\r\n", 40) + "a spindle\r\n" + strings.Repeat("spindle\n", 9)
	lines = s.matchLines(long, map[string]bool{"spindle": true})
	if len(lines) != 5 || lines[0].Number != 41 || lines[0].Text != "a spindle" || lines[4].Number != 45 {
		t.Errorf("lines of a long file: %+v", lines)
	}
	lines = s.matchLines("İİ x\nİ spindle\n", map[string]bool{"spindle": true})
	if len(lines) != 1 || lines[0].Number != 2 || lines[0].Ranges[0] != [2]int{2, 9} {
		t.Errorf("lines after İ: %+v", lines)
	}
	for p, want := range map[string]string{"a/b.go": "Go", "README.md": "Markdown", "Makefile": "Makefile", "x.bin": ""} {
		if got := Language(p); got != want {
			t.Errorf("Language(%q) = %q, want %q", p, got, want)
		}
	}
	for p, want := range map[string]bool{"a.go": true, "vendor/a.go": false, "web/app.min.js": false} {
		if got := indexable("100644", p); got != want {
			t.Errorf("indexable(%q) = %v", p, got)
		}
	}
	if indexable("120000", "link") || indexable("160000", "sub") {
		t.Error("links and submodules are not indexed")
	}
}

// An index made with an older layout (the first stored every file's
// content) is made anew on open, so the mapping in use is always this
// binary's; the worker then indexes every repository again.
func TestAnOlderLayoutIsBuiltAgain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cs")
	old, err := bleve.New(dir, bleve.NewIndexMapping())
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Index("1:a.go", map[string]any{"content": "package a"}); err != nil {
		t.Fatal(err)
	}
	old.Close()
	s, err := Open(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := s.idx.DocCount(); err != nil || n != 0 || !current(s.idx) {
		t.Fatalf("reopened index: %d documents, current %v, %v", n, current(s.idx), err)
	}
	if f := s.idx.Mapping().(*mapping.IndexMappingImpl).DefaultMapping.Properties["content"].Fields[0]; f.Store || f.DocValues {
		t.Fatalf("content field mapping %+v: neither stored nor kept as doc values", f)
	}
}

// The cache of results refuses an answer a write to the index overtook,
// forgets everything on a write, and stays within its bound in bytes.
func TestResultCache(t *testing.T) {
	var c resultCache
	res := Results{Total: 1, Items: []Hit{{Path: "a.go", Lines: []Line{{Number: 1, Text: "package a"}}}}}
	gen := c.generation()
	c.changed() // a push lands while the search runs
	c.put(gen, "q", res)
	if _, ok := c.get("q"); ok {
		t.Fatal("an answer from before a write was kept")
	}
	c.put(c.generation(), "q", res)
	if got, ok := c.get("q"); !ok || got.Total != 1 {
		t.Fatalf("a current answer: %+v %v", got, ok)
	}
	c.changed()
	if _, ok := c.get("q"); ok {
		t.Fatal("a write left an answer in the cache")
	}
	big := Results{Items: []Hit{{Path: "b.go", Lines: []Line{{Text: string(make([]byte, 100_000))}}}}}
	for i := range 1000 {
		c.put(c.generation(), cacheKey([]string{"w"}, Query{Page: i + 1}, nil), big)
	}
	if c.bytes > maxCachedBytes || len(c.entries) == 0 || len(c.entries) >= 1000 {
		t.Fatalf("%d entries of %d bytes, bound %d", len(c.entries), c.bytes, maxCachedBytes)
	}
}

// Languages are counted exactly, the most common one included (it is
// what the others leave of the total), files of no known language in no
// entry (they are no filter), and private files a viewer may not read in
// none.
func TestLanguageCounts(t *testing.T) {
	s, err := Open(Config{Dir: filepath.Join(t.TempDir(), "cs")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	files := []doc{
		{RepoID: "1", Path: "a.go", Language: "Go", Content: "lathe"},
		{RepoID: "1", Path: "b.go", Language: "Go", Content: "lathe"},
		{RepoID: "1", Path: "c.go", Language: "Go", Content: "lathe"},
		{RepoID: "1", Path: "d.go", Language: "Go", Content: "chisel"},
		{RepoID: "1", Path: "e.ts", Language: "TypeScript", Content: "lathe"},
		{RepoID: "1", Path: "LICENSE", Language: "", Content: "lathe"},
		{RepoID: "2", Path: "p.rs", Language: "Rust", Content: "lathe", Private: true},
		{RepoID: "2", Path: "q.go", Language: "Go", Content: "lathe", Private: true},
	}
	b := s.idx.NewBatch()
	for _, d := range files {
		if err := b.Index(d.RepoID+":"+d.Path, d); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.batch(b); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		readable []uint64
		want     []LanguageCount
	}{
		{nil, []LanguageCount{{"Go", 3}, {"TypeScript", 1}}},
		{[]uint64{2}, []LanguageCount{{"Go", 4}, {"Rust", 1}, {"TypeScript", 1}}},
	} {
		q := hidePrivate(termQuery("content", "lathe"), tc.readable)
		total, err := s.count(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.languages(context.Background(), q, total)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("readable %v: languages %+v, want %+v (%v)", tc.readable, got, tc.want, err)
		}
	}
}
