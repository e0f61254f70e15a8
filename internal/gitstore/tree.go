package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Trees: the entries of a directory at a commit, and one entry by path.

// Entry is one entry of a tree.
type Entry struct {
	Name string
	Path string // from the root of the repository
	Mode string // git's octal mode: 100644, 100755, 120000, 040000, 160000
	Type string // blob, tree or commit (a submodule)
	ID   string
	Size int64 // of a blob; 0 for trees and submodules
}

// Kind is the entry as Gitea's contents API names it: file, dir, symlink
// or submodule.
func (e Entry) Kind() string {
	switch {
	case e.Type == "tree":
		return "dir"
	case e.Type == "commit":
		return "submodule"
	case e.Mode == "120000":
		return "symlink"
	}
	return "file"
}

// lsTree lists the tree named by treeish ("<commit>:<path>" or an id),
// recursively when asked, with blob sizes. A tree named through a full id
// never changes: its listing is cached, and each caller gets its own copy.
func lsTree(ctx context.Context, dir, treeish, base string, recursive bool) ([]Entry, error) {
	if !immutableRev(treeish) {
		return lsTreeGit(ctx, dir, treeish, base, recursive)
	}
	entries, err := cachedIn(dir, cacheKey("ls-tree", dir, treeish, base, strconv.FormatBool(recursive)), func() ([]Entry, error) {
		return lsTreeGit(ctx, dir, treeish, base, recursive)
	}, entriesSize)
	return slices.Clone(entries), err
}

func lsTreeGit(ctx context.Context, dir, treeish, base string, recursive bool) ([]Entry, error) {
	args := []string{"ls-tree", "-z", "-l"}
	if recursive {
		args = append(args, "-r", "-t")
	}
	out, err := read(ctx, dir, nil, append(args, "--end-of-options", treeish)...)
	if err != nil {
		return nil, fmt.Errorf("list tree %s: %w", treeish, err)
	}
	var entries []Entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		// "<mode> SP <type> SP <id> SP+ <size> TAB <name>"
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 4 {
			return nil, fmt.Errorf("ls-tree: unexpected line %q", rec)
		}
		size, _ := strconv.ParseInt(f[3], 10, 64) // "-" for trees
		e := Entry{Mode: f[0], Type: f[1], ID: f[2], Size: size, Path: string(name)}
		if base != "" {
			e.Path = base + "/" + e.Path
		}
		e.Name = e.Path[strings.LastIndexByte(e.Path, '/')+1:]
		entries = append(entries, e)
	}
	return entries, nil
}

// Tree lists the directory at path (clean, "" for the root) of commit,
// directories first, then by name.
func Tree(ctx context.Context, dir, commit, path string) ([]Entry, error) {
	e, err := Stat(ctx, dir, commit, path)
	if err != nil {
		return nil, err
	}
	if e.Type != "tree" {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrPathNotFound, path)
	}
	entries, err := lsTree(ctx, dir, e.ID, path, false)
	if err != nil {
		return nil, err
	}
	sortEntries(entries)
	return entries, nil
}

func sortEntries(entries []Entry) {
	slices.SortStableFunc(entries, func(a, b Entry) int {
		if (a.Type == "tree") != (b.Type == "tree") {
			if a.Type == "tree" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// TreeByID lists the tree id names (a tree, or a commit's tree), all of
// it when recursive, as git stores it (by name).
func TreeByID(ctx context.Context, dir, id string, recursive bool) ([]Entry, error) {
	if !hexID.MatchString(id) {
		return nil, fmt.Errorf("%w: %q is not an object id", ErrInvalidRef, id)
	}
	if _, ok, err := verifyType(ctx, dir, id, "tree"); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("%w: no tree %s", ErrRefNotFound, id)
	}
	return lsTree(ctx, dir, id+"^{tree}", "", recursive)
}

// Stat finds the entry at path (clean) of commit; the root is a tree
// entry named "".
func Stat(ctx context.Context, dir, commit, path string) (Entry, error) {
	if path == "" {
		tree, ok, err := verifyType(ctx, dir, commit, "tree")
		if err != nil || !ok {
			return Entry{}, fmt.Errorf("%w: commit %s has no tree", ErrRefNotFound, commit)
		}
		return Entry{Mode: "040000", Type: "tree", ID: tree}, nil
	}
	parent, name := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		parent, name = path[:i], path[i+1:]
	}
	entries, err := lsTree(ctx, dir, commit+":"+parent, parent, false)
	if err != nil {
		// The parent is missing or is not a directory.
		return Entry{}, fmt.Errorf("%w: %s", ErrPathNotFound, path)
	}
	for _, e := range entries {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("%w: %s", ErrPathNotFound, path)
}
