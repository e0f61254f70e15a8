package codesearch

import (
	"context"
	"errors"
	"fmt"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// fillLines reads each hit's file from git by the object id the index
// keeps (the index stores no content), and keeps the lines that
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
// repository deleted meanwhile, or a blob gone from it, leaves its hits
// without lines.
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
	ids := make([]string, len(at))
	for j, i := range at {
		ids[j] = hits[i].blob
	}
	fill := func(j int, content []byte) { hits[at[j]].Lines = s.matchLines(string(content), words) }
	err = gitstore.ReadBlobs(ctx, dir, ids, fill)
	if !errors.Is(err, gitstore.ErrNotPooled) {
		return err
	}
	blobs := make([]blobRef, len(ids))
	for j, id := range ids {
		blobs[j] = blobRef{sha: id, path: hits[at[j]].Path}
	}
	return readBlobs(ctx, dir, blobs, true, fill)
}
