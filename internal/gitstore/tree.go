package gitstore

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
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
	if !recursive {
		// One directory is read through the cat-file pool; a process of
		// its own only when the pool has no room or the tree is too big.
		entries, err := lsTreePooled(ctx, dir, treeish, base)
		if !errors.Is(err, errBatchFull) && !errors.Is(err, errTooBig) {
			return entries, err
		}
	}
	return lsTreeProcess(ctx, dir, treeish, base, recursive)
}

// lsTreeProcesses counts the ls-tree processes started, for tests.
var lsTreeProcesses atomic.Int64

// lsTreeProcess is `git ls-tree -l` in a process of its own.
func lsTreeProcess(ctx context.Context, dir, treeish, base string, recursive bool) ([]Entry, error) {
	lsTreeProcesses.Add(1)
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

// lsTreePooled is `ls-tree -l treeish` through a pooled cat-file: the
// tree treeish names (an id, "<id>^{tree}" or "<commit>:<path>"), parsed
// here, with its blobs' sizes asked for in one round.
func lsTreePooled(ctx context.Context, dir, treeish, base string) ([]Entry, error) {
	if strings.ContainsAny(treeish, "\n") {
		return nil, errBatchFull // not a name the line protocol can carry
	}
	var entries []Entry
	err := withBatch(ctx, dir, func(b *batch) error {
		infos, err := b.infos([]string{treeish})
		if err != nil {
			return err
		}
		if infos[0].missing || infos[0].typ != "tree" {
			return errNoObject
		}
		data, err := b.read(infos[0].id, "tree")
		if err != nil {
			return err
		}
		if entries, err = parseTree(data, len(infos[0].id)/2, base); err != nil {
			return err
		}
		return blobSizes(b, entries)
	})
	if errors.Is(err, errNoObject) {
		return nil, fmt.Errorf("list tree %s: %w", treeish, ErrPathNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("list tree %s: %w", treeish, err)
	}
	return entries, nil
}

// parseTree reads a tree object: entries of "<octal mode> <name>\0" and
// the entry's raw id (idLen bytes), in git's order.
func parseTree(data []byte, idLen int, base string) ([]Entry, error) {
	var entries []Entry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp <= 0 || nul < sp || len(data) < nul+1+idLen {
			return nil, fmt.Errorf("parse tree: a malformed entry")
		}
		mode := string(data[:sp])
		if len(mode) < 6 {
			mode = strings.Repeat("0", 6-len(mode)) + mode // ls-tree's 040000
		}
		e := Entry{Mode: mode, Name: string(data[sp+1 : nul]), ID: hex.EncodeToString(data[nul+1 : nul+1+idLen])}
		switch e.Mode {
		case "040000":
			e.Type = "tree"
		case "160000":
			e.Type = "commit"
		default:
			e.Type = "blob"
		}
		e.Path = e.Name
		if base != "" {
			e.Path = base + "/" + e.Name
		}
		entries = append(entries, e)
		data = data[nul+1+idLen:]
	}
	return entries, nil
}

// blobSizes fills in the size of each blob entry, as ls-tree -l does.
func blobSizes(b *batch, entries []Entry) error {
	var ids []string
	var at []int
	for i, e := range entries {
		if e.Type == "blob" {
			ids, at = append(ids, e.ID), append(at, i)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	infos, err := b.infos(ids)
	if err != nil {
		return err
	}
	for k, info := range infos {
		if info.missing {
			// ls-tree -l fails on a tree whose blob is missing, too.
			return fmt.Errorf("blob %s of the tree is missing", ids[k])
		}
		entries[at[k]].Size = info.size
	}
	return nil
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
