package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// LargeObjects calls fn for each object of the object directory objects
// (a push's quarantine, GIT_QUARANTINE_PATH, inside the repository dir)
// that large says is large, given its type and content size, streaming
// its content. Only that directory is read, not the repository's own
// objects: it lists what a push brought without walking its history. The
// large objects are read by up to workers git processes at once, so fn
// must be safe to call concurrently.
func LargeObjects(ctx context.Context, dir, objects string, workers int, large func(kind string, size int64) bool, fn func(Object) error) error {
	env := "GIT_OBJECT_DIRECTORY=" + objects
	// 1. Every object there, by type and size: the pack's index and each
	// entry's header, no content inflated.
	list := Command(ctx, dir, "cat-file", "--batch-all-objects", "--unordered", "--batch-check=%(objectname) %(objecttype) %(objectsize)")
	list.Env = append(list.Env, env)
	var stderr bytes.Buffer
	list.Stderr = &stderr
	out, err := list.Output()
	if err != nil {
		return fmt.Errorf("list pushed objects: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	var ids []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			return fmt.Errorf("list pushed objects: bad line %q", sc.Text())
		}
		size, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return fmt.Errorf("list pushed objects: bad line %q", sc.Text())
		}
		if large(f[1], size) {
			ids = append(ids, f[0])
		}
	}
	// 2. The large ones' content, a share to each worker.
	workers = max(1, min(workers, len(ids)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, workers)
	for w := range workers {
		var share strings.Builder
		for i := w; i < len(ids); i += workers {
			share.WriteString(ids[i] + "\n")
		}
		go func() {
			err := readLarge(ctx, dir, env, share.String(), fn)
			if err != nil {
				cancel() // the others stop too
			}
			errs <- err
		}()
	}
	var first error
	for range workers {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// readLarge streams the objects named in ids (one per line) to fn.
func readLarge(ctx context.Context, dir, env, ids string, fn func(Object) error) error {
	if ids == "" {
		return nil
	}
	read := Command(ctx, dir, "cat-file", "--batch")
	read.Env = append(read.Env, env)
	read.Stdin = strings.NewReader(ids)
	var stderr bytes.Buffer
	read.Stderr = &stderr
	content, err := read.StdoutPipe()
	if err != nil {
		return fmt.Errorf("pipe cat-file: %w", err)
	}
	if err := read.Start(); err != nil {
		return fmt.Errorf("start cat-file: %w", err)
	}
	readErr := readObjects(content, fn)
	if readErr != nil {
		read.Process.Kill()
	}
	waitErr := read.Wait()
	switch {
	case readErr != nil:
		return readErr
	case waitErr != nil:
		return fmt.Errorf("git cat-file: %w: %s", waitErr, strings.TrimSpace(stderr.String()))
	}
	return nil
}
