package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Writing files without a working tree: the contents API's commits are
// built with plumbing only (hash-object, a temporary index filled by
// read-tree and update-index, write-tree, commit-tree), so a bare
// repository is never checked out and concurrent writes never share an
// index. Moving a branch to the commit is the caller's step (MoveRef,
// compare-and-swap), after the chain has taken the update.

// Operations of a FileWrite.
const (
	OpCreate = "create"
	OpUpdate = "update"
	OpDelete = "delete"
)

// FileWrite is one file of a commit: created, updated (optionally moved
// from FromPath) or deleted. SHA, for update and delete, is the blob the
// writer last saw; a file that changed since is refused (ErrStaleFile).
type FileWrite struct {
	Op       string
	Path     string
	FromPath string
	Content  []byte
	SHA      string
}

// WriteOptions is one commit of file changes on top of Parent ("" for a
// first commit).
type WriteOptions struct {
	Parent    string
	Changes   []FileWrite
	Message   string
	Author    Signature
	Committer Signature
}

// FileError is a change refused for the state of the file it names.
type FileError struct {
	Path string
	Err  error // ErrFileExists, ErrFileMissing or ErrStaleFile
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

var (
	ErrFileExists  = errors.New("a file or directory already exists at this path")
	ErrFileMissing = errors.New("there is no such file at this ref")
	ErrStaleFile   = errors.New("the file changed since: its sha is not the one given")
)

// WriteFiles writes o's commit into dir's objects and returns its id; no
// ref moves.
func WriteFiles(ctx context.Context, dir string, o WriteOptions) (string, error) {
	index, err := tempIndex(dir)
	if err != nil {
		return "", err
	}
	defer os.Remove(index)
	env := []string{"GIT_INDEX_FILE=" + index}
	// 1. The parent's tree in the temporary index.
	if o.Parent != "" {
		_, err = run(ctx, dir, env, nil, "read-tree", o.Parent)
	} else {
		_, err = run(ctx, dir, env, nil, "read-tree", "--empty")
	}
	if err != nil {
		return "", fmt.Errorf("read the parent tree: %w", err)
	}
	// 2. Each change, checked against the parent's tree.
	for _, c := range o.Changes {
		if err := applyChange(ctx, dir, env, o.Parent, c); err != nil {
			return "", err
		}
	}
	// 3. The tree and the commit.
	tree, err := run(ctx, dir, env, nil, "write-tree")
	if err != nil {
		return "", fmt.Errorf("write the tree: %w", err)
	}
	var parents []string
	if o.Parent != "" {
		parents = append(parents, o.Parent)
	}
	id, err := commitTree(ctx, dir, tree, o.Message, o.Author, o.Committer, parents...)
	if err != nil {
		return "", fmt.Errorf("write the commit: %w", err)
	}
	return id, nil
}

// tempIndex is a fresh index file name in dir, not yet created (git
// makes it).
func tempIndex(dir string) (string, error) {
	f, err := os.CreateTemp(dir, "dforge-index-*")
	if err != nil {
		return "", fmt.Errorf("make a temporary index: %w", err)
	}
	name := f.Name()
	f.Close()
	// An empty file is not a valid index: git wants it absent.
	if err := os.Remove(name); err != nil {
		return "", fmt.Errorf("make a temporary index: %w", err)
	}
	return filepath.Clean(name), nil
}

func applyChange(ctx context.Context, dir string, env []string, parent string, c FileWrite) error {
	cur, err := entryAt(ctx, dir, parent, c.Path)
	if err != nil {
		return err
	}
	switch c.Op {
	case OpCreate:
		if cur.ID != "" || hasFileAbove(ctx, dir, parent, c.Path) {
			return &FileError{Path: c.Path, Err: ErrFileExists}
		}
		return addBlob(ctx, dir, env, c.Path, "100644", c.Content)
	case OpDelete:
		if cur.Type != "blob" {
			return &FileError{Path: c.Path, Err: ErrFileMissing}
		}
		if c.SHA != "" && c.SHA != cur.ID {
			return &FileError{Path: c.Path, Err: ErrStaleFile}
		}
		return removePath(ctx, dir, env, c.Path)
	case OpUpdate:
		return updateFile(ctx, dir, env, parent, cur, c)
	}
	return fmt.Errorf("unknown file operation %q", c.Op)
}

// updateFile replaces a file's content, at its path or moved from
// FromPath; the file's mode (executable, say) is kept.
func updateFile(ctx context.Context, dir string, env []string, parent string, cur Entry, c FileWrite) error {
	from := cur
	if c.FromPath != "" && c.FromPath != c.Path {
		var err error
		if from, err = entryAt(ctx, dir, parent, c.FromPath); err != nil {
			return err
		}
		if from.Type != "blob" {
			return &FileError{Path: c.FromPath, Err: ErrFileMissing}
		}
		if cur.ID != "" || hasFileAbove(ctx, dir, parent, c.Path) {
			return &FileError{Path: c.Path, Err: ErrFileExists}
		}
		if err := removePath(ctx, dir, env, c.FromPath); err != nil {
			return err
		}
	} else if from.Type != "blob" {
		return &FileError{Path: c.Path, Err: ErrFileMissing}
	}
	if c.SHA != "" && c.SHA != from.ID {
		return &FileError{Path: c.Path, Err: ErrStaleFile}
	}
	return addBlob(ctx, dir, env, c.Path, from.Mode, c.Content)
}

// entryAt is path's entry in commit, the zero Entry when absent.
func entryAt(ctx context.Context, dir, commit, path string) (Entry, error) {
	if commit == "" {
		return Entry{}, nil
	}
	e, err := Stat(ctx, dir, commit, path)
	if errors.Is(err, ErrPathNotFound) {
		return Entry{}, nil
	}
	if err != nil {
		return Entry{}, fmt.Errorf("read %s: %w", path, err)
	}
	return e, nil
}

// hasFileAbove reports whether a parent directory of path is a file in
// commit (a/b cannot be created where a is a file).
func hasFileAbove(ctx context.Context, dir, commit, path string) bool {
	for p := filepath.ToSlash(filepath.Dir(path)); p != "." && p != "/" && p != ""; p = filepath.ToSlash(filepath.Dir(p)) {
		if e, err := entryAt(ctx, dir, commit, p); err == nil && e.ID != "" && e.Type != "tree" {
			return true
		}
	}
	return false
}

func addBlob(ctx context.Context, dir string, env []string, path, mode string, content []byte) error {
	id, err := run(ctx, dir, nil, bytes.NewReader(content), "hash-object", "-w", "--stdin")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if mode == "" || mode == "040000" {
		mode = "100644"
	}
	if _, err := run(ctx, dir, env, nil, "update-index", "--add", "--cacheinfo", mode+","+strings.TrimSpace(id)+","+path); err != nil {
		return fmt.Errorf("stage %s: %w", path, err)
	}
	return nil
}

func removePath(ctx context.Context, dir string, env []string, path string) error {
	// --force-remove wants a work tree; mode 0 in --index-info removes.
	line := "0 0000000000000000000000000000000000000000\t" + path + "\n"
	if _, err := run(ctx, dir, env, strings.NewReader(line), "update-index", "--index-info"); err != nil {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}
