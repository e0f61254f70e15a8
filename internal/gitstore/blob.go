package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
)

// Blobs: a file's content, streamed or read up to a limit.

// Blob is a blob being read from git; Close ends the read.
type Blob struct {
	io.Reader
	cmd    interface{ Wait() error }
	cancel context.CancelFunc
	stdout io.Closer
}

// Close stops git and releases the blob.
func (b *Blob) Close() error {
	b.cancel()
	b.stdout.Close()
	b.cmd.Wait()
	return nil
}

// OpenBlob streams the blob id (a whole object id), so a blob of any size
// passes through a small buffer.
func OpenBlob(ctx context.Context, dir, id string) (*Blob, error) {
	if !hexID.MatchString(id) {
		return nil, fmt.Errorf("%w: %q is not an object id", ErrInvalidRef, id)
	}
	ctx, cancel := withTimeout(ctx, streamTimeout)
	cmd := Command(ctx, dir, "cat-file", "blob", id)
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("pipe cat-file: %w", err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("start cat-file: %w", err)
	}
	return &Blob{Reader: out, cmd: cmd, cancel: cancel, stdout: out}, nil
}

// ReadBlob reads at most limit bytes of blob id. A blob named by its full
// id never changes, so what was read is cached (the cache keeps no entry
// over an eighth of its bound); each caller gets its own copy.
func ReadBlob(ctx context.Context, dir, id string, limit int64) ([]byte, error) {
	if !isFullID(id) {
		return readBlobGit(ctx, dir, id, limit)
	}
	data, err := cachedIn(dir, cacheKey("blob", dir, id, strconv.FormatInt(limit, 10)), func() ([]byte, error) {
		return readBlobGit(ctx, dir, id, limit)
	}, func(b []byte) int64 { return int64(len(b)) })
	return bytes.Clone(data), err
}

func readBlobGit(ctx context.Context, dir, id string, limit int64) ([]byte, error) {
	b, err := OpenBlob(ctx, dir, id)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	data, err := io.ReadAll(io.LimitReader(b, limit))
	if err != nil {
		return data, fmt.Errorf("read blob %s: %w", id, err)
	}
	return data, nil
}

// sniffLen is how much of a file decides whether it is binary (git's own
// heuristic looks at the first 8000 bytes for a NUL).
const sniffLen = 8000

// IsBinary reports whether content (its first bytes suffice) is binary:
// it has a NUL byte, as git decides.
func IsBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), sniffLen)], 0) >= 0
}
