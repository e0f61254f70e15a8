package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
)

// The last commit of each entry of a directory, for the tree listing: one
// `git log` over the directory, newest first, read as it streams and
// stopped once every entry has its commit (or after maxLastCommitScan
// commits, leaving the rest without one). Below a full commit id the
// answer never changes, so it is cached.

const maxLastCommitScan = 20000

// LastCommits maps each entry name of directory path (clean; "" for the
// root) in commit to the newest commit that changed it.
func LastCommits(ctx context.Context, dir, commit, path string, names []string) (map[string]Commit, error) {
	if !isFullID(commit) {
		return nil, fmt.Errorf("%w: %q is not a commit id", ErrInvalidRef, commit)
	}
	key := cacheKey("lastcommits", dir, commit, path, strings.Join(names, "/"))
	return cachedIn(dir, key, func() (map[string]Commit, error) {
		return lastCommitsGit(ctx, dir, commit, path, names)
	}, func(m map[string]Commit) int64 {
		n := int64(0)
		for k, c := range m {
			n += int64(len(k)+len(c.ID)+len(c.Message)+len(c.Author.Name)+len(c.Author.Email)) + 128
		}
		return n
	})
}

func lastCommitsGit(ctx context.Context, dir, commit, path string, names []string) (map[string]Commit, error) {
	ctx, cancel := withTimeout(ctx, readTimeout)
	defer cancel()
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	prefix := ""
	if path != "" {
		prefix = path + "/"
	}
	args := []string{"--literal-pathspecs", "log", "-z", "--name-only", "--no-renames", "--no-color",
		"--max-count=" + itoa(maxLastCommitScan), "--format=%x1e%H%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%s%x00",
		"--end-of-options", commit, "--"}
	if path != "" {
		args = append(args, path)
	}
	cmd := Command(ctx, dir, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	found := map[string]Commit{}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	sc.Split(splitRecords)
	for len(found) < len(want) && sc.Scan() {
		c, files, ok := parseNamedCommit(sc.Bytes())
		if !ok {
			continue
		}
		for _, f := range files {
			name, ok := strings.CutPrefix(f, prefix)
			if !ok {
				continue
			}
			name, _, _ = strings.Cut(name, "/")
			if want[name] {
				if _, seen := found[name]; !seen {
					found[name] = c
				}
			}
		}
	}
	// Stopped early, or done: either way git is ended and waited for. Only
	// a whole answer is returned (and cached): not one cut by the deadline
	// or the client, nor git's failure.
	complete := len(found) == len(want)
	cut := ctx.Err()
	cancel()
	werr := cmd.Wait()
	switch {
	case cut != nil:
		return nil, fmt.Errorf("read history: %w", cut)
	case sc.Err() != nil:
		return nil, fmt.Errorf("read history: %w", sc.Err())
	case werr != nil && !complete:
		return nil, fmt.Errorf("read history: %w", werr)
	}
	return found, nil
}

// splitRecords splits git log's output at its record separator.
func splitRecords(data []byte, atEOF bool) (int, []byte, error) {
	start := 0
	for start < len(data) && data[start] == 0x1e {
		start++
	}
	if i := bytes.IndexByte(data[start:], 0x1e); i >= 0 {
		return start + i, data[start : start+i], nil
	}
	if atEOF {
		if start == len(data) {
			return len(data), nil, nil
		}
		return len(data), data[start:], nil
	}
	return start, nil, nil
}

// parseNamedCommit reads one record: the commit's fields, then the paths
// it changed.
func parseNamedCommit(rec []byte) (Commit, []string, bool) {
	f := strings.Split(string(rec), "\x00")
	if len(f) < 8 {
		return Commit{}, nil, false
	}
	c := Commit{ID: f[0], Message: f[7]}
	c.Author = Signature{Name: f[1], Email: f[2], When: parseTime(f[3])}
	c.Committer = Signature{Name: f[4], Email: f[5], When: parseTime(f[6])}
	var files []string
	for _, p := range f[8:] {
		if p = strings.TrimLeft(p, "\n"); p != "" {
			files = append(files, p)
		}
	}
	return c, files, true
}
