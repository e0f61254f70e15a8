package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Who wrote a history: its contributors, and the authors of pushed commits.

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
	if err := sc.Err(); err != nil {
		return list, fmt.Errorf("list contributors: %w", err)
	}
	return list, nil
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
