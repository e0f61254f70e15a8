package pages

import (
	"bytes"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
)

// FAQGroup is one section of the FAQ.
type FAQGroup struct {
	ID    string    `json:"id"`
	Title string    `json:"title"`
	Items []FAQItem `json:"items"`
}

// FAQItem is one question with its rendered answer. Text is the answer as
// plain text, for the client's search.
type FAQItem struct {
	Question string `json:"question"`
	HTML     string `json:"html"`
	Text     string `json:"text"`
}

var groupHeading = regexp.MustCompile(`^## (.+?)\s*\{#([a-z0-9-]+)\}\s*$`)

// FAQ parses faq.md: "## Title {#id}" starts a group, "### Question" an item,
// and the lines up to the next heading are the answer.
func (s *Service) FAQ() ([]FAQGroup, error) {
	src, err := fs.ReadFile(s.fsys, "faq.md")
	if err != nil {
		return nil, fmt.Errorf("read faq: %w", err)
	}
	var groups []FAQGroup
	var answer bytes.Buffer
	flush := func() error {
		if len(groups) == 0 || len(groups[len(groups)-1].Items) == 0 {
			answer.Reset()
			return nil
		}
		g := &groups[len(groups)-1]
		item := &g.Items[len(g.Items)-1]
		html, err := s.md.Render(answer.Bytes())
		if err != nil {
			return fmt.Errorf("render faq answer %q: %w", item.Question, err)
		}
		item.HTML, item.Text = html, strings.Join(strings.Fields(answer.String()), " ")
		answer.Reset()
		return nil
	}
	sc := lines(src)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case groupHeading.MatchString(line):
			if err := flush(); err != nil {
				return nil, err
			}
			m := groupHeading.FindStringSubmatch(line)
			groups = append(groups, FAQGroup{ID: m[2], Title: m[1], Items: []FAQItem{}})
		case strings.HasPrefix(line, "### ") && len(groups) > 0:
			if err := flush(); err != nil {
				return nil, err
			}
			g := &groups[len(groups)-1]
			g.Items = append(g.Items, FAQItem{Question: strings.TrimSpace(line[4:])})
		default:
			answer.WriteString(line + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("scan faq: %w", err)
	}
	return groups, flush()
}
