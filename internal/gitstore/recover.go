package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// What a node killed in the middle of git's work leaves behind, and the
// means to bring a repository's refs to the values the chain holds. Only
// run while nothing else uses the repositories (at start).

// Location is a repository on disk.
type Location struct {
	Owner string // the owner's directory: a lowercase address
	ID    string // the repository id
	Path  string
}

// List lists the repositories in the store.
func (s *Store) List() ([]Location, error) {
	found, err := filepath.Glob(filepath.Join(s.root, "*", "*.git"))
	if err != nil {
		return nil, fmt.Errorf("list repositories: %w", err)
	}
	var out []Location
	for _, p := range found {
		owner, id := filepath.Base(filepath.Dir(p)), strings.TrimSuffix(filepath.Base(p), ".git")
		if !ownerRule.MatchString(owner) || !idRule.MatchString(id) {
			continue
		}
		if _, err := os.Stat(filepath.Join(p, "HEAD")); err != nil {
			continue
		}
		out = append(out, Location{Owner: owner, ID: id, Path: p})
	}
	return out, nil
}

// RemoveDebris removes the half-made and half-deleted repositories that
// Create, Fork and Delete leave when killed (<owner>/.new-*,
// <owner>/.deleted-*), and returns what it removed.
func (s *Store) RemoveDebris() ([]string, error) {
	var removed []string
	for _, pattern := range []string{".new-*", ".deleted-*"} {
		found, err := filepath.Glob(filepath.Join(s.root, "*", pattern))
		if err != nil {
			return removed, err
		}
		for _, p := range found {
			if err := os.RemoveAll(p); err != nil {
				return removed, fmt.Errorf("remove %s: %w", p, err)
			}
			removed = append(removed, p)
		}
	}
	return removed, nil
}

// RemoveDebris removes from the repository at dir what git leaves when
// killed: receive-pack's quarantines of unfinished pushes, lock files
// (which would refuse every later update of their ref), temporary object
// and pack files, the node's own temporary files, and the .keep files
// receive-pack makes while it updates refs. It returns what it removed.
func RemoveDebris(dir string) ([]string, error) {
	var removed []string
	remove := func(p string) error {
		if err := os.RemoveAll(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		removed = append(removed, p)
		return nil
	}
	objects := filepath.Join(dir, "objects")
	for _, pattern := range []string{
		filepath.Join(objects, "tmp_objdir-incoming-*"), filepath.Join(objects, "incoming-*"),
		filepath.Join(objects, "pack", "tmp_*"), filepath.Join(objects, "pack", ".tmp-*"),
		filepath.Join(objects, "??", "tmp_obj_*"),
		filepath.Join(dir, "*.lock"), filepath.Join(dir, ".tmp-*"),
	} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			return removed, err
		}
		for _, p := range found {
			if err := remove(p); err != nil {
				return removed, err
			}
		}
	}
	keeps, _ := filepath.Glob(filepath.Join(objects, "pack", "pack-*.keep"))
	for _, k := range keeps {
		if b, err := os.ReadFile(k); err == nil && bytes.HasPrefix(b, []byte("receive-pack ")) {
			if err := remove(k); err != nil {
				return removed, err
			}
		}
	}
	err := filepath.WalkDir(filepath.Join(dir, "refs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".lock") {
			return remove(p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return removed, err
	}
	return removed, nil
}

// HasObjects reports which of ids the repository has (one git process).
func HasObjects(ctx context.Context, dir string, ids []string) (map[string]bool, error) {
	has := map[string]bool{}
	if len(ids) == 0 {
		return has, nil
	}
	var in strings.Builder
	for _, id := range ids {
		in.WriteString(id + "\n")
	}
	out, err := run(ctx, dir, nil, strings.NewReader(in.String()), "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return nil, fmt.Errorf("check objects: %w", err)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[1] != "missing" {
			has[f[0]] = true
		}
	}
	return has, nil
}

// RefMove moves Ref from Old to New; ZeroID as Old means the ref must not
// exist, as New that it is deleted.
type RefMove struct {
	Ref, Old, New string
}

// UpdateRefs applies moves in one transaction (`git update-ref --stdin`):
// all or none, each only from its Old value.
func UpdateRefs(ctx context.Context, dir string, moves []RefMove) error {
	if len(moves) == 0 {
		return nil
	}
	var in strings.Builder
	in.WriteString("start\n")
	for _, m := range moves {
		if m.New == ZeroID {
			fmt.Fprintf(&in, "delete %s %s\n", m.Ref, m.Old)
		} else {
			fmt.Fprintf(&in, "update %s %s %s\n", m.Ref, m.New, m.Old)
		}
	}
	in.WriteString("commit\n")
	if _, err := run(ctx, dir, nil, strings.NewReader(in.String()), "update-ref", "--stdin"); err != nil {
		return fmt.Errorf("update refs: %w", err)
	}
	return nil
}
