package forge

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/index"
	"github.com/dforge/dforge/internal/usererr"
)

// A reviewer's "Viewed" marks on a pull request's files: private to them
// and kept on this node with their pending reviews (s.drafts), never on
// chain. Each mark holds the version of the file's change it was made on,
// which the client compares with the file as it is now.

// Bounds of a mark: a path as git allows, a version as long as a hash's
// hex, and no more marks than a pull request shows files.
const (
	maxViewedPath    = 4096
	maxViewedVersion = 128
	maxViewedFiles   = 3000
)

// ViewedFile is one mark: the file's path and the version of its change.
type ViewedFile struct {
	Path    string `json:"path"`
	Version string `json:"version"`
}

// ViewedFiles lists reviewer's marks on pull request number of repo, by
// path.
func (s *Service) ViewedFiles(ctx context.Context, reviewer index.User, repo, number uint64) ([]ViewedFile, error) {
	out := []ViewedFile{}
	if s.drafts == nil {
		return out, nil
	}
	marks, err := s.drafts.ViewedFiles(ctx, draftKey(common.HexToAddress(reviewer.Address)), repo, number)
	if err != nil {
		return nil, err
	}
	for path, version := range marks {
		out = append(out, ViewedFile{Path: path, Version: version})
	}
	slices.SortFunc(out, func(a, b ViewedFile) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// MarkViewed marks f viewed for reviewer, or takes the mark off when
// viewed is false.
func (s *Service) MarkViewed(ctx context.Context, reviewer index.User, repo, number uint64, f ViewedFile, viewed bool) error {
	if s.drafts == nil {
		return usererr.BadFieldf("path", "this node keeps no viewed files")
	}
	if err := validViewed(f, viewed); err != nil {
		return err
	}
	key := draftKey(common.HexToAddress(reviewer.Address))
	if !viewed {
		return s.drafts.UnmarkViewed(ctx, key, repo, number, f.Path)
	}
	// The bound is checked on a count, not on the marks read whole: a
	// mark is one click of a reviewer going down a long diff. At the
	// bound, a file already marked may still be marked again.
	n, err := s.drafts.CountViewedFiles(ctx, key, repo, number)
	if err != nil {
		return err
	}
	if n >= maxViewedFiles {
		marks, err := s.drafts.ViewedFiles(ctx, key, repo, number)
		if err != nil {
			return err
		}
		if _, again := marks[f.Path]; !again {
			return usererr.BadFieldf("path", "at most %d files of a pull request can be marked viewed", maxViewedFiles)
		}
	}
	return s.drafts.MarkViewed(ctx, key, repo, number, f.Path, f.Version)
}

func validViewed(f ViewedFile, viewed bool) error {
	switch {
	case f.Path == "" || strings.HasPrefix(f.Path, "/"):
		return usererr.BadFieldf("path", "path must be a file's path in the repository")
	case len(f.Path) > maxViewedPath || !utf8.ValidString(f.Path) || strings.ContainsRune(f.Path, 0):
		return usererr.BadFieldf("path", "path must be valid UTF-8 of at most %d bytes", maxViewedPath)
	case viewed && (f.Version == "" || len(f.Version) > maxViewedVersion || strings.ContainsFunc(f.Version, func(r rune) bool { return r <= ' ' || r > '~' })):
		return usererr.BadFieldf("version", "version must be the file's version as the diff gives it: 1 to %d visible ASCII characters", maxViewedVersion)
	}
	return nil
}
