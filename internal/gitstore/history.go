package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A page of history is assembled from three cached parts, none of which
// starts a git process once warm:
//   - the ids of the whole history below a full commit id (and path), one
//     rev-list, so that page 60 costs what page 1 does where git log
//     --skip walked every commit before it;
//   - each commit, read through the pool of cat-file processes and parsed
//     here;
//   - each commit's changed files, one diff-tree for those of a page not
//     yet known.
// All three never change for a full id, and cachedIn reads a repository
// with replace refs afresh. A history over maxCachedHistory commits, or a
// commit whose message git would re-encode, is read by git log as before.

// maxCachedHistory is the longest history whose ids are kept: about
// 4 MB, the largest entry the browse cache keeps (an eighth of it).
const maxCachedHistory = 90_000

// errNotPageable sends a page to git log: its history is too long to keep,
// or one of its commits is in an encoding git would convert.
var errNotPageable = errors.New("history not pageable from the cache")

// history is the ids of a history, newest first, each followed by "\n";
// one string keeps the cache's entry as small as the ids.
type history struct {
	ids   string
	width int // an id's length plus its newline
}

func (h history) len() int {
	if h.width == 0 {
		return 0
	}
	return len(h.ids) / h.width
}

// size is what the cache counts for h.
func (h history) size() int64 { return int64(len(h.ids)) + 16 }

// page returns the ids from skip on, at most limit of them (all when limit
// is 0).
func (h history) page(skip, limit int) []string {
	n := h.len()
	if skip >= n {
		return nil
	}
	end := n
	if limit > 0 {
		end = min(n, skip+limit)
	}
	out := make([]string, 0, end-skip)
	for i := skip; i < end; i++ {
		out = append(out, h.ids[i*h.width:(i+1)*h.width-1])
	}
	return out
}

// historyOf lists commit's history (touching path, if any) in git log's
// order; errNotPageable when it is longer than maxCachedHistory.
func historyOf(ctx context.Context, dir, commit, path string) (history, error) {
	h, err := cachedIn(dir, cacheKey("history", dir, commit, path), func() (history, error) {
		h, err := revList(ctx, dir, commit, path, maxCachedHistory+1)
		if err != nil {
			return history{}, err
		}
		if h.len() > maxCachedHistory {
			return history{width: -1}, nil
		}
		return h, nil
	}, history.size)
	if err == nil && h.width < 0 {
		err = errNotPageable
	}
	return h, err
}

// pageIDs lists the ids of a page of commit's history. The first page
// (the last commit to touch a file, the top of a branch) is listed by a
// rev-list that stops at its end, unless the whole history is known: a
// file's last commit must not walk all of its history.
func pageIDs(ctx context.Context, dir, commit string, o LogOptions) ([]string, error) {
	key := cacheKey("history", dir, commit, o.Path)
	if v, ok := browseCache.get(key); ok && v.(history).width > 0 {
		return v.(history).page(o.Skip, o.Limit), nil
	}
	if o.Skip > 0 || o.Limit <= 0 {
		h, err := historyOf(ctx, dir, commit, o.Path)
		return h.page(o.Skip, o.Limit), err
	}
	h, err := cachedIn(dir, cacheKey("head", dir, commit, o.Path, strconv.Itoa(o.Limit)), func() (history, error) {
		return revList(ctx, dir, commit, o.Path, o.Limit)
	}, history.size)
	return h.page(0, o.Limit), err
}

// revList lists at most max ids of commit's history (touching path).
func revList(ctx context.Context, dir, commit, path string, max int) (history, error) {
	args := []string{"rev-list", "--max-count=" + strconv.Itoa(max), "--end-of-options", commit, "--"}
	if path != "" {
		args = append(args, path)
	}
	out, err := read(ctx, dir, nil, args...)
	if err != nil {
		return history{}, fmt.Errorf("list history: %w", err)
	}
	h := history{ids: string(out)}
	if i := bytes.IndexByte(out, '\n'); i > 0 {
		h.width = i + 1
	}
	return h, nil
}

// logPage assembles a page of commit's history (a full id) from the cache.
func logPage(ctx context.Context, dir, commit string, o LogOptions) ([]Commit, error) {
	ids, err := pageIDs(ctx, dir, commit, o)
	if err != nil {
		return nil, err
	}
	commits, err := commitObjects(ctx, dir, ids)
	if err != nil {
		return nil, err
	}
	if o.Files {
		if err := filesOf(ctx, dir, commits); err != nil {
			return nil, err
		}
	}
	return commits, nil
}

// commitObjects reads and parses commits (full ids): from the cache, and
// those not in it through one pooled cat-file, in one turn.
func commitObjects(ctx context.Context, dir string, ids []string) ([]Commit, error) {
	commits := make([]Commit, len(ids))
	var missing []int
	for i, id := range ids {
		if v, ok := browseCache.get(cacheKey("commit", dir, id)); ok {
			commits[i] = v.(Commit)
		} else {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return commits, nil
	}
	types, contents := make([]string, len(missing)), make([][]byte, len(missing))
	err := withBatch(ctx, dir, func(b *batch) (err error) {
		for n, i := range missing {
			if types[n], contents[n], err = b.readAny(ids[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errTooBig) || errors.Is(err, errBatchFull) {
		// A commit of over a megabyte, or no room in the pool: one at a time.
		for _, i := range missing {
			if commits[i], err = commitObject(ctx, dir, ids[i]); err != nil {
				return nil, err
			}
		}
		return commits, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read commits: %w", err)
	}
	// Parsed once the process is back in the pool: a commit we cannot
	// page (errNotPageable) is no reason to stop it.
	for n, i := range missing {
		if commits[i], err = commitFrom(ids[i], types[n], contents[n]); err != nil {
			return nil, err
		}
	}
	for _, i := range missing {
		browseCache.add(cacheKey("commit", dir, ids[i]), commits[i], commitsSize(commits[i:i+1]))
	}
	return commits, nil
}

// commitObject reads and parses one commit (a full id) through the pool.
func commitObject(ctx context.Context, dir, id string) (Commit, error) {
	return cachedIn(dir, cacheKey("commit", dir, id), func() (Commit, error) {
		typ, content, err := ReadObject(ctx, dir, id, maxCommitObject)
		if err != nil {
			return Commit{}, err
		}
		return commitFrom(id, typ, content)
	}, func(c Commit) int64 { return commitsSize([]Commit{c}) })
}

func commitFrom(id, typ string, content []byte) (Commit, error) {
	if typ != "commit" {
		return Commit{}, fmt.Errorf("%w: %s is a %s, not a commit", ErrInvalidRef, id, typ)
	}
	return parseCommit(id, content)
}

// parseCommit reads a commit object as git log's commitFormat would show
// it: the message as stored, without its trailing newlines.
func parseCommit(id string, content []byte) (Commit, error) {
	c := Commit{ID: id, Parents: []string{}}
	headers, message, _ := bytes.Cut(content, []byte("\n\n"))
	c.Message = strings.TrimRight(string(message), "\n")
	for _, line := range strings.Split(string(headers), "\n") {
		key, value, _ := strings.Cut(line, " ")
		var err error
		switch key {
		case "tree":
			c.Tree = value
		case "parent":
			c.Parents = append(c.Parents, value)
		case "author":
			c.Author, err = parseSignature(value)
		case "committer":
			c.Committer, err = parseSignature(value)
		case "encoding":
			if !strings.EqualFold(value, "utf-8") && !strings.EqualFold(value, "utf8") {
				return Commit{}, errNotPageable // git log converts it; we would not
			}
		}
		if err != nil {
			return Commit{}, fmt.Errorf("parse commit %s: %w", id, err)
		}
	}
	if c.Tree == "" {
		return Commit{}, fmt.Errorf("parse commit %s: no tree", id)
	}
	return c, nil
}

// parseSignature reads "Name <email> 1700000000 +0100".
func parseSignature(s string) (Signature, error) {
	open, end := strings.LastIndexByte(s, '<'), strings.LastIndexByte(s, '>')
	if open < 0 || end < open {
		return Signature{}, fmt.Errorf("signature %q has no email", s)
	}
	sig := Signature{Name: strings.TrimSpace(s[:open]), Email: s[open+1 : end]}
	stamp, zone, _ := strings.Cut(strings.TrimSpace(s[end+1:]), " ")
	secs, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return Signature{}, fmt.Errorf("signature %q has no time", s)
	}
	offset := 0
	if len(zone) == 5 && (zone[0] == '+' || zone[0] == '-') {
		hh, err1 := strconv.Atoi(zone[1:3])
		mm, err2 := strconv.Atoi(zone[3:5])
		if err1 == nil && err2 == nil {
			offset = hh*3600 + mm*60
			if zone[0] == '-' {
				offset = -offset
			}
		}
	}
	// Through the text git log's %aI gives, so that the time's location
	// (and so its JSON) is what parsing that text has always made it
	// (git writes +00:00, never Z).
	sig.When = parseTime(time.Unix(secs, 0).In(time.FixedZone("", offset)).Format("2006-01-02T15:04:05-07:00"))
	return sig, nil
}

// filesOf gives each commit its changed files: from the cache, and one
// diff-tree for the commits not in it.
func filesOf(ctx context.Context, dir string, commits []Commit) error {
	var missing []Commit
	at := map[string]int{}
	for i, c := range commits {
		if v, ok := browseCache.get(cacheKey("files", dir, c.ID)); ok {
			commits[i].Files = v.([]FileChange)
			continue
		}
		at[c.ID] = i
		missing = append(missing, c)
	}
	if err := fillFiles(ctx, dir, missing); err != nil {
		return err
	}
	for _, c := range missing {
		commits[at[c.ID]].Files = c.Files
		browseCache.add(cacheKey("files", dir, c.ID), c.Files, filesSize(c.Files))
	}
	return nil
}

func filesSize(files []FileChange) int64 {
	n := int64(24)
	for _, f := range files {
		n += int64(len(f.Path)+len(f.OldPath)+len(f.Status)) + 64
	}
	return n
}
