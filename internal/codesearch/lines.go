package codesearch

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// fillLines reads each hit's file from git, at the commit its repository
// is indexed at (the index stores no content), and keeps the lines that
// hold one of words: through the pool of cat-file processes, or one
// `git cat-file --batch` per repository of the page when it has no room.
func (s *Service) fillLines(ctx context.Context, hits []Hit, words map[string]bool) error {
	byRepo := map[uint64][]int{}
	var order []uint64
	for i, h := range hits {
		if _, seen := byRepo[h.RepoID]; !seen {
			order = append(order, h.RepoID)
		}
		byRepo[h.RepoID] = append(byRepo[h.RepoID], i)
	}
	for _, id := range order {
		if err := s.repoLines(ctx, id, hits, byRepo[id], words); err != nil {
			return fmt.Errorf("read the lines of repository %d's results: %w", id, err)
		}
	}
	return nil
}

// repoLines fills the lines of hits[at...], all in repository id. A
// repository deleted or re-indexed meanwhile leaves its hits without lines.
func (s *Service) repoLines(ctx context.Context, id uint64, hits []Hit, at []int, words map[string]bool) error {
	m, err := s.meta(id)
	if err != nil || m.Commit == "" {
		return err
	}
	rec, err := s.ix.RepoByID(ctx, id)
	if ue, ok := usererr.As(err); ok && ue.Kind == usererr.NotFound {
		return nil
	}
	if err != nil {
		return err
	}
	dir, err := s.dir(rec)
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(at))
	byPath := map[string]int{}
	for _, i := range at {
		paths = append(paths, hits[i].Path)
		byPath[hits[i].Path] = i
	}
	fill := func(p string, content []byte) {
		hits[byPath[p]].Lines = s.matchLines(string(content), words)
	}
	err = gitstore.ReadFilesAt(ctx, dir, m.Commit, paths, fill)
	if !errors.Is(err, gitstore.ErrNotPooled) {
		return err
	}
	blobs := make([]blobRef, 0, len(paths))
	for _, p := range paths {
		if !strings.ContainsAny(p, "\n\r") { // cat-file takes one name per line
			blobs = append(blobs, blobRef{sha: m.Commit + ":" + p, path: p})
		}
	}
	return readBlobs(ctx, dir, blobs, true, fill)
}
