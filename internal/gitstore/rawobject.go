package gitstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrNoObject is an object the repository does not hold (or one over the
// limit ReadObject was given).
var ErrNoObject = errors.New("no such object")

// ReadObject reads object id (a full id) whole, whatever its type, and
// returns its type and content: through the pool of cat-file processes
// (catfile.go) when it is at most 1 MiB and there is room, else through a
// process of its own, which reads at most limit bytes of content. The
// content is what git has stored: git does not check it against its id,
// so a caller that serves it by id checks it. The blockstore serves public
// objects from git this way (internal/blocks).
func ReadObject(ctx context.Context, dir, id string, limit int64) (typ string, content []byte, err error) {
	if !isFullID(id) {
		return "", nil, fmt.Errorf("%w: %q is not a full object id", ErrInvalidRef, id)
	}
	err = withBatch(ctx, dir, func(b *batch) (err error) {
		typ, content, err = b.readAny(id)
		return err
	})
	switch {
	case ctx.Err() != nil:
		return "", nil, fmt.Errorf("read object %s: %w", id, ctx.Err())
	case err == nil:
		return typ, content, nil
	case errors.Is(err, errNoObject):
		return "", nil, fmt.Errorf("read object %s: %w", id, ErrNoObject)
	case errors.Is(err, errTooBig), errors.Is(err, errBatchFull):
		return readObjectOnce(ctx, dir, id, limit)
	}
	return "", nil, fmt.Errorf("read object %s: %w", id, err)
}

// readAny is read for an object of any type.
func (b *batch) readAny(id string) (string, []byte, error) {
	if _, err := io.WriteString(b.stdin, "contents "+id+"\n"); err != nil {
		return "", nil, fmt.Errorf("write to cat-file: %w", err)
	}
	info, err := b.header()
	if err != nil {
		return "", nil, err
	}
	if info.missing {
		return "", nil, errNoObject
	}
	if info.size > maxBatchRead {
		return "", nil, errTooBig // the process is stopped, not drained
	}
	data := make([]byte, info.size+1)
	if _, err := io.ReadFull(b.out, data); err != nil {
		return "", nil, fmt.Errorf("read from cat-file: %w", err)
	}
	return info.typ, data[:info.size], nil
}

// readObjectOnce reads the object by a `cat-file --batch` of its own.
func readObjectOnce(ctx context.Context, dir, id string, limit int64) (string, []byte, error) {
	ctx, cancel := withTimeout(ctx, streamTimeout)
	defer cancel()
	cmd := Command(ctx, dir, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(id + "\n")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, fmt.Errorf("pipe cat-file: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start cat-file: %w", err)
	}
	defer cmd.Wait()
	defer cancel() // stops git before Wait when we leave early
	b := &batch{out: bufio.NewReader(out)}
	info, err := b.header()
	if err != nil {
		return "", nil, fmt.Errorf("read object %s: %w", id, err)
	}
	if info.missing || info.size > limit {
		return "", nil, fmt.Errorf("read object %s: %w", id, ErrNoObject)
	}
	data := make([]byte, info.size)
	if _, err := io.ReadFull(b.out, data); err != nil {
		return "", nil, fmt.Errorf("read object %s: %w", id, err)
	}
	return info.typ, data, nil
}
