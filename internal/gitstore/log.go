package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// History: commits, a page of log, the files a commit changed, counts.

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
// page of it. The history below a full commit id never changes: a page of
// it is assembled from cached parts (history.go), and otherwise, without
// files, the page is cached (callers get their own slice).
func Log(ctx context.Context, dir, commit string, o LogOptions) ([]Commit, error) {
	if !isFullID(commit) || hasReplaceRefs(dir) {
		return logGit(ctx, dir, commit, o)
	}
	if commits, err := logPage(ctx, dir, commit, o); !errors.Is(err, errNotPageable) {
		return commits, err
	}
	if o.Files {
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
	if !hasReplaceRefs(dir) {
		c, err := commitObject(ctx, dir, full)
		if err == nil {
			one := []Commit{c}
			err = filesOf(ctx, dir, one)
			return one[0], err
		}
		if !errors.Is(err, errNotPageable) {
			return Commit{}, err
		}
	}
	commits, err := logGit(ctx, dir, full, LogOptions{Limit: 1, Files: true})
	if err != nil {
		return Commit{}, err
	}
	if len(commits) != 1 {
		return Commit{}, fmt.Errorf("%w: no commit %s", ErrRefNotFound, id)
	}
	return commits[0], nil
}

// CommitSubject is the first line of commit id's message (a full id),
// read through the pool of cat-file processes rather than a git log of
// its own: Actions titles each push's runs by it.
func CommitSubject(ctx context.Context, dir, id string) (string, error) {
	typ, content, err := ReadObject(ctx, dir, id, maxCommitObject)
	if err != nil {
		return "", err
	}
	if typ != "commit" {
		return "", fmt.Errorf("%w: %s is a %s, not a commit", ErrInvalidRef, id, typ)
	}
	// The headers end at the first empty line; the message follows.
	_, message, _ := bytes.Cut(content, []byte("\n\n"))
	subject, _, _ := bytes.Cut(message, []byte("\n"))
	return string(bytes.TrimRight(subject, "\r")), nil
}

// maxCommitObject bounds a commit object read for its subject: a commit
// with a message of megabytes is read in part, and its first line is in it.
const maxCommitObject = 1 << 20

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
	if h, err := historyOf(ctx, dir, commit, path); !errors.Is(err, errNotPageable) {
		return h.len(), err
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
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, fmt.Errorf("count commits: %w", err)
	}
	return n, nil
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
