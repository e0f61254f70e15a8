package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Comparing two commits, as a pull request shows them: the files changed
// (with their line counts and each file's patch, read a page at a time so
// a huge diff never has to be held whole), the whole diff or patch series
// streamed; the commits between are Log's ("from..to").

// FileChange is one file changed between two commits.
type FileChange struct {
	Path    string
	OldPath string // the path before a rename or copy; else Path
	// Status is added, deleted, modified, renamed, copied or changed
	// (type change), as Gitea names them.
	Status    string
	Additions int
	Deletions int
	Binary    bool
}

var statusNames = map[byte]string{'A': "added", 'D': "deleted", 'M': "modified", 'R': "renamed", 'C': "copied", 'T': "changed"}

// diffFlags make every diff the same whatever the user's git config says.
var diffFlags = []string{"--no-color", "--no-ext-diff", "--no-textconv", "-M"}

// CompareFiles lists the files changed from one commit to another, in
// git's order (by path).
func CompareFiles(ctx context.Context, dir, from, to string) ([]FileChange, error) {
	args := append([]string{"diff"}, diffFlags...)
	args = append(args, "--raw", "--numstat", "-z", from, to, "--")
	cmd := Command(ctx, dir, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git diff --raw: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return parseRawNumstat(strings.Split(stdout.String(), "\x00"))
}

// parseRawNumstat reads `--raw --numstat -z`: first every raw entry
// (":<modes> <ids> <status>", path, and a second path for renames and
// copies), then a numstat entry per file ("<add>\t<del>\t<path>", or
// "<add>\t<del>\t" then old and new paths), in the same order.
func parseRawNumstat(tok []string) ([]FileChange, error) {
	var files []FileChange
	i := 0
	for i < len(tok) && strings.HasPrefix(tok[i], ":") {
		fields := strings.Fields(tok[i])
		if len(fields) < 5 || i+1 >= len(tok) {
			return nil, fmt.Errorf("git diff --raw: unreadable entry %q", tok[i])
		}
		st := fields[4]
		f := FileChange{Status: statusNames[st[0]], Path: tok[i+1], OldPath: tok[i+1]}
		if f.Status == "" {
			f.Status = "modified"
		}
		i += 2
		if st[0] == 'R' || st[0] == 'C' {
			if i >= len(tok) {
				return nil, fmt.Errorf("git diff --raw: rename without a new path")
			}
			f.Path = tok[i]
			i++
		}
		files = append(files, f)
	}
	for n := range files {
		if i >= len(tok) {
			return nil, fmt.Errorf("git diff --numstat: %d entries for %d files", n, len(files))
		}
		parts := strings.SplitN(tok[i], "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("git diff --numstat: unreadable entry %q", tok[i])
		}
		i++
		if parts[2] == "" { // a rename: old and new paths follow
			i += 2
		}
		f := &files[n]
		if parts[0] == "-" {
			f.Binary = true
			continue
		}
		f.Additions, _ = strconv.Atoi(parts[0])
		f.Deletions, _ = strconv.Atoi(parts[1])
	}
	return files, nil
}

// FilePatch is the unified diff of one changed file, cut at limit bytes
// (truncated then says so).
func FilePatch(ctx context.Context, dir, from, to string, f FileChange, limit int) (patch string, truncated bool, err error) {
	args := append([]string{"diff"}, diffFlags...)
	args = append(args, from, to, "--", f.Path)
	if f.OldPath != "" && f.OldPath != f.Path {
		args = append(args, f.OldPath)
	}
	cmd := Command(ctx, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", false, fmt.Errorf("pipe git diff: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return "", false, fmt.Errorf("git diff: %w", err)
	}
	b, readErr := io.ReadAll(io.LimitReader(out, int64(limit)+1))
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return "", false, fmt.Errorf("git diff %s: %w: %s", f.Path, err, strings.TrimSpace(stderr.String()))
	}
	if readErr != nil {
		return "", false, fmt.Errorf("git diff %s: %w", f.Path, readErr)
	}
	if len(b) > limit {
		return string(b[:limit]), true, nil
	}
	return string(b), false, nil
}

// WriteDiff streams the unified diff from one commit to another to w.
func WriteDiff(ctx context.Context, dir, from, to string, w io.Writer) error {
	args := append([]string{"diff"}, diffFlags...)
	return stream(ctx, dir, w, append(args, "--full-index", from, to, "--")...)
}

// WritePatch streams the commits from (exclusive) to to (inclusive) as a
// mailbox of patches, as `git format-patch --stdout` writes them.
func WritePatch(ctx context.Context, dir, from, to string, w io.Writer) error {
	return stream(ctx, dir, w, "format-patch", "--stdout", "--no-color", "--no-signature", "--full-index", from+".."+to, "--")
}

func stream(ctx context.Context, dir string, w io.Writer, args ...string) error {
	cmd := Command(ctx, dir, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
