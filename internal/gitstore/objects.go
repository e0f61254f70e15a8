package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Ref is a reference and the object it points at.
type Ref struct {
	Name string
	ID   string
}

// Refs lists the repository's references.
func Refs(ctx context.Context, dir string) ([]Ref, error) {
	out, err := run(ctx, dir, nil, nil, "for-each-ref", "--format=%(objectname) %(refname)")
	if err != nil {
		return nil, fmt.Errorf("list refs: %w", err)
	}
	var refs []Ref
	for _, line := range strings.Split(out, "\n") {
		id, name, ok := strings.Cut(line, " ")
		if ok {
			refs = append(refs, Ref{Name: name, ID: id})
		}
	}
	return refs, nil
}

// Object is one git object, its content streamed from git.
type Object struct {
	ID   string // hex object id
	Type string // blob, tree, commit or tag
	Size int64  // of the content, without the header
	Body io.Reader
}

// WalkObjects calls fn for every object reachable from the include ids and
// not from the exclude ids (`git rev-list --objects`), skipping those skip
// says are done already. Objects stream from `git cat-file --batch`, so an
// object of any size passes through a fixed-size buffer; fn must read Body
// before returning if it wants it.
func WalkObjects(ctx context.Context, dir string, include, exclude []string, skip func(id string) bool, fn func(Object) error) error {
	if len(include) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// 1. The object list: ids on stdin, so any number of refs fits.
	var revs strings.Builder
	for _, id := range include {
		revs.WriteString(id + "\n")
	}
	for _, id := range exclude {
		revs.WriteString("^" + id + "\n")
	}
	revList := Command(ctx, dir, "rev-list", "--objects", "--stdin")
	revList.Stdin = strings.NewReader(revs.String())
	var revErr bytes.Buffer
	revList.Stderr = &revErr
	listed, err := revList.StdoutPipe()
	if err != nil {
		return fmt.Errorf("pipe rev-list: %w", err)
	}
	// 2. The objects themselves.
	catFile := Command(ctx, dir, "cat-file", "--batch", "--buffer")
	var catErr bytes.Buffer
	catFile.Stderr = &catErr
	wanted, err := catFile.StdinPipe()
	if err != nil {
		return fmt.Errorf("pipe cat-file: %w", err)
	}
	objects, err := catFile.StdoutPipe()
	if err != nil {
		return fmt.Errorf("pipe cat-file: %w", err)
	}
	if err := revList.Start(); err != nil {
		return fmt.Errorf("start rev-list: %w", err)
	}
	if err := catFile.Start(); err != nil {
		cancel()
		revList.Wait()
		return fmt.Errorf("start cat-file: %w", err)
	}
	// 3. Feed the list to cat-file while reading its answers here.
	fed := make(chan error, 1)
	go func() { fed <- feed(listed, wanted, skip) }()
	walkErr := readObjects(objects, fn)
	if walkErr != nil {
		cancel() // stop both processes; the feeder then fails on its pipe
	}
	feedErr := <-fed
	revWait := revList.Wait()
	catWait := catFile.Wait()
	switch {
	case walkErr != nil:
		return walkErr
	case revWait != nil:
		return fmt.Errorf("git rev-list: %w: %s", revWait, strings.TrimSpace(revErr.String()))
	case feedErr != nil:
		return fmt.Errorf("list objects: %w", feedErr)
	case catWait != nil:
		return fmt.Errorf("git cat-file: %w: %s", catWait, strings.TrimSpace(catErr.String()))
	}
	return nil
}

// feed passes the ids rev-list prints ("<id>" or "<id> <path>") to cat-file.
func feed(listed io.Reader, wanted io.WriteCloser, skip func(string) bool) error {
	w := bufio.NewWriter(wanted)
	sc := bufio.NewScanner(listed)
	sc.Buffer(make([]byte, 64*1024), 1<<20) // a path can be long
	var err error
	for sc.Scan() {
		id, _, _ := strings.Cut(sc.Text(), " ")
		if id == "" || (skip != nil && skip(id)) {
			continue
		}
		if _, err = w.WriteString(id + "\n"); err != nil {
			break
		}
	}
	if err == nil {
		err = sc.Err()
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := wanted.Close(); err == nil {
		err = cerr
	}
	io.Copy(io.Discard, listed) // let rev-list finish if we stopped early
	return err
}

// readObjects parses cat-file --batch output: "<id> <type> <size>\n",
// the content, "\n"; or "<id> missing\n".
func readObjects(r io.Reader, fn func(Object) error) error {
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		header, err := br.ReadString('\n')
		if errors.Is(err, io.EOF) && header == "" {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read object header: %w", err)
		}
		fields := strings.Fields(header)
		if len(fields) != 3 {
			return fmt.Errorf("cat-file: %s", strings.TrimSpace(header))
		}
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil || size < 0 {
			return fmt.Errorf("cat-file: bad size in %q", strings.TrimSpace(header))
		}
		body := io.LimitReader(br, size)
		if err := fn(Object{ID: fields[0], Type: fields[1], Size: size, Body: body}); err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, body); err != nil {
			return fmt.Errorf("read object %s: %w", fields[0], err)
		}
		if b, err := br.ReadByte(); err != nil || b != '\n' {
			return fmt.Errorf("read object %s: missing terminator", fields[0])
		}
	}
}
