package gitstore

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A push's ref updates go on chain before git moves the refs, and the
// chain must only ever name objects a node holds durably. While the
// pre-receive hook runs, the pushed objects are in receive-pack's
// quarantine (objects/tmp_objdir-incoming-*), which git deletes if the
// node dies. StagePush makes them durable first: it hard-links the
// quarantine's files into the repository's own object directory (a pack
// and its index cost two links, no copy) and fsyncs them. When git later
// migrates the quarantine it finds each file there already and counts it
// as moved (finalize_object_file takes EEXIST as done; git 2.39 checked).
//
// A journal in the repository (dforge-push-*.json, written and synced
// before the first link) lists the files the staging created and the
// updates they carry, so that after a crash the node can tell staged
// objects the chain took (kept) from those of a push that never committed
// (removed).

// journalPrefix names push journals in a repository's directory.
const journalPrefix = "dforge-push-"

// StagedRef is one ref update of a staged push.
type StagedRef struct {
	Ref string `json:"ref"`
	Old string `json:"old"`
	New string `json:"new"`
}

// Staged is a push whose objects are linked into its repository.
type Staged struct {
	Dir     string      `json:"-"`
	Journal string      `json:"-"` // absolute path of the journal
	Updates []StagedRef `json:"updates"`
	// Files are the links the staging made, relative to Dir, in the order
	// made (packs before their indexes).
	Files []string `json:"files"`
}

// stageLocks serialise stagings per repository, so two pushes bringing a
// file of the same name (identical packs) never both claim it.
var stageLocks sync.Map // dir -> *sync.Mutex

// StagePush links the objects of the quarantine directory quarantine
// (receive-pack's GIT_QUARANTINE_PATH, inside dir's objects) into dir's
// object directory and syncs them to disk. A file dir has already is
// left alone and not claimed.
func StagePush(dir, quarantine string, updates []StagedRef) (*Staged, error) {
	objects := filepath.Join(dir, "objects")
	q := filepath.Clean(quarantine)
	if filepath.Dir(q) != filepath.Clean(objects) || !strings.HasPrefix(filepath.Base(q), "tmp_objdir-incoming-") {
		return nil, fmt.Errorf("quarantine %q is not a push quarantine of %s", quarantine, dir)
	}
	mu, _ := stageLocks.LoadOrStore(dir, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()

	// 1. What the quarantine holds that the repository does not.
	files, err := quarantineFiles(q)
	if err != nil {
		return nil, err
	}
	st := &Staged{Dir: dir, Updates: updates}
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(objects, f)); errors.Is(err, fs.ErrNotExist) {
			st.Files = append(st.Files, filepath.ToSlash(filepath.Join("objects", f)))
		}
	}
	if len(st.Files) == 0 {
		return st, nil // a deletion, or objects the repository has: nothing to journal
	}
	// 2. The journal, then the links, then their data and directories on disk.
	if err := st.writeJournal(); err != nil {
		return nil, err
	}
	dirs := map[string]bool{}
	for _, f := range st.Files {
		dst := filepath.Join(dir, filepath.FromSlash(f))
		src := filepath.Join(q, strings.TrimPrefix(f, "objects/"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return st, fmt.Errorf("stage pushed objects: %w", err)
		}
		if err := os.Link(src, dst); err != nil && !errors.Is(err, fs.ErrExist) {
			return st, fmt.Errorf("stage pushed objects: %w", err)
		}
		if err := syncPath(dst); err != nil {
			return st, fmt.Errorf("sync staged objects: %w", err)
		}
		dirs[filepath.Dir(dst)] = true
	}
	dirs[objects] = len(dirs) > 0
	for d, ok := range dirs {
		if ok {
			if err := syncPath(d); err != nil {
				return st, fmt.Errorf("sync staged objects: %w", err)
			}
		}
	}
	return st, nil
}

// quarantineFiles lists the object files of a quarantine, relative to it:
// packs (the .pack, then .rev, then .idx, which makes a pack visible to
// git) and loose objects. Keep files and git's temporary files are not
// objects.
func quarantineFiles(q string) ([]string, error) {
	var packs, loose []string
	entries, err := os.ReadDir(q)
	if err != nil {
		return nil, fmt.Errorf("read quarantine: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == "pack" && e.IsDir():
			list, err := os.ReadDir(filepath.Join(q, name))
			if err != nil {
				return nil, fmt.Errorf("read quarantine: %w", err)
			}
			for _, p := range list {
				if strings.HasPrefix(p.Name(), "pack-") && packRank(p.Name()) > 0 {
					packs = append(packs, "pack/"+p.Name())
				}
			}
		case len(name) == 2 && isHex(name) && e.IsDir():
			list, err := os.ReadDir(filepath.Join(q, name))
			if err != nil {
				return nil, fmt.Errorf("read quarantine: %w", err)
			}
			for _, o := range list {
				if isHex(o.Name()) && (len(o.Name()) == 38 || len(o.Name()) == 62) {
					loose = append(loose, name+"/"+o.Name())
				}
			}
		}
	}
	slices.SortFunc(packs, func(a, b string) int {
		if d := packRank(a) - packRank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	slices.Sort(loose)
	return append(packs, loose...), nil
}

// packRank orders a pack's files as git migrates them; 0 is not an object
// file (.keep, .promisor, temporary files).
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

func isHex(s string) bool { return s != "" && strings.Trim(s, "0123456789abcdef") == "" }

func (st *Staged) writeJournal() error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encode push journal: %w", err)
	}
	name := make([]byte, 8)
	rand.Read(name)
	st.Journal = filepath.Join(st.Dir, journalPrefix+hex.EncodeToString(name)+".json")
	if err := writeSynced(st.Journal, b); err != nil {
		return fmt.Errorf("write push journal: %w", err)
	}
	return nil
}

// Done forgets the staging once the push is settled: git moved the refs,
// or the node recorded them and will move them at its next start.
func (st *Staged) Done() error {
	if st.Journal == "" {
		return nil
	}
	if err := os.Remove(st.Journal); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove push journal: %w", err)
	}
	return nil
}

// Drop removes what the staging linked (indexes first, so git never sees
// a pack without its data), then the journal: for a push the chain
// refused, whose objects git deletes with its quarantine.
func (st *Staged) Drop() error {
	for _, f := range slices.Backward(st.Files) {
		if err := os.Remove(filepath.Join(st.Dir, filepath.FromSlash(f))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove staged objects: %w", err)
		}
	}
	return st.Done()
}

// StagedPushes lists the journals of stagings a crash left in dir.
func StagedPushes(dir string) ([]*Staged, error) {
	names, err := filepath.Glob(filepath.Join(dir, journalPrefix+"*.json"))
	if err != nil {
		return nil, fmt.Errorf("list push journals: %w", err)
	}
	var out []*Staged
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read push journal: %w", err)
		}
		st := &Staged{Dir: dir, Journal: name}
		if err := json.Unmarshal(b, st); err != nil {
			return nil, fmt.Errorf("read push journal %s: %w", name, err)
		}
		for _, f := range st.Files { // a journal names files of its repository only
			if !strings.HasPrefix(f, "objects/") || strings.Contains(f, "..") {
				return nil, fmt.Errorf("push journal %s names %q", name, f)
			}
		}
		out = append(out, st)
	}
	return out, nil
}

// Quarantine is a temporary object directory inside a repository's
// objects, as receive-pack keeps a push's: objects fetched into it land
// there, git reads the repository's own through it (as alternates), and
// they join the repository only at Migrate, once verified. Until then no
// reader of the repository sees them.
type Quarantine struct {
	Repo string // the repository
	Path string // objects/<prefix><random>
}

// NewQuarantine makes a quarantine in repo's objects, named prefix and a
// random suffix.
func NewQuarantine(repo, prefix string) (*Quarantine, error) {
	suffix := make([]byte, 6)
	rand.Read(suffix)
	q := &Quarantine{Repo: repo, Path: filepath.Join(repo, "objects", prefix+hex.EncodeToString(suffix))}
	if err := os.MkdirAll(filepath.Join(q.Path, "pack"), 0o755); err != nil {
		return nil, fmt.Errorf("make a quarantine: %w", err)
	}
	return q, nil
}

// Env is git's environment to read and write through q; a nil q reads the
// repository alone.
func (q *Quarantine) Env() []string {
	if q == nil {
		return nil
	}
	return []string{"GIT_OBJECT_DIRECTORY=" + q.Path, "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + filepath.Join(q.Repo, "objects")}
}

// Migrate moves q's objects into the repository in the order git does
// (quarantineFiles): each pack's data before its index, which makes git
// see it, then loose objects. An object the repository has already is
// left as it is.
func (q *Quarantine) Migrate() error {
	objects := filepath.Join(q.Repo, "objects")
	files, err := quarantineFiles(q.Path)
	if err != nil {
		return err
	}
	for _, f := range files {
		dst := filepath.Join(objects, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("move quarantined objects: %w", err)
		}
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Rename(filepath.Join(q.Path, filepath.FromSlash(f)), dst); err != nil {
			return fmt.Errorf("move quarantined objects: %w", err)
		}
	}
	return nil
}

// Discard removes what is left of q.
func (q *Quarantine) Discard() { os.RemoveAll(q.Path) }

// writeSynced writes path through a synced temporary file and syncs its
// directory, so a crash leaves the whole file or none.
func writeSynced(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err == nil {
		err = syncPath(filepath.Dir(path))
	}
	return err
}

// syncPath fsyncs a file or a directory.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
