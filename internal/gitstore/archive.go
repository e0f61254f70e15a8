package gitstore

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Archive formats, as Gitea's archive route names them.
const (
	ArchiveZip   = "zip"
	ArchiveTarGz = "tar.gz"
)

// WriteArchive streams `git archive` of commit (a full id) in format to
// w, each path under prefix (a directory name ending in '/'). Nothing is
// buffered here: git writes straight into w, so a large repository costs
// the node a pipe, not the archive's size in memory.
func WriteArchive(ctx context.Context, dir, commit, format, prefix string, w io.Writer) error {
	if format != ArchiveZip && format != ArchiveTarGz {
		return fmt.Errorf("unknown archive format %q", format)
	}
	if !isFullID(commit) {
		return fmt.Errorf("%w: %q is not a commit id", ErrInvalidRef, commit)
	}
	cmd := Command(ctx, dir, ArchiveArgs(commit, format, prefix)...)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git archive: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// ArchiveArgs are the git arguments WriteArchive runs (the archive
// benchmark runs the same command directly).
func ArchiveArgs(commit, format, prefix string) []string {
	return []string{"archive", "--format=" + format, "--prefix=" + prefix, commit}
}
