package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Naming a commit: what a client sends as a branch, tag, ref or id is
// checked before git sees it, then resolved (refs from the ref files,
// ids through rev-parse).

// CheckBranchName reports whether name is a branch name the store takes
// (letters, digits, '.', '_', '-' and '/', no "..").
func CheckBranchName(name string) error {
	if !branchRule.MatchString(name) || strings.Contains(name, "..") || strings.HasSuffix(name, ".lock") ||
		strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") || strings.Contains(name, "//") || strings.Contains(name, "/.") {
		return fmt.Errorf("%w: %q is not a branch name", ErrInvalidRef, name)
	}
	return nil
}

// IsEmpty reports whether the repository has no branches. It reads the
// ref files (loose and packed) rather than start git: the answer is on
// every repository page, and in every list that shows a repository. A
// repository found with a branch is remembered (emptiness.go), so asking
// again costs two stats rather than a directory listing and a read.
func IsEmpty(dir string) bool {
	stamp, settled := branchStamp(dir)
	if settled && withBranches.has(dir, stamp) {
		return false
	}
	if scanEmpty(dir) {
		return true
	}
	if settled {
		withBranches.add(dir, stamp)
	}
	return false
}

// scanEmpty looks for a branch in the ref files: a loose one under
// refs/heads, or a line of packed-refs.
func scanEmpty(dir string) bool {
	heads := filepath.Join(dir, "refs", "heads")
	empty := true
	filepath.WalkDir(heads, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			empty = false
			return filepath.SkipAll
		}
		return nil
	})
	if !empty {
		return false
	}
	packed, err := os.ReadFile(filepath.Join(dir, "packed-refs"))
	return err != nil || !bytes.Contains(packed, []byte(" refs/heads/"))
}

// SetHead makes branch the repository's HEAD (what a clone checks out).
func SetHead(ctx context.Context, dir, branch string) error {
	if err := CheckBranchName(branch); err != nil {
		return err
	}
	if _, err := read(ctx, dir, nil, "symbolic-ref", "HEAD", "refs/heads/"+branch); err != nil {
		return fmt.Errorf("set HEAD: %w", err)
	}
	return nil
}

var (
	hexID     = regexp.MustCompile(`^[0-9a-f]{4,64}$`)
	fullHexID = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// checkRefName applies git's check-ref-format rules to what a client
// names as a ref: a branch, a tag, a full ref or a commit id.
func checkRefName(ref string) error {
	bad := ref == "" || len(ref) > 255 || !utf8.ValidString(ref) || ref == "@" ||
		strings.HasPrefix(ref, "-") || strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, ".") ||
		strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, ".") || strings.HasSuffix(ref, ".lock") ||
		strings.Contains(ref, "..") || strings.Contains(ref, "//") || strings.Contains(ref, "/.") ||
		strings.Contains(ref, "@{") || strings.ContainsAny(ref, " ~^:?*[\\\x7f")
	for _, r := range ref {
		if r < 0x20 {
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("%w: %q is not a branch, tag or commit name", ErrInvalidRef, ref)
	}
	return nil
}

// verify resolves rev (a full ref name or an object id, with a ^{type}
// peel) to an object id; ok is false when it names none. What a full id
// resolves to never changes, so those answers are cached (when found).
func verify(ctx context.Context, dir, rev string) (string, bool, error) {
	if !immutableRev(rev) {
		return verifyGit(ctx, dir, rev)
	}
	id, err := cachedIn(dir, cacheKey("verify", dir, rev), func() (string, error) {
		id, ok, err := verifyGit(ctx, dir, rev)
		if err == nil && !ok {
			err = errNotThere
		}
		return id, err
	}, func(id string) int64 { return int64(len(id)) })
	if errors.Is(err, errNotThere) {
		return "", false, nil
	}
	return id, err == nil, err
}

// errNotThere carries "no such object" through the cache, which keeps
// only what is found.
var errNotThere = errors.New("no such object")

func verifyGit(ctx context.Context, dir, rev string) (string, bool, error) {
	out, err := read(ctx, dir, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev)
	if err != nil {
		// --verify --quiet exits 1 for a name that names nothing (128
		// for an object of another type).
		var ee *exec.ExitError
		if errors.As(err, &ee) && (ee.ExitCode() == 1 || ee.ExitCode() == 128) {
			return "", false, nil
		}
		return "", false, fmt.Errorf("resolve %s: %w", rev, err)
	}
	return strings.TrimSpace(string(out)), true, nil
}

// Resolve finds the commit ref names: a branch, then a tag, then a full
// ref name, then a commit id (4 to 64 hex digits). An empty ref is HEAD.
// Refs are read from the ref files on every call (refs.go), so a ref moved
// by a push or a merge is seen at once.
func Resolve(ctx context.Context, dir, ref string) (string, error) {
	if ref == "" {
		id, ok, err := resolveRef(ctx, dir, "HEAD")
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("%w: the repository is empty", ErrRefNotFound)
		}
		return id, nil
	}
	if err := checkRefName(ref); err != nil {
		return "", err
	}
	candidates := []string{"refs/heads/" + ref, "refs/tags/" + ref}
	if strings.HasPrefix(ref, "refs/") {
		candidates = append(candidates, ref)
	}
	if hexID.MatchString(ref) {
		candidates = append(candidates, ref)
	}
	for _, c := range candidates {
		var id string
		var ok bool
		var err error
		if strings.HasPrefix(c, "refs/") {
			id, ok, err = resolveRef(ctx, dir, c)
		} else {
			id, ok, err = verify(ctx, dir, c+"^{commit}")
		}
		if err != nil {
			return "", err
		}
		if ok {
			return id, nil
		}
	}
	return "", fmt.Errorf("%w: no branch, tag or commit %q", ErrRefNotFound, ref)
}

// ResolveBranch finds the commit of branch name.
func ResolveBranch(ctx context.Context, dir, name string) (string, error) {
	if err := checkRefName(name); err != nil {
		return "", err
	}
	id, ok, err := resolveRef(ctx, dir, "refs/heads/"+name)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%w: no branch %q", ErrRefNotFound, name)
	}
	return id, nil
}

// verifyType resolves id to the object of type typ it is or points at.
func verifyType(ctx context.Context, dir, id, typ string) (string, bool, error) {
	return verify(ctx, dir, id+"^{"+typ+"}")
}

// ObjectType is the type of object id: blob, tree, commit or tag.
func ObjectType(ctx context.Context, dir, id string) (string, error) {
	out, err := read(ctx, dir, nil, "cat-file", "-t", "--end-of-options", id)
	if err != nil {
		return "", fmt.Errorf("%w: %s", ErrRefNotFound, id)
	}
	return strings.TrimSpace(string(out)), nil
}
