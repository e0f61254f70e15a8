package docscheck

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// maxMapLines keeps docs/architecture.md a map: reference text goes into the
// package's README.md, where it is read beside the code it describes.
const maxMapLines = 300

const mapPath = "docs/architecture.md"

// root is the repository's top directory: the tests run in tools/docscheck.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("repository root not found from the test's directory: %v", err)
	}
	return dir
}

// goPackages lists every directory under internal/ that holds a Go file other
// than a test, as "internal/x/y": what `go list ./internal/...` lists.
func goPackages(t *testing.T, top string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(top, "internal"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// The go command ignores these directories too.
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			rel, err := filepath.Rel(top, filepath.Dir(path))
			if err != nil {
				return err
			}
			seen[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for p := range seen {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	return pkgs
}

// tableRow matches a row of the map's folder table: "| `internal/x` | ...".
var tableRow = regexp.MustCompile("^\\| `(internal/[^`]+)` \\|")

func TestMapListsEveryPackage(t *testing.T) {
	top := root(t)
	data, err := os.ReadFile(filepath.Join(top, mapPath))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if m := tableRow.FindStringSubmatch(line); m != nil {
			rows[m[1]] = true
		}
	}
	pkgs := goPackages(t, top)
	if len(pkgs) == 0 {
		t.Fatal("no Go packages found under internal/")
	}
	for _, p := range pkgs {
		if !rows[p] {
			t.Errorf("%s has no row in the folder table of %s: add \"| `%s` | its job |\"", p, mapPath, p)
		}
		delete(rows, p)
	}
	for p := range rows {
		t.Errorf("%s: the folder table lists `%s`, which is no Go package any more", mapPath, p)
	}
}

func TestMapStaysShort(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root(t), mapPath))
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(data), "\n")
	if !strings.HasSuffix(string(data), "\n") {
		n++
	}
	if n > maxMapLines {
		t.Errorf("%s has %d lines, more than %d: it is the map; move reference text into the package's README.md and link it from the folder table", mapPath, n, maxMapLines)
	}
}

// markdownFiles lists the Markdown files whose links are checked: every .md
// file of the repository but the site's content (its links are the web app's
// routes) and what tools download or build.
func markdownFiles(t *testing.T, top string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch {
			case rel == "content", rel == "web/dist", rel == "bin",
				d.Name() == "node_modules", d.Name() == "testdata",
				rel != "." && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".md") {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	fence      = regexp.MustCompile("(?s)```.*?```")
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	inlineLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	scheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

func TestRelativeLinksResolve(t *testing.T) {
	top := root(t)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(rel string) (map[string]bool, error) {
		if a, ok := anchors[rel]; ok {
			return a, nil
		}
		a, err := headingAnchors(filepath.Join(top, rel))
		if err != nil {
			return nil, err
		}
		anchors[rel] = a
		return a, nil
	}
	files := markdownFiles(t, top)
	if len(files) < 2 {
		t.Fatalf("found %d Markdown files", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(filepath.Join(top, file))
		if err != nil {
			t.Fatal(err)
		}
		text := codeSpan.ReplaceAllString(fence.ReplaceAllString(string(data), ""), "")
		for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
			link := m[1]
			if scheme.MatchString(link) || strings.HasPrefix(link, "/") {
				continue // another site, or a route of the web app
			}
			target, anchor, _ := strings.Cut(link, "#")
			rel := file
			if target != "" {
				rel = filepath.ToSlash(filepath.Join(filepath.Dir(file), target))
				if _, err := os.Stat(filepath.Join(top, rel)); err != nil {
					t.Errorf("%s: link %q names %s, which does not exist", file, link, rel)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(rel, ".md") {
				continue
			}
			a, err := anchorsOf(rel)
			if err != nil {
				t.Fatal(err)
			}
			if !a[anchor] {
				t.Errorf("%s: link %q names heading #%s, which %s does not have", file, link, anchor, rel)
			}
		}
	}
}

// headingAnchors gives the anchors GitHub makes of a Markdown file's
// headings: lower case, punctuation dropped, spaces as hyphens, "-1", "-2"
// after repeats.
func headingAnchors(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	anchors := map[string]bool{}
	count := map[string]int{}
	inFence := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimLeft(line, "#")
		if !strings.HasPrefix(title, " ") {
			continue
		}
		slug := slugOf(strings.TrimSpace(title))
		if n := count[slug]; n > 0 {
			anchors[slug+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[slug] = true
		}
		count[slug]++
	}
	return anchors, sc.Err()
}

func slugOf(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_':
			b.WriteRune(r)
		case unicode.IsLetter(r), unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
