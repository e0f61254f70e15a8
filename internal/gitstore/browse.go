package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Reading a repository for the code browser: refs, trees, blobs, history,
// diffs. Everything goes through the git binary with a deadline; what a
// client names (a ref, a path) is checked before git sees it, and passed
// after --end-of-options or as a literal pathspec, so no name is ever an
// option or a pathspec pattern.

// Errors a client can cause; the API maps them to 400 and 404.
var (
	ErrInvalidPath  = errors.New("invalid path")
	ErrInvalidRef   = errors.New("invalid ref")
	ErrRefNotFound  = errors.New("ref not found")
	ErrPathNotFound = errors.New("path not found")
)

// readTimeout bounds one read; streamTimeout one streamed blob or diff.
const (
	readTimeout   = 30 * time.Second
	streamTimeout = 10 * time.Minute
)

func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// read runs a read-only git command in dir with the read deadline and
// literal pathspecs.
func read(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	ctx, cancel := withTimeout(ctx, readTimeout)
	defer cancel()
	cmd := Command(ctx, dir, append([]string{"--literal-pathspecs"}, args...)...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

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
// every repository page.
func IsEmpty(dir string) bool {
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
		return "", false, err
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

// CleanPath checks a path inside a repository as a client sends it and
// returns it without leading, trailing or doubled slashes ("" is the
// root). A "." or ".." segment, an absolute path, a backslash or a control
// character is refused: paths name tree entries, never the filesystem.
func CleanPath(p string) (string, error) {
	if strings.HasPrefix(p, "/") || len(p) > 4096 || !utf8.ValidString(p) || strings.ContainsRune(p, '\\') {
		return "", fmt.Errorf("%w: %q", ErrInvalidPath, p)
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("%w: control characters are not allowed", ErrInvalidPath)
		}
	}
	var parts []string
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "":
			continue
		case ".", "..":
			return "", fmt.Errorf("%w: %q has a %q segment", ErrInvalidPath, p, seg)
		}
		parts = append(parts, seg)
	}
	return strings.Join(parts, "/"), nil
}

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
		return nil, err
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

// verifyType resolves id to the object of type typ it is or points at.
func verifyType(ctx context.Context, dir, id, typ string) (string, bool, error) {
	return verify(ctx, dir, id+"^{"+typ+"}")
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

// Blob is a blob being read from git; Close ends the read.
type Blob struct {
	io.Reader
	cmd    interface{ Wait() error }
	cancel context.CancelFunc
	stdout io.Closer
}

// Close stops git and releases the blob.
func (b *Blob) Close() error {
	b.cancel()
	b.stdout.Close()
	b.cmd.Wait()
	return nil
}

// OpenBlob streams the blob id (a whole object id), so a blob of any size
// passes through a small buffer.
func OpenBlob(ctx context.Context, dir, id string) (*Blob, error) {
	if !hexID.MatchString(id) {
		return nil, fmt.Errorf("%w: %q is not an object id", ErrInvalidRef, id)
	}
	ctx, cancel := withTimeout(ctx, streamTimeout)
	cmd := Command(ctx, dir, "cat-file", "blob", id)
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("start cat-file: %w", err)
	}
	return &Blob{Reader: out, cmd: cmd, cancel: cancel, stdout: out}, nil
}

// ReadBlob reads at most limit bytes of blob id. A blob named by its full
// id never changes, so what was read is cached (the cache keeps no entry
// over an eighth of its bound); each caller gets its own copy.
func ReadBlob(ctx context.Context, dir, id string, limit int64) ([]byte, error) {
	if !isFullID(id) {
		return readBlobGit(ctx, dir, id, limit)
	}
	data, err := cachedIn(dir, cacheKey("blob", dir, id, strconv.FormatInt(limit, 10)), func() ([]byte, error) {
		return readBlobGit(ctx, dir, id, limit)
	}, func(b []byte) int64 { return int64(len(b)) })
	return bytes.Clone(data), err
}

func readBlobGit(ctx context.Context, dir, id string, limit int64) ([]byte, error) {
	b, err := OpenBlob(ctx, dir, id)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return io.ReadAll(io.LimitReader(b, limit))
}

// sniffLen is how much of a file decides whether it is binary (git's own
// heuristic looks at the first 8000 bytes for a NUL).
const sniffLen = 8000

// IsBinary reports whether content (its first bytes suffice) is binary:
// it has a NUL byte, as git decides.
func IsBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), sniffLen)], 0) >= 0
}

// Commit is a commit with, when asked for, the files it changed against
// its first parent.
type Commit struct {
	ID        string
	Tree      string
	Parents   []string
	Author    Signature
	Committer Signature
	Message   string
	Files     []FileChange // nil unless asked for
}

// Additions and Deletions total the commit's files.
func (c Commit) Additions() (n int) {
	for _, f := range c.Files {
		n += f.Additions
	}
	return n
}

// Deletions totals the lines the commit's files lost.
func (c Commit) Deletions() (n int) {
	for _, f := range c.Files {
		n += f.Deletions
	}
	return n
}

// Summary is the first line of the message.
func (c Commit) Summary() string {
	s, _, _ := strings.Cut(c.Message, "\n")
	return s
}

// LogOptions select a page of history.
type LogOptions struct {
	Path  string // clean; "" for all
	Skip  int
	Limit int
	Files bool // also the files each commit changed
}

// commitFormat starts each commit with a record separator: the message,
// last, may hold anything but NUL.
const commitFormat = "%x1e%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B"

// Log lists the history of commit, newest first (git log's order), one
// page of it. The history below a full commit id never changes: without
// files, a page of it is cached (callers get their own slice).
func Log(ctx context.Context, dir, commit string, o LogOptions) ([]Commit, error) {
	if o.Files || !isFullID(commit) {
		return logGit(ctx, dir, commit, o)
	}
	commits, err := cachedIn(dir, cacheKey("log", dir, commit, o.Path, itoa(o.Skip), itoa(o.Limit)), func() ([]Commit, error) {
		return logGit(ctx, dir, commit, o)
	}, commitsSize)
	return slices.Clone(commits), err
}

func logGit(ctx context.Context, dir, commit string, o LogOptions) ([]Commit, error) {
	args := []string{"log", "--format=" + commitFormat, "--no-color", "--skip=" + strconv.Itoa(o.Skip)}
	if o.Limit > 0 {
		args = append(args, "--max-count="+strconv.Itoa(o.Limit))
	}
	args = append(args, "--end-of-options", commit, "--")
	if o.Path != "" {
		args = append(args, o.Path)
	}
	out, err := read(ctx, dir, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	commits, err := parseLog(out)
	if err != nil {
		return nil, err
	}
	if o.Files {
		if err := fillFiles(ctx, dir, commits); err != nil {
			return nil, err
		}
	}
	return commits, nil
}

func parseLog(out []byte) ([]Commit, error) {
	var commits []Commit
	for _, rec := range bytes.Split(out, []byte{0x1e}) {
		if len(rec) == 0 {
			continue
		}
		f := strings.SplitN(string(rec), "\x00", 10)
		if len(f) != 10 {
			return nil, fmt.Errorf("git log: unexpected record %q", rec)
		}
		c := Commit{ID: f[0], Tree: f[1], Parents: strings.Fields(f[2]), Message: strings.TrimRight(f[9], "\n")}
		c.Author = Signature{Name: f[3], Email: f[4], When: parseTime(f[5])}
		c.Committer = Signature{Name: f[6], Email: f[7], When: parseTime(f[8])}
		commits = append(commits, c)
	}
	return commits, nil
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

// CommitByID reads one commit (id: a full or abbreviated id) with its
// files.
func CommitByID(ctx context.Context, dir, id string) (Commit, error) {
	if !hexID.MatchString(id) {
		return Commit{}, fmt.Errorf("%w: %q is not a commit id", ErrInvalidRef, id)
	}
	full, ok, err := verify(ctx, dir, id+"^{commit}")
	if err != nil {
		return Commit{}, err
	}
	if !ok {
		return Commit{}, fmt.Errorf("%w: no commit %s", ErrRefNotFound, id)
	}
	commits, err := Log(ctx, dir, full, LogOptions{Limit: 1, Files: true})
	if err != nil {
		return Commit{}, err
	}
	if len(commits) != 1 {
		return Commit{}, fmt.Errorf("%w: no commit %s", ErrRefNotFound, id)
	}
	return commits[0], nil
}

// fillFiles asks one diff-tree for the files of every commit: a merge is
// compared with its first parent, a root commit with the empty tree.
func fillFiles(ctx context.Context, dir string, commits []Commit) error {
	if len(commits) == 0 {
		return nil
	}
	var in strings.Builder
	at := map[string]*Commit{}
	for i := range commits {
		c := &commits[i]
		c.Files = []FileChange{}
		at[c.ID] = c
		if len(c.Parents) > 1 {
			in.WriteString(c.ID + " " + c.Parents[0] + "\n")
		} else {
			in.WriteString(c.ID + "\n")
		}
	}
	out, err := read(ctx, dir, strings.NewReader(in.String()), "diff-tree", "--stdin", "-r", "--root", "--no-renames", "--raw", "--numstat", "-z")
	if err != nil {
		return fmt.Errorf("read changed files: %w", err)
	}
	var cur *Commit
	index := map[string]int{} // path -> position in cur.Files
	tokens := bytes.Split(out, []byte{0})
	for i := 0; i < len(tokens); i++ {
		t := string(tokens[i])
		switch {
		case t == "":
		case fullHexID.MatchString(t) && at[t] != nil && !strings.Contains(t, "\t"):
			cur, index = at[t], map[string]int{}
		case cur == nil:
			return fmt.Errorf("diff-tree: output before a commit: %q", t)
		case strings.HasPrefix(t, ":"):
			// ":<mode> <mode> <id> <id> <status>" then the path.
			if i+1 >= len(tokens) {
				return fmt.Errorf("diff-tree: raw entry without a path")
			}
			i++
			path := string(tokens[i])
			f := strings.Fields(t)
			index[path] = len(cur.Files)
			cur.Files = append(cur.Files, FileChange{Path: path, OldPath: path, Status: statusOf(f[len(f)-1])})
		default:
			// "<added>\t<deleted>\t<path>"; "-" counts for binary files.
			parts := strings.SplitN(t, "\t", 3)
			if len(parts) != 3 {
				return fmt.Errorf("diff-tree: unexpected numstat %q", t)
			}
			n, ok := index[parts[2]]
			if !ok {
				continue
			}
			fc := &cur.Files[n]
			if parts[0] == "-" {
				fc.Binary = true
				continue
			}
			fc.Additions, _ = strconv.Atoi(parts[0])
			fc.Deletions, _ = strconv.Atoi(parts[1])
		}
	}
	return nil
}

func statusOf(raw string) string {
	if name := statusNames[raw[0]]; name != "" {
		return name
	}
	return "modified"
}

// Count is how many commits commit's history has (touching path, if any);
// cached for a full commit id.
func Count(ctx context.Context, dir, commit, path string) (int, error) {
	if !isFullID(commit) {
		return countGit(ctx, dir, commit, path)
	}
	return cachedIn(dir, cacheKey("count", dir, commit, path), func() (int, error) {
		return countGit(ctx, dir, commit, path)
	}, func(int) int64 { return 8 })
}

func countGit(ctx context.Context, dir, commit, path string) (int, error) {
	args := []string{"rev-list", "--count", "--end-of-options", commit, "--"}
	if path != "" {
		args = append(args, path)
	}
	out, err := read(ctx, dir, nil, args...)
	if err != nil {
		return 0, fmt.Errorf("count commits: %w", err)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// DiffFormat is how WriteCommitDiff writes a commit.
type DiffFormat int

const (
	// FormatDiff is a unified diff against the first parent (diff-tree -p).
	FormatDiff DiffFormat = iota
	// FormatPatch is an email-style patch (format-patch), for `git am`.
	FormatPatch
)

// ErrTruncated ends a diff that reached its byte limit.
var ErrTruncated = errors.New("the diff is larger than the limit")

// WriteCommitDiff streams commit's changes to w in format, stopping after limit
// bytes (0: no limit) with ErrTruncated.
func WriteCommitDiff(ctx context.Context, dir string, c Commit, format DiffFormat, limit int64, w io.Writer) error {
	ctx, cancel := withTimeout(ctx, streamTimeout)
	defer cancel()
	var args []string
	switch {
	case format == FormatPatch:
		args = []string{"format-patch", "--stdout", "--no-signature", "--no-color", "-1", "--end-of-options", c.ID}
		if len(c.Parents) > 1 {
			args = []string{"diff-tree", "-p", "--no-color", "--no-renames", "--end-of-options", c.Parents[0], c.ID}
		}
	case len(c.Parents) > 1:
		args = []string{"diff-tree", "-p", "--no-color", "--no-renames", "--end-of-options", c.Parents[0], c.ID}
	default:
		args = []string{"diff-tree", "-p", "--root", "--no-commit-id", "--no-color", "--no-renames", "--end-of-options", c.ID}
	}
	cmd := Command(ctx, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start git %s: %w", args[0], err)
	}
	var src io.Reader = out
	if limit > 0 {
		src = io.LimitReader(out, limit+1)
	}
	n, copyErr := io.Copy(&capWriter{w: w, left: limit}, src)
	if limit > 0 && n > limit {
		cancel()
		cmd.Wait()
		return ErrTruncated
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return copyErr
}

// capWriter passes at most left bytes (all when left is 0).
type capWriter struct {
	w    io.Writer
	left int64
}

func (c *capWriter) Write(p []byte) (int, error) {
	if c.left <= 0 {
		if c.left == 0 {
			return c.w.Write(p)
		}
		return len(p), nil
	}
	if int64(len(p)) > c.left {
		n, err := c.w.Write(p[:c.left])
		c.left = -1
		if err != nil {
			return n, err
		}
		return len(p), nil
	}
	c.left -= int64(len(p))
	if c.left == 0 {
		c.left = -1
	}
	return c.w.Write(p)
}

// CommitDiff returns commit's diff, at most limit bytes; truncated says it was
// cut there.
func CommitDiff(ctx context.Context, dir string, c Commit, limit int64) (string, bool, error) {
	var buf bytes.Buffer
	err := WriteCommitDiff(ctx, dir, c, FormatDiff, limit, &buf)
	if errors.Is(err, ErrTruncated) {
		return buf.String(), true, nil
	}
	return buf.String(), false, err
}

// Branch is a branch and its newest commit.
type Branch struct {
	Name   string
	Commit Commit // without files
}

// Tag is a tag: lightweight, or annotated with its own message.
type Tag struct {
	Name      string
	ID        string // the tag object's id (the commit's, when lightweight)
	Commit    string // the commit it points at ("" when not a commit)
	Message   string // of an annotated tag
	Annotated bool
}

const refFormat = "%(refname)%00%(objectname)%00%(objecttype)%00%(*objectname)%00%(*objecttype)%00%(contents)%1e"

// Branches lists the branches by name, each with its newest commit.
func Branches(ctx context.Context, dir string) ([]Branch, error) {
	refs, err := forEachRef(ctx, dir, "refs/heads/")
	if err != nil {
		return nil, err
	}
	var branches []Branch
	ids := map[string][]int{}
	var order []string
	for _, r := range refs {
		if r.typ != "commit" {
			continue
		}
		ids[r.id] = append(ids[r.id], len(branches))
		if len(ids[r.id]) == 1 {
			order = append(order, r.id)
		}
		branches = append(branches, Branch{Name: strings.TrimPrefix(r.name, "refs/heads/")})
	}
	commits, err := commitsByID(ctx, dir, order)
	if err != nil {
		return nil, err
	}
	for _, c := range commits {
		for _, i := range ids[c.ID] {
			branches[i].Commit = c
		}
	}
	return branches, nil
}

// commitsByID reads the given commits (no files), in one git call.
func commitsByID(ctx context.Context, dir string, ids []string) ([]Commit, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	out, err := read(ctx, dir, strings.NewReader(strings.Join(ids, "\n")+"\n"),
		"log", "--no-walk=unsorted", "--format="+commitFormat, "--no-color", "--stdin")
	if err != nil {
		return nil, fmt.Errorf("read commits: %w", err)
	}
	return parseLog(out)
}

// Tags lists the tags by name.
func Tags(ctx context.Context, dir string) ([]Tag, error) {
	refs, err := forEachRef(ctx, dir, "refs/tags/")
	if err != nil {
		return nil, err
	}
	tags := []Tag{}
	for _, r := range refs {
		t := Tag{Name: strings.TrimPrefix(r.name, "refs/tags/"), ID: r.id}
		switch {
		case r.typ == "commit":
			t.Commit = r.id
		case r.typ == "tag":
			t.Annotated, t.Message = true, strings.TrimRight(r.contents, "\n")
			if r.peeledType == "commit" {
				t.Commit = r.peeled
			}
		}
		tags = append(tags, t)
	}
	return tags, nil
}

type refLine struct {
	name, id, typ, peeled, peeledType, contents string
}

func forEachRef(ctx context.Context, dir, prefix string) ([]refLine, error) {
	out, err := read(ctx, dir, nil, "for-each-ref", "--sort=refname", "--format="+refFormat, prefix)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", prefix, err)
	}
	var refs []refLine
	for _, rec := range bytes.Split(out, []byte{0x1e}) {
		rec = bytes.TrimPrefix(rec, []byte{'\n'})
		if len(rec) == 0 {
			continue
		}
		f := strings.SplitN(string(rec), "\x00", 6)
		if len(f) != 6 {
			return nil, fmt.Errorf("for-each-ref: unexpected record %q", rec)
		}
		refs = append(refs, refLine{name: f[0], id: f[1], typ: f[2], peeled: f[3], peeledType: f[4], contents: f[5]})
	}
	return refs, nil
}

// RefNames lists the full names of refs under prefix ("refs/" for all)
// with the objects they point at.
func RefNames(ctx context.Context, dir, prefix string) ([]Ref, error) {
	refs, err := forEachRef(ctx, dir, prefix)
	if err != nil {
		return nil, err
	}
	out := make([]Ref, 0, len(refs))
	for _, r := range refs {
		out = append(out, Ref{Name: r.name, ID: r.id})
	}
	return out, nil
}

// ObjectType is the type of object id: blob, tree, commit or tag.
func ObjectType(ctx context.Context, dir, id string) (string, error) {
	out, err := read(ctx, dir, nil, "cat-file", "-t", "--end-of-options", id)
	if err != nil {
		return "", fmt.Errorf("%w: %s", ErrRefNotFound, id)
	}
	return strings.TrimSpace(string(out)), nil
}

// Contributor is a commit author and how many commits they made.
type Contributor struct {
	Name    string
	Email   string
	Commits int
}

// Contributors lists the authors of commit's history, most commits first
// (git shortlog -sne); cached for a full commit id.
func Contributors(ctx context.Context, dir, commit string) ([]Contributor, error) {
	if !isFullID(commit) {
		return contributorsGit(ctx, dir, commit)
	}
	list, err := cachedIn(dir, cacheKey("contributors", dir, commit), func() ([]Contributor, error) {
		return contributorsGit(ctx, dir, commit)
	}, func(list []Contributor) int64 {
		n := int64(0)
		for _, c := range list {
			n += int64(len(c.Name)+len(c.Email)) + 48
		}
		return n
	})
	return slices.Clone(list), err
}

func contributorsGit(ctx context.Context, dir, commit string) ([]Contributor, error) {
	out, err := read(ctx, dir, nil, "shortlog", "-s", "-n", "-e", "--end-of-options", commit)
	if err != nil {
		return nil, fmt.Errorf("list contributors: %w", err)
	}
	list := []Contributor{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		// "<count>\t<name> <email>"
		count, who, ok := strings.Cut(strings.TrimSpace(sc.Text()), "\t")
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(count)
		c := Contributor{Name: who, Commits: n}
		if i := strings.LastIndex(who, " <"); i >= 0 && strings.HasSuffix(who, ">") {
			c.Name, c.Email = who[:i], who[i+2:len(who)-1]
		}
		list = append(list, c)
	}
	return list, sc.Err()
}

// CommitAuthors lists the commits reachable from new and not from old
// (old may be all zeros: everything new reaches), newest first, at most
// limit, as id and author email.
func CommitAuthors(ctx context.Context, dir, old, new string, limit int) ([][2]string, error) {
	args := []string{"rev-list", "--format=%H%x00%ae", "--no-commit-header", "--max-count=" + strconv.Itoa(limit), "--end-of-options", new}
	if strings.Trim(old, "0") != "" {
		args = append(args, "^"+old)
	}
	out, err := read(ctx, dir, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("list pushed commits: %w", err)
	}
	var list [][2]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		id, email, ok := strings.Cut(line, "\x00")
		if ok {
			list = append(list, [2]string{id, email})
		}
	}
	return list, nil
}
