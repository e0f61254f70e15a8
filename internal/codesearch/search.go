package codesearch

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/usererr"
)

// Query is a code search.
type Query struct {
	Text     string // words, each of which a file's content or path holds
	Language string // "" for any
	Repo     uint64 // 0 for every repository the viewer reads
	Page     int    // from 1
	Limit    int    // files per page
}

// Results are a page of matching files.
type Results struct {
	Total     uint64          `json:"total"`
	Items     []Hit           `json:"items"`
	Languages []LanguageCount `json:"languages"` // the matches' languages, most first
}

// Hit is a matching file with its matching lines.
type Hit struct {
	RepoID   uint64 `json:"-"`
	Repo     string `json:"-"` // owner/name
	Path     string `json:"path"`
	Language string `json:"language"`
	Lines    []Line `json:"lines"`
	blob     string // the file's object id, to read its lines by
}

// Line is a matching line; Ranges are the matched words' [start, end)
// offsets in characters (Unicode code points).
type Line struct {
	Number int      `json:"number"`
	Text   string   `json:"text"`
	Ranges [][2]int `json:"ranges"`
}

// LanguageCount is a language and how many matching files are in it.
type LanguageCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

const (
	maxLinesPerFile = 5
	maxLineLen      = 500 // bytes of a line shown; minified lines are cut
	maxLimit        = 50
)

// Search finds the files whose content and path hold every word of q, in
// the public repositories and the private ones viewer reads: no other
// private repository counts in the total or the languages.
func (s *Service) Search(ctx context.Context, viewer common.Address, q Query) (Results, error) {
	words := s.words(q.Text)
	if len(words) == 0 {
		return Results{}, usererr.BadFieldf("q", "Say what to search for: a word of code.")
	}
	if q.Limit <= 0 || q.Limit > maxLimit {
		q.Limit = 10
	}
	if q.Page < 1 {
		q.Page = 1
	}
	readable, err := s.ix.ReadablePrivateRepoIDs(ctx, viewer)
	if err != nil {
		return Results{}, err
	}
	key := cacheKey(words, q, readable)
	if res, ok := s.cache.get(key); ok {
		return res, nil
	}
	// The same search asked again while it runs waits for it: a common
	// word is asked by many at once. It runs to the end for them even if
	// the first asker leaves.
	v, err, _ := s.inFlight.Do(key, func() (any, error) {
		gen := s.cache.generation()
		if res, ok := s.cache.get(key); ok {
			return res, nil
		}
		res, err := s.search(context.WithoutCancel(ctx), words, q, readable)
		if err == nil {
			s.cache.put(gen, key, res)
		}
		return res, err
	})
	if err != nil {
		return Results{}, err
	}
	return v.(Results), nil
}

// search runs q against the index and reads its hits' lines.
func (s *Service) search(ctx context.Context, words []string, q Query, readable []uint64) (Results, error) {
	s.privacy.RLock()
	defer s.privacy.RUnlock()
	must := make([]query.Query, 0, len(words)+2)
	for _, w := range words {
		must = append(must, termQuery("content", w))
	}
	if q.Repo != 0 {
		must = append(must, termQuery("repo_id", strconv.FormatUint(q.Repo, 10)))
	}
	all := s.visible(conjunction(must), readable)
	filtered := all
	if q.Language != "" {
		filtered = s.visible(conjunction(append(slices.Clone(must), termQuery("language", q.Language))), readable)
	}

	req := bleve.NewSearchRequestOptions(filtered, q.Limit, (q.Page-1)*q.Limit, false)
	req.Fields = []string{"repo_id", "repo", "path", "language", "blob"}
	// By score alone: ties keep the index's order, the same for every
	// page of one state of the index. A tie broken by _id would load
	// every match's id, a third of a common word's search.
	req.SortBy([]string{"-_score"})
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return Results{}, fmt.Errorf("search code: %w", err)
	}
	out := Results{Total: res.Total, Items: []Hit{}}
	set := map[string]bool{}
	for _, w := range words {
		set[w] = true
	}
	for _, h := range res.Hits {
		out.Items = append(out.Items, hit(h))
	}
	if err := s.fillLines(ctx, out.Items, set); err != nil {
		return Results{}, err
	}
	// The languages of every match, whatever the filter, to offer it.
	allTotal := res.Total
	if q.Language != "" {
		if allTotal, err = s.count(ctx, all); err != nil {
			return Results{}, err
		}
	}
	if out.Languages, err = s.languages(ctx, all, allTotal); err != nil {
		return Results{}, err
	}
	return out, nil
}

// words are q's words as the index has them.
func (s *Service) words(q string) []string {
	var out []string
	for _, t := range s.analyze(q) {
		if !slices.Contains(out, t.term) {
			out = append(out, t.term)
		}
	}
	return out
}

type token struct {
	term       string
	start, end int // bytes
}

func (s *Service) analyze(text string) []token {
	a := s.idx.Mapping().AnalyzerNamed(codeAnalyzer)
	if a == nil {
		return nil
	}
	var out []token
	for _, t := range a.Analyze([]byte(text)) {
		out = append(out, token{term: string(t.Term), start: t.Start, end: t.End})
	}
	return out
}

// hit reads a match's stored fields; fillLines adds its lines.
func hit(h *search.DocumentMatch) Hit {
	field := func(name string) string { v, _ := h.Fields[name].(string); return v }
	id, _ := strconv.ParseUint(field("repo_id"), 10, 64)
	return Hit{RepoID: id, Repo: field("repo"), Path: field("path"), Language: field("language"), Lines: []Line{}, blob: field("blob")}
}

// matchLines are content's first lines that hold one of words, with the
// words' ranges. It jumps from one place that may hold a word to the
// next rather than looking at every line: a file's matching lines are
// few, and only they are split into words.
func (s *Service) matchLines(content string, words map[string]bool) []Line {
	out := []Line{}
	lower := strings.ToLower(content)
	if len(lower) != len(content) {
		// Lower-casing changed some letter's length, so places in lower
		// are not places in content: look at every line.
		lower = ""
	}
	for start, number := 0, 1; start < len(content) && len(out) < maxLinesPerFile; {
		if lower != "" {
			at := nextPlace(lower[start:], words)
			if at < 0 {
				break
			}
			skip := strings.LastIndexByte(content[start:start+at], '\n') + 1
			number += strings.Count(content[start:start+skip], "\n")
			start += skip
		}
		end := strings.IndexByte(content[start:], '\n')
		if end < 0 {
			end = len(content) - start
		}
		if l, ok := s.matchLine(content[start:start+end], words); ok {
			l.Number = number
			out = append(out, l)
		}
		start, number = start+end+1, number+1
	}
	return out
}

// nextPlace is where the first of words is in lower, or -1.
func nextPlace(lower string, words map[string]bool) int {
	first := -1
	for w := range words {
		if i := strings.Index(lower, w); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// matchLine is line, cut to maxLineLen, with the ranges of words in it,
// if it holds one.
func (s *Service) matchLine(line string, words map[string]bool) (Line, bool) {
	line = strings.TrimSuffix(line, "\r")
	if len(line) > maxLineLen {
		cut := maxLineLen
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut]
	}
	if !mayHold(line, words) {
		return Line{}, false
	}
	var ranges [][2]int
	for _, t := range s.analyze(line) {
		if words[t.term] {
			start := utf8.RuneCountInString(line[:t.start])
			ranges = append(ranges, [2]int{start, start + utf8.RuneCountInString(line[t.start:t.end])})
		}
	}
	return Line{Text: line, Ranges: ranges}, len(ranges) > 0
}

// visible keeps of q's matches those the viewer may see: every public
// file, and the private ones of the repositories in readable. An index
// that has never held a private file needs no filter.
func (s *Service) visible(q query.Query, readable []uint64) query.Query {
	if !s.mayHidePrivate.Load() {
		return q
	}
	return hidePrivate(q, readable)
}

// hidePrivate leaves out of q's matches the private files outside
// readable. It says what to leave out rather than what to keep, so no
// list of every public file is walked.
func hidePrivate(q query.Query, readable []uint64) query.Query {
	hidden := query.Query(boolQuery("private", true))
	if len(readable) > 0 {
		ids := make([]query.Query, len(readable))
		for i, id := range readable {
			ids[i] = termQuery("repo_id", strconv.FormatUint(id, 10))
		}
		unread := bleve.NewBooleanQuery()
		unread.AddMust(hidden)
		unread.AddMustNot(ids...)
		hidden = unread
	}
	out := bleve.NewBooleanQuery()
	out.AddMust(q)
	out.AddMustNot(hidden)
	return out
}

// conjunction is every one of qs; one query is itself.
func conjunction(qs []query.Query) query.Query {
	if len(qs) == 1 {
		return qs[0]
	}
	return bleve.NewConjunctionQuery(qs...)
}

func termQuery(field, term string) query.Query {
	q := bleve.NewTermQuery(term)
	q.SetField(field)
	return q
}

func boolQuery(field string, v bool) query.Query {
	q := bleve.NewBoolFieldQuery(v)
	q.SetField(field)
	return q
}

// mayHold is a cheap test before a line is analyzed: it holds one of the
// words, in any case, somewhere.
func mayHold(line string, words map[string]bool) bool {
	lower := strings.ToLower(line)
	for w := range words {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
