package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// One commit's diff or patch, streamed with a byte limit. Comparing two
// commits is merge_compare.go's.

// DiffFormat is how WriteCommitDiff writes a commit.
type DiffFormat int

const (
	// FormatDiff is a unified diff against the first parent (diff-tree -p).
	FormatDiff DiffFormat = iota
	// FormatPatch is an email-style patch (format-patch), for `git am`.
	FormatPatch
)

// ErrTruncated ends a diff that reached its byte limit.
var ErrTruncated = errors.New("the diff is larger than the limit")

// WriteCommitDiff streams commit's changes to w in format, stopping after limit
// bytes (0: no limit) with ErrTruncated.
func WriteCommitDiff(ctx context.Context, dir string, c Commit, format DiffFormat, limit int64, w io.Writer) error {
	ctx, cancel := withTimeout(ctx, streamTimeout)
	defer cancel()
	var args []string
	switch {
	case format == FormatPatch:
		args = []string{"format-patch", "--stdout", "--no-signature", "--no-color", "-1", "--end-of-options", c.ID}
		if len(c.Parents) > 1 {
			args = []string{"diff-tree", "-p", "--no-color", "--no-renames", "--end-of-options", c.Parents[0], c.ID}
		}
	case len(c.Parents) > 1:
		args = []string{"diff-tree", "-p", "--no-color", "--no-renames", "--end-of-options", c.Parents[0], c.ID}
	default:
		args = []string{"diff-tree", "-p", "--root", "--no-commit-id", "--no-color", "--no-renames", "--end-of-options", c.ID}
	}
	cmd := Command(ctx, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("pipe git %s: %w", args[0], err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start git %s: %w", args[0], err)
	}
	var src io.Reader = out
	if limit > 0 {
		src = io.LimitReader(out, limit+1)
	}
	n, copyErr := io.Copy(&capWriter{w: w, left: limit}, src)
	if limit > 0 && n > limit {
		cancel()
		cmd.Wait()
		return ErrTruncated
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return copyErr
}

// capWriter passes at most left bytes (all when left is 0).
type capWriter struct {
	w    io.Writer
	left int64
}

func (c *capWriter) Write(p []byte) (int, error) {
	if c.left <= 0 {
		if c.left == 0 {
			return c.w.Write(p)
		}
		return len(p), nil
	}
	if int64(len(p)) > c.left {
		n, err := c.w.Write(p[:c.left])
		c.left = -1
		if err != nil {
			return n, err
		}
		return len(p), nil
	}
	c.left -= int64(len(p))
	if c.left == 0 {
		c.left = -1
	}
	return c.w.Write(p)
}

// CommitDiff returns commit's diff, at most limit bytes; truncated says it was
// cut there.
func CommitDiff(ctx context.Context, dir string, c Commit, limit int64) (string, bool, error) {
	var buf bytes.Buffer
	err := WriteCommitDiff(ctx, dir, c, FormatDiff, limit, &buf)
	if errors.Is(err, ErrTruncated) {
		return buf.String(), true, nil
	}
	return buf.String(), false, err
}
