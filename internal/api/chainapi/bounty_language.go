package chainapi

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// The bounty list's language: a repository's main language is the one
// with the most bytes at the head of its default branch, as /languages
// counts them (gitstore.Languages, cached per commit). The index keeps no
// language, so the filter computes it for the few repositories that have
// bounties, and the list for the repositories of its page only.

// maxLanguageChars bounds language=: the longest linguist names are a few
// dozen characters.
const maxLanguageChars = 64

// languageParam is the trimmed language= of a request, bounded.
func languageParam(v string) (string, error) {
	v = strings.TrimSpace(v)
	if utf8.RuneCountInString(v) > maxLanguageChars {
		return "", usererr.BadFieldf("language", "language must be at most %d characters", maxLanguageChars)
	}
	return v, nil
}

// mainLanguage is rec's main language: "" when this node has none of its
// git data, it is empty or none of its files is in a counted language.
// Ties go to the name first in order, so the answer never flickers.
func (a *Handler) mainLanguage(ctx context.Context, rec index.Repo) (string, error) {
	if !a.Hosting.HasGit(rec) {
		return "", nil
	}
	dir, err := a.Hosting.Dir(rec)
	if err != nil {
		return "", fmt.Errorf("locate repository %d: %w", rec.ID, err)
	}
	if gitstore.IsEmpty(dir) {
		return "", nil
	}
	commit, err := gitstore.ResolveBranch(ctx, dir, rec.DefaultBranch)
	if err != nil {
		// As /languages: HEAD, whatever it is, when the default branch is gone.
		if commit, err = gitstore.Resolve(ctx, dir, ""); err != nil {
			return "", nil
		}
	}
	langs, err := gitstore.Languages(ctx, dir, commit)
	if err != nil {
		return "", fmt.Errorf("count languages of repository %d: %w", rec.ID, err)
	}
	names := make([]string, 0, len(langs))
	for name := range langs {
		names = append(names, name)
	}
	sort.Strings(names)
	best := ""
	for _, name := range names {
		if best == "" || langs[name] > langs[best] {
			best = name
		}
	}
	return best, nil
}

// languageOf is the main language of repository id as viewer sees it;
// ok is false when viewer cannot read it.
func (a *Handler) languageOf(ctx context.Context, viewer common.Address, id uint64) (lang string, ok bool, err error) {
	rec, _, err := a.Forge.RepoByID(ctx, viewer, id)
	if err != nil {
		if ue, isUser := usererr.As(err); isUser && ue.Kind == usererr.NotFound {
			return "", false, nil
		}
		return "", false, fmt.Errorf("read repository %d: %w", id, err)
	}
	lang, err = a.mainLanguage(ctx, rec)
	return lang, err == nil, err
}

// reposInLanguage is the repositories with bounties of status whose main
// language is lang (any case), among those viewer can read; never nil, so
// that none matching lists nothing.
func (a *Handler) reposInLanguage(ctx context.Context, viewer common.Address, status, lang string) ([]uint64, error) {
	ids, err := a.Index.BountyRepos(ctx, status)
	if err != nil {
		return nil, err
	}
	out := []uint64{}
	for _, id := range ids {
		got, ok, err := a.languageOf(ctx, viewer, id)
		if err != nil {
			return nil, err
		}
		if ok && strings.EqualFold(got, lang) {
			out = append(out, id)
		}
	}
	return out, nil
}

// withLanguages sets each bounty's language, computing it once per
// repository of the page.
func (a *Handler) withLanguages(ctx context.Context, viewer common.Address, list []index.Bounty) error {
	seen := map[uint64]string{}
	for i := range list {
		id := list[i].RepoID
		lang, done := seen[id]
		if !done {
			var err error
			if lang, _, err = a.languageOf(ctx, viewer, id); err != nil {
				return err
			}
			seen[id] = lang
		}
		list[i].Language = lang
	}
	return nil
}
