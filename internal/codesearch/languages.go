package codesearch

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// maxLanguages is how many languages a search offers, most matches first.
const maxLanguages = 30

// languages counts q's total matches by language. Every document has one
// language term (a file of no known language has the empty one, which is
// counted but not offered: it is no filter), so the
// language with the most files here need not be counted: it holds what
// the others do not. The others are counted one search each, and each of
// those walks only that language's matches. A facet would read every
// match's language instead, which was most of a common word's search.
func (s *Service) languages(ctx context.Context, q query.Query, total uint64) ([]LanguageCount, error) {
	out := []LanguageCount{}
	if total == 0 {
		return out, nil
	}
	terms, err := s.languageTerms()
	if err != nil {
		return nil, err
	}
	if len(terms) == 0 {
		return out, nil
	}
	rest := total
	for _, t := range terms[1:] {
		n, err := s.count(ctx, bleve.NewConjunctionQuery(q, termQuery("language", t)))
		if err != nil {
			return nil, err
		}
		if n > 0 && t != "" {
			out = append(out, LanguageCount{Name: t, Count: int(n)})
		}
		rest -= min(n, rest)
	}
	if rest > 0 && terms[0] != "" {
		out = append(out, LanguageCount{Name: terms[0], Count: int(rest)})
	}
	slices.SortFunc(out, func(a, b LanguageCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
	if len(out) > maxLanguages {
		out = out[:maxLanguages]
	}
	return out, nil
}

// languageTerms are the index's languages, the one with the most
// documents first.
func (s *Service) languageTerms() ([]string, error) {
	dict, err := s.idx.FieldDict("language")
	if err != nil {
		return nil, fmt.Errorf("read the index's languages: %w", err)
	}
	defer dict.Close()
	type term struct {
		name string
		docs uint64
	}
	var terms []term
	for {
		e, err := dict.Next()
		if err != nil {
			return nil, fmt.Errorf("read the index's languages: %w", err)
		}
		if e == nil {
			break
		}
		terms = append(terms, term{e.Term, e.Count})
	}
	slices.SortFunc(terms, func(a, b term) int { return cmp.Or(cmp.Compare(b.docs, a.docs), cmp.Compare(a.name, b.name)) })
	names := make([]string, len(terms))
	for i, t := range terms {
		names[i] = t.name
	}
	return names, nil
}

// count is how many documents q matches, found without scoring them.
func (s *Service) count(ctx context.Context, q query.Query) (uint64, error) {
	req := bleve.NewSearchRequestOptions(q, 0, 0, false)
	req.Score = "none"
	res, err := s.idx.SearchInContext(ctx, req)
	if err != nil {
		return 0, fmt.Errorf("count matches: %w", err)
	}
	return res.Total, nil
}
