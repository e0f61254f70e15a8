package codesearch

import (
	"path/filepath"
	"testing"

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
	h := s.hit(&search.DocumentMatch{Fields: map[string]any{"repo_id": "7", "repo": "a/b", "path": "x.go",
		"content": "package x\n// héllo Spindle\nspindles\nSPINDLE()"}}, map[string]bool{"spindle": true})
	if h.RepoID != 7 || len(h.Lines) != 2 {
		t.Fatalf("hit %+v", h)
	}
	if l := h.Lines[0]; l.Number != 2 || l.Ranges[0] != [2]int{9, 16} {
		t.Errorf("line %+v", l)
	}
	if l := h.Lines[1]; l.Number != 4 || l.Ranges[0] != [2]int{0, 7} {
		t.Errorf("line %+v", l)
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
