package forge

import (
	"bytes"
	"context"
	"errors"
	"slices"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// What happened to a pull request's head since it was opened or reviewed,
// read with git: the commits a push brought (the timeline's pull_push) and
// the line comments a later head made outdated.

// MaxPushedCommits bounds the commits one push lists.
const MaxPushedCommits = 250

// Pushed lists the commits a push to pr's head branch brought, oldest
// first, at most MaxPushedCommits: those of newSHA not reachable from
// oldSHA. They are read from the head repository, else from the base's
// copy; nil when neither holds them (a replica without the git data, a
// fork deleted since). A forced push or a branch made anew lists none:
// what it brought is newSHA's history, not a list of new commits.
func (p *Pulls) Pushed(ctx context.Context, base index.Repo, pr index.Pull, oldSHA, newSHA string, forced bool) []gitstore.Commit {
	if forced || oldSHA == "" {
		return nil
	}
	for _, dir := range p.pullDirs(ctx, base, pr) {
		if !hasCommits(ctx, dir, oldSHA, newSHA) {
			continue
		}
		commits, err := gitstore.Log(ctx, dir, oldSHA+".."+newSHA, gitstore.LogOptions{Limit: MaxPushedCommits})
		if err != nil {
			p.svc.log.WarnContext(ctx, "list a push's commits", "repo", base.ID, "number", pr.Number, "err", err)
			return nil
		}
		slices.Reverse(commits)
		return commits
	}
	return nil
}

// Outdated says which of review rv's line comments no longer describe pr's
// head, by id. A comment made on the head it still has is current. Else,
// on the new side, it is outdated when line N of its file at the head is
// not line N of that file at the reviewed commit (changed, moved by lines
// added or removed above it, or gone with the file); on the old side, the
// same comparison between the merge bases of the reviewed commit and of
// the head with the base branch. What git cannot read here (a replica
// without the git data, a commit gone) is not called outdated.
func (p *Pulls) Outdated(ctx context.Context, base index.Repo, pr index.Pull, rv index.Review) map[uint64]bool {
	out := map[uint64]bool{}
	if rv.CommitSHA == "" || rv.CommitSHA == pr.HeadSHA || len(rv.Comments) == 0 {
		return out
	}
	var dir string
	for _, d := range p.pullDirs(ctx, base, pr) {
		if hasCommits(ctx, d, rv.CommitSHA, pr.HeadSHA) {
			dir = d
			break
		}
	}
	if dir == "" {
		return out
	}
	// The old side's commits: the merge bases with the base branch as it
	// is now (open) or was last recorded (closed).
	var oldThen, oldNow string
	against := pr.BaseSHA
	if !pr.Merged && pr.State == chainforge.StateOpen {
		if tip, ok, _ := branchCommit(ctx, dir, pr.BaseBranch); ok {
			against = tip
		}
	}
	if hasCommits(ctx, dir, against) {
		oldThen, _ = gitstore.MergeBase(ctx, dir, rv.CommitSHA, against)
		oldNow, _ = gitstore.MergeBase(ctx, dir, pr.HeadSHA, against)
	}
	files := fileLines{dir: dir, read: map[[2]string]*lines{}}
	for _, c := range rv.Comments {
		then, now := rv.CommitSHA, pr.HeadSHA
		if c.Side == "old" {
			then, now = oldThen, oldNow
		}
		if then == "" || now == "" || then == now {
			continue
		}
		a, b := files.at(ctx, then, c.Path), files.at(ctx, now, c.Path)
		if a == nil || !a.ok || (b != nil && !b.ok) {
			continue // unreadable here: not known to be outdated
		}
		if b == nil || a.blob == b.blob {
			out[c.ID] = b == nil
			continue
		}
		la, inA := a.line(c.Line)
		lb, inB := b.line(c.Line)
		if !inA || (!inB && b.truncated) {
			continue
		}
		out[c.ID] = !inB || !bytes.Equal(la, lb)
	}
	return out
}

// pullDirs are the repositories on this node that may hold pr's commits:
// the head repository (where its pushes land), then the base (which keeps
// refs/pull/N/head).
func (p *Pulls) pullDirs(ctx context.Context, base index.Repo, pr index.Pull) []string {
	var dirs []string
	head := base
	if pr.HeadRepo != base.ID {
		if r, err := p.svc.ix.RepoByID(ctx, pr.HeadRepo); err == nil {
			head = r
		}
	}
	if d, err := p.gitDir(head); err == nil {
		dirs = append(dirs, d)
	}
	if head.ID != base.ID {
		if d, err := p.gitDir(base); err == nil {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// hasCommits says whether the repository at dir holds every one of ids.
func hasCommits(ctx context.Context, dir string, ids ...string) bool {
	for _, id := range ids {
		if _, ok, err := gitstore.CommitOf(ctx, dir, id); err != nil || !ok {
			return false
		}
	}
	return true
}

// maxCompared bounds how much of a file is read to compare its lines.
const maxCompared = 4 << 20

// lines is one file of one commit, split into lines.
type lines struct {
	blob      string
	ok        bool // read; false when git could not read it
	truncated bool
	text      [][]byte
}

// line is line n (from 1), and whether the file has it.
func (l *lines) line(n uint64) ([]byte, bool) {
	if n == 0 || n > uint64(len(l.text)) {
		return nil, false
	}
	return l.text[n-1], true
}

// fileLines reads files of commits once each.
type fileLines struct {
	dir  string
	read map[[2]string]*lines
}

// at is path in commit; nil when the commit has no such file.
func (f fileLines) at(ctx context.Context, commit, path string) *lines {
	k := [2]string{commit, path}
	if l, ok := f.read[k]; ok {
		return l
	}
	l := &lines{}
	e, err := gitstore.Stat(ctx, f.dir, commit, path)
	switch {
	case errors.Is(err, gitstore.ErrPathNotFound) || (err == nil && e.Type != "blob"):
		l = nil
	case err != nil:
		// l.ok false: unread
	default:
		l.blob = e.ID
		data, err := gitstore.ReadBlob(ctx, f.dir, e.ID, maxCompared+1)
		if err == nil {
			l.ok, l.truncated = true, len(data) > maxCompared
			if l.truncated {
				data = data[:maxCompared]
				data = data[:bytes.LastIndexByte(data, '\n')+1]
			}
			l.text = bytes.SplitAfter(data, []byte("\n"))
			if n := len(l.text); n > 0 && len(l.text[n-1]) == 0 {
				l.text = l.text[:n-1]
			}
			for i, t := range l.text {
				l.text[i] = bytes.TrimRight(t, "\r\n")
			}
		}
	}
	f.read[k] = l
	return l
}
