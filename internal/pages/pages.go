// Package pages serves the site's Markdown content (informational pages,
// docs, blog and FAQ) rendered to sanitized HTML. Content is embedded and
// immutable, so each document is parsed and rendered once.
package pages

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/dforge/dforge/internal/markdown"
	"github.com/dforge/dforge/internal/usererr"
)

// Page is one rendered document.
type Page struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	HTML  string `json:"html"`
}

// Service reads and renders the embedded content.
type Service struct {
	fsys fs.FS
	md   *markdown.Renderer

	mu    sync.Mutex
	cache map[string]Page
}

// New returns a Service over fsys (normally content.FS).
func New(fsys fs.FS, md *markdown.Renderer) *Service {
	return &Service{fsys: fsys, md: md, cache: map[string]Page{}}
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

var errNotFound = usererr.Missingf("page not found")

// Page returns pages/{slug}.md.
func (s *Service) Page(slug string) (Page, error) { return s.document("pages", slug) }

// Doc returns docs/{slug}.md.
func (s *Service) Doc(slug string) (Page, error) { return s.document("docs", slug) }

// Docs lists the documentation pages, the index first.
func (s *Service) Docs() ([]Page, error) {
	slugs, err := s.slugs("docs")
	if err != nil {
		return nil, err
	}
	out := make([]Page, 0, len(slugs))
	for _, slug := range slugs {
		p, err := s.Doc(slug)
		if err != nil {
			return nil, err
		}
		out = append(out, Page{Slug: p.Slug, Title: p.Title})
	}
	slices.SortStableFunc(out, func(a, b Page) int { return boolRank(a.Slug == "index") - boolRank(b.Slug == "index") })
	return out, nil
}

func boolRank(first bool) int {
	if first {
		return 0
	}
	return 1
}

func (s *Service) document(dir, slug string) (Page, error) {
	if !slugPattern.MatchString(slug) {
		return Page{}, errNotFound
	}
	key := dir + "/" + slug
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.cache[key]; ok {
		return p, nil
	}
	src, err := fs.ReadFile(s.fsys, key+".md")
	if errors.Is(err, fs.ErrNotExist) {
		return Page{}, errNotFound
	} else if err != nil {
		return Page{}, fmt.Errorf("read %s: %w", key, err)
	}
	title, body := splitTitle(src)
	html, err := s.md.Render(body)
	if err != nil {
		return Page{}, fmt.Errorf("render %s: %w", key, err)
	}
	p := Page{Slug: slug, Title: title, HTML: html}
	s.cache[key] = p
	return p, nil
}

// splitTitle takes the leading "# Title" line off a document.
func splitTitle(src []byte) (string, []byte) {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	if title, ok := strings.CutPrefix(strings.TrimSpace(string(first)), "# "); ok {
		return title, rest
	}
	return "", src
}

func (s *Service) slugs(dir string) ([]string, error) {
	entries, err := fs.ReadDir(s.fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		if slug, ok := strings.CutSuffix(e.Name(), ".md"); ok && !e.IsDir() {
			out = append(out, slug)
		}
	}
	return out, nil
}

// lines scans src line by line; a small helper for the FAQ and front matter.
func lines(src []byte) *bufio.Scanner {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	return sc
}
