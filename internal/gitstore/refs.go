package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Refs are read from the files git keeps them in (the "files" ref backend:
// a loose file per ref under refs/, overriding packed-refs) instead of by
// starting git: a ref costs a few system calls, not a process. Nothing
// about refs is cached, so a push, a merge or any other ref move is seen
// by the very next read, whoever made it. git writes a loose ref by
// renaming a finished lock file over it and rewrites packed-refs the same
// way, so a read sees the old or the new ref, never half of one; a ref
// being deleted or packed is in packed-refs for as long as its loose file
// may be gone.
//
// Whatever the files cannot answer for sure (the reftable backend, a
// symbolic ref to an odd name, a file that is not a ref) goes to git, as
// before.

// errAskGit says the ref files cannot answer; git must.
var errAskGit = errors.New("the ref files cannot answer")

// refRules are git's rules for finding the ref a name means (git's
// ref_rev_parse_rules), in its order.
var refRules = []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

// lookupRef finds the object the ref name means, as `git rev-parse name`
// does: the first of git's rules that names an existing ref. name is HEAD
// or starts with refs/. found is false when no rule names a ref.
func lookupRef(dir, name string) (id string, found bool, err error) {
	if name != "HEAD" && !strings.HasPrefix(name, "refs/") {
		return "", false, errAskGit
	}
	// The files of a bare repository (ours) only: not a work tree's .git,
	// not the reftable backend.
	if _, err := os.Lstat(filepath.Join(dir, "HEAD")); err != nil {
		return "", false, errAskGit
	}
	if _, err := os.Lstat(filepath.Join(dir, "reftable")); err == nil {
		return "", false, errAskGit
	}
	for _, rule := range refRules {
		id, found, err := readRef(dir, strings.Replace(rule, "%s", name, 1), 0)
		if err != nil || found {
			return id, found, err
		}
	}
	return "", false, nil
}

// maxSymrefDepth bounds a chain of symbolic refs, as git's own limit does.
const maxSymrefDepth = 5

// readRef reads the full ref name: its loose file, else its line in
// packed-refs. A symbolic ref is followed; one that leads nowhere is not
// found (git skips it as well).
func readRef(dir, name string, depth int) (string, bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	switch {
	case err == nil:
		text := string(bytes.TrimSpace(data))
		if target, ok := strings.CutPrefix(text, "ref:"); ok {
			target = strings.TrimSpace(target)
			if depth >= maxSymrefDepth || !strings.HasPrefix(target, "refs/") || checkRefName(target) != nil {
				return "", false, errAskGit
			}
			return readRef(dir, target, depth+1)
		}
		if !isFullID(text) {
			return "", false, errAskGit
		}
		return text, true, nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR), errors.Is(err, syscall.EISDIR):
		// No loose ref here (a directory is not a ref either).
	default:
		return "", false, errAskGit
	}
	if !strings.HasPrefix(name, "refs/") {
		return "", false, nil // only refs/ are packed
	}
	return packedRef(dir, name)
}

// smallPacked is the size up to which packed-refs is read on every lookup;
// a larger one is parsed once per version of the file.
const smallPacked = 64 << 10

// packedRef finds name in packed-refs.
func packedRef(dir, name string) (string, bool, error) {
	path := filepath.Join(dir, "packed-refs")
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, errAskGit
	}
	if fi.Size() <= smallPacked {
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return "", false, nil
		}
		if err != nil {
			return "", false, errAskGit
		}
		id, ok := scanPacked(data, name)
		return id, ok, nil
	}
	// git replaces packed-refs whole (a new file renamed over it), so a new
	// version has a new inode, and its size or time changes too.
	sig := []string{strconv.FormatInt(fi.Size(), 10), strconv.FormatInt(fi.ModTime().UnixNano(), 10)}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		sig = append(sig, strconv.FormatUint(uint64(st.Ino), 10))
	}
	refs, err := cached(cacheKey("packed-refs", dir, sig...), func() (map[string]string, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, errAskGit
		}
		return parsePacked(data), nil
	}, func(m map[string]string) int64 {
		n := int64(0)
		for k, v := range m {
			n += int64(len(k)+len(v)) + 48
		}
		return n
	})
	if err != nil {
		return "", false, errAskGit
	}
	id, ok := refs[name]
	return id, ok, nil
}

// scanPacked finds name's line ("<id> <name>") in packed-refs; header
// lines (#) and peeled lines (^<id>) are skipped.
func scanPacked(data []byte, name string) (string, bool) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimRight(line, "\r")
		id, ref, ok := bytes.Cut(line, []byte{' '})
		if ok && string(ref) == name && isFullID(string(id)) {
			return string(id), true
		}
	}
	return "", false
}

func parsePacked(data []byte) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		id, ref, ok := strings.Cut(strings.TrimRight(line, "\r"), " ")
		if ok && isFullID(id) {
			out[ref] = id
		}
	}
	return out
}

// hasReplaceRefs reports whether dir has refs under refs/replace/, loose
// or packed.
func hasReplaceRefs(dir string) bool {
	if entries, err := os.ReadDir(filepath.Join(dir, "refs", "replace")); err == nil && len(entries) > 0 {
		return true
	}
	path := filepath.Join(dir, "packed-refs")
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	sig := []string{strconv.FormatInt(fi.Size(), 10), strconv.FormatInt(fi.ModTime().UnixNano(), 10)}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		sig = append(sig, strconv.FormatUint(uint64(st.Ino), 10))
	}
	has, err := cached(cacheKey("packed-replace", dir, sig...), func() (bool, error) {
		data, err := os.ReadFile(path)
		return bytes.Contains(data, []byte(" refs/replace/")), err
	}, func(bool) int64 { return 1 })
	return err != nil || has
}

// resolveRef is `git rev-parse --verify name^{commit}` for a ref name
// (HEAD, or a name under refs/): the ref from the files, then its commit,
// which never changes for an id (cached). ok is false when it names no
// commit.
func resolveRef(ctx context.Context, dir, name string) (string, bool, error) {
	id, found, err := lookupRef(dir, name)
	if errors.Is(err, errAskGit) {
		return verify(ctx, dir, name+"^{commit}")
	}
	if err != nil {
		return "", false, fmt.Errorf("read ref %s: %w", name, err)
	}
	if !found {
		return "", false, nil
	}
	return verify(ctx, dir, id+"^{commit}")
}

// RefValue is the object the full ref name points at, unpeeled (what a
// push's hooks report); found is false when there is no such ref.
func RefValue(ctx context.Context, dir, name string) (id string, found bool, err error) {
	id, found, err = readRefFiles(dir, name)
	if err != nil && !errors.Is(err, errAskGit) {
		return "", false, fmt.Errorf("read ref %s: %w", name, err)
	}
	if err == nil {
		return id, found, nil
	}
	out, err := run(ctx, dir, nil, nil, "for-each-ref", "--format=%(objectname)", "--count=1", name)
	if err != nil {
		return "", false, fmt.Errorf("read ref %s: %w", name, err)
	}
	return out, out != "", nil
}

// readRefFiles reads one full ref name from the ref files.
func readRefFiles(dir, name string) (string, bool, error) {
	if !strings.HasPrefix(name, "refs/") {
		return "", false, errAskGit
	}
	if _, err := os.Lstat(filepath.Join(dir, "reftable")); err == nil {
		return "", false, errAskGit
	}
	return readRef(dir, name, 0)
}
