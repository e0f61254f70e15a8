package pages

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Post is a blog post; HTML is empty in listings.
type Post struct {
	Slug     string `json:"slug"`
	Title    string `json:"title"`
	Date     string `json:"date"`
	Category string `json:"category"`
	Author   string `json:"author"`
	Summary  string `json:"summary"`
	Featured bool   `json:"featured"`
	HTML     string `json:"html,omitempty"`
}

// Posts lists the blog, newest first.
func (s *Service) Posts() ([]Post, error) {
	slugs, err := s.slugs("blog")
	if err != nil {
		return nil, err
	}
	out := make([]Post, 0, len(slugs))
	for _, slug := range slugs {
		p, err := s.Post(slug)
		if err != nil {
			return nil, err
		}
		p.HTML = ""
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b Post) int { return strings.Compare(b.Date, a.Date) })
	return out, nil
}

// Post returns one rendered post.
func (s *Service) Post(slug string) (Post, error) {
	if !slugPattern.MatchString(slug) {
		return Post{}, errNotFound
	}
	src, err := fs.ReadFile(s.fsys, "blog/"+slug+".md")
	if errors.Is(err, fs.ErrNotExist) {
		return Post{}, errNotFound
	} else if err != nil {
		return Post{}, fmt.Errorf("read post %s: %w", slug, err)
	}
	post, body := frontMatter(src)
	post.Slug = slug
	html, err := s.md.Render(body)
	if err != nil {
		return Post{}, fmt.Errorf("render post %s: %w", slug, err)
	}
	post.HTML = html
	return post, nil
}

// frontMatter splits "---\nkey: value\n---\n" off the top of a post.
func frontMatter(src []byte) (Post, []byte) {
	var p Post
	rest, ok := bytes.CutPrefix(src, []byte("---\n"))
	if !ok {
		return p, src
	}
	head, body, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return p, src
	}
	sc := lines(head)
	for sc.Scan() {
		key, value, _ := strings.Cut(sc.Text(), ":")
		value = strings.TrimSpace(value)
		switch strings.TrimSpace(key) {
		case "title":
			p.Title = value
		case "date":
			p.Date = value
		case "category":
			p.Category = value
		case "author":
			p.Author = value
		case "summary":
			p.Summary = value
		case "featured":
			p.Featured = value == "true"
		}
	}
	return p, body
}
