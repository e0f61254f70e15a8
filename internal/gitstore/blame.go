package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// BlameRange is a run of consecutive lines last changed by one commit.
type BlameRange struct {
	Commit    Commit // ID, Message (the summary), Author, Committer
	StartLine int    // 1-based, in the blamed file
	Lines     []string
}

// Blame is `git blame --porcelain` of path (clean) in commit (a full id),
// as runs of lines. Below a full id it never changes, so it is cached.
func Blame(ctx context.Context, dir, commit, path string) ([]BlameRange, error) {
	if !isFullID(commit) {
		return nil, fmt.Errorf("%w: %q is not a commit id", ErrInvalidRef, commit)
	}
	return cachedIn(dir, cacheKey("blame", dir, commit, path), func() ([]BlameRange, error) {
		out, err := read(ctx, dir, nil, "blame", "--porcelain", commit, "--", path)
		if err != nil {
			return nil, fmt.Errorf("blame %s: %w", path, err)
		}
		return parseBlame(out)
	}, func(rs []BlameRange) int64 {
		n := int64(0)
		for _, r := range rs {
			n += int64(len(r.Commit.ID)+len(r.Commit.Message)) + 128
			for _, l := range r.Lines {
				n += int64(len(l)) + 16
			}
		}
		return n
	})
}

// parseBlame reads porcelain output: a header "<sha> <orig> <final>
// [<count>]" per line, the commit's fields the first time it appears, then
// the line itself after a tab.
func parseBlame(out []byte) ([]BlameRange, error) {
	commits := map[string]*Commit{}
	var ranges []BlameRange
	var cur *Commit
	line := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		t := sc.Text()
		if strings.HasPrefix(t, "\t") {
			if cur == nil {
				return nil, fmt.Errorf("git blame: a line before its header")
			}
			text := t[1:]
			if n := len(ranges); n > 0 && ranges[n-1].Commit.ID == cur.ID && ranges[n-1].StartLine+len(ranges[n-1].Lines) == line {
				ranges[n-1].Lines = append(ranges[n-1].Lines, text)
			} else {
				ranges = append(ranges, BlameRange{Commit: *cur, StartLine: line, Lines: []string{text}})
			}
			continue
		}
		key, val, _ := strings.Cut(t, " ")
		if len(key) == 40 || len(key) == 64 {
			if c := commits[key]; c != nil {
				cur = c
			} else {
				cur = &Commit{ID: key}
				commits[key] = cur
			}
			f := strings.Fields(val)
			if len(f) < 2 {
				return nil, fmt.Errorf("git blame: header %q", t)
			}
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, fmt.Errorf("git blame: header %q", t)
			}
			line = n
			continue
		}
		if cur != nil {
			blameField(cur, key, val)
		}
	}
	// Headers after the first name a commit before its fields were read
	// into an earlier range: fill every range from the final fields.
	for i := range ranges {
		ranges[i].Commit = *commits[ranges[i].Commit.ID]
	}
	return ranges, sc.Err()
}

func blameField(c *Commit, key, val string) {
	switch key {
	case "author":
		c.Author.Name = val
	case "author-mail":
		c.Author.Email = strings.Trim(val, "<>")
	case "author-time":
		c.Author.When = unixTime(val, c.Author.When)
	case "committer":
		c.Committer.Name = val
	case "committer-mail":
		c.Committer.Email = strings.Trim(val, "<>")
	case "committer-time":
		c.Committer.When = unixTime(val, c.Committer.When)
	case "summary":
		c.Message = val
	}
}

func unixTime(s string, def time.Time) time.Time {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return def
	}
	return time.Unix(n, 0).UTC()
}
