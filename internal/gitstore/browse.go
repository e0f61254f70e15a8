package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Reading a repository for the code browser: refs (resolve.go,
// branches.go), trees (tree.go), blobs (blob.go), history (log.go,
// authors.go) and diffs (diff.go). Everything goes through the git binary
// with a deadline; what a client names (a ref, a path) is checked before
// git sees it, and passed after --end-of-options or as a literal pathspec,
// so no name is ever an option or a pathspec pattern.

// Errors a client can cause; the API maps them to 400 and 404.
var (
	ErrInvalidPath  = errors.New("invalid path")
	ErrInvalidRef   = errors.New("invalid ref")
	ErrRefNotFound  = errors.New("ref not found")
	ErrPathNotFound = errors.New("path not found")
)

// readTimeout bounds one read; streamTimeout one streamed blob or diff.
const (
	readTimeout   = 30 * time.Second
	streamTimeout = 10 * time.Minute
)

func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// read runs a read-only git command in dir with the read deadline and
// literal pathspecs.
func read(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	ctx, cancel := withTimeout(ctx, readTimeout)
	defer cancel()
	cmd := Command(ctx, dir, append([]string{"--literal-pathspecs"}, args...)...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// CleanPath checks a path inside a repository as a client sends it and
// returns it without leading, trailing or doubled slashes ("" is the
// root). A "." or ".." segment, an absolute path, a backslash or a control
// character is refused: paths name tree entries, never the filesystem.
func CleanPath(p string) (string, error) {
	if strings.HasPrefix(p, "/") || len(p) > 4096 || !utf8.ValidString(p) || strings.ContainsRune(p, '\\') {
		return "", fmt.Errorf("%w: %q", ErrInvalidPath, p)
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("%w: control characters are not allowed", ErrInvalidPath)
		}
	}
	var parts []string
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "":
			continue
		case ".", "..":
			return "", fmt.Errorf("%w: %q has a %q segment", ErrInvalidPath, p, seg)
		}
		parts = append(parts, seg)
	}
	return strings.Join(parts, "/"), nil
}
