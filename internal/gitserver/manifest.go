package gitserver

import (
	"context"
	"time"

	"github.com/dforge/dforge/internal/blocks"
	"github.com/dforge/dforge/internal/repoaccess"
)

// pushManifest is the CID of the manifest of the big objects (over 1 MiB,
// blocks.IsBig) a push to a public repository brought, read from its
// quarantine, with the manifest's block stored; "" when there are none.
// The objects' UnixFS files are stored with the push's other blocks, once
// git is done. A failure costs replicas the chunks, never the push.
func (s *Server) pushManifest(ctx context.Context, repo repoaccess.Repo, quarantine string) string {
	if repo.Private || s.blocks == nil || quarantine == "" {
		return ""
	}
	start := time.Now()
	m, err := blocks.PushManifest(ctx, repo.Path, quarantine)
	if err != nil {
		s.log.ErrorContext(ctx, "list a push's big objects", "repo", repo.ID, "err", err)
		return ""
	}
	if len(m) == 0 {
		return ""
	}
	c, err := s.blocks.PutManifest(m)
	if err != nil {
		s.log.ErrorContext(ctx, "store a push's manifest of big objects", "repo", repo.ID, "err", err)
		return ""
	}
	s.log.DebugContext(ctx, "manifest of a push's big objects", "repo", repo.ID, "objects", len(m), "manifest", c.String(), "took", time.Since(start))
	return c.String()
}
