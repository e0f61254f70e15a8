package replica

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// quarantine is a temporary object directory inside a repository's
// objects, as receive-pack keeps a push's: fetched objects land there, git
// reads the repository's own through it (as alternates), and they join
// the repository only once verified (migrate). Until then no reader of the
// repository sees them.
type quarantine struct {
	repo string // the repository
	path string // objects/incoming-replica-<random>
}

func newQuarantine(repo string) (*quarantine, error) {
	suffix := make([]byte, 6)
	rand.Read(suffix)
	q := &quarantine{repo: repo, path: filepath.Join(repo, "objects", "incoming-replica-"+hex.EncodeToString(suffix))}
	if err := os.MkdirAll(filepath.Join(q.path, "pack"), 0o755); err != nil {
		return nil, fmt.Errorf("make a quarantine for fetched objects: %w", err)
	}
	return q, nil
}

// env is git's environment to read and write through q; nil reads the
// repository alone.
func (q *quarantine) env() []string {
	if q == nil {
		return nil
	}
	return []string{"GIT_OBJECT_DIRECTORY=" + q.path, "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + filepath.Join(q.repo, "objects")}
}

// migrate moves q's objects into the repository: each pack's data before
// its index (which makes git see it), then loose objects (a small fetch's).
// An object the repository has already is left as it is.
func (q *quarantine) migrate() error {
	objects := filepath.Join(q.repo, "objects")
	packs, err := os.ReadDir(filepath.Join(q.path, "pack"))
	if err != nil {
		return fmt.Errorf("read fetched packs: %w", err)
	}
	var files []string
	for _, e := range packs {
		if packRank(e.Name()) > 0 {
			files = append(files, filepath.Join("pack", e.Name()))
		}
	}
	slices.SortFunc(files, func(a, b string) int { return packRank(a) - packRank(b) })
	loose, err := q.looseFiles()
	if err != nil {
		return err
	}
	for _, f := range append(files, loose...) {
		dst := filepath.Join(objects, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("move fetched objects: %w", err)
		}
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Rename(filepath.Join(q.path, f), dst); err != nil {
			return fmt.Errorf("move fetched objects: %w", err)
		}
	}
	return nil
}

// looseFiles lists q's loose objects, xx/yyyy….
func (q *quarantine) looseFiles() ([]string, error) {
	var out []string
	err := filepath.WalkDir(q.path, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(q.path, path)
		if d.IsDir() {
			if rel != "." && (len(rel) != 2 || !isHexString(rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		if isHexString(d.Name()) && len(d.Name()) == 38 {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list fetched objects: %w", err)
	}
	return out, nil
}

// discard removes what is left of q.
func (q *quarantine) discard() { os.RemoveAll(q.path) }

// packRank orders a pack's files as git moves them; 0 is not one to move
// (.keep, .promisor, temporary files).
func packRank(name string) int {
	switch filepath.Ext(name) {
	case ".pack":
		return 1
	case ".rev":
		return 2
	case ".idx":
		return 3
	}
	return 0
}

func isHexString(s string) bool { return s != "" && strings.Trim(s, "0123456789abcdef") == "" }
