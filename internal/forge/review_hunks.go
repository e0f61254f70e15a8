package forge

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// HunkContextLines is how many diff lines a review comment's diff_hunk
// keeps: the commented line and those just above it (Gitea's
// setting.UI.CodeCommentLines).
const HunkContextLines = 4

// maxHunkDiff bounds the diff read to find review comments' hunks.
const maxHunkDiff = 8 << 20

// DiffHunks is Gitea's diff_hunk of each of review rv's line comments, by
// id: the lines of the diff the reviewer saw (the reviewed commit against
// its merge base with the base branch) that end at the commented line, at
// most HunkContextLines of them, under a hunk header that counts just
// those. A comment whose line git cannot find here (a replica without the
// git data, a commit gone, a line outside the diff) has none.
func (p *Pulls) DiffHunks(ctx context.Context, base index.Repo, pr index.Pull, rv index.Review) map[uint64]string {
	out := map[uint64]string{}
	if rv.CommitSHA == "" || len(rv.Comments) == 0 {
		return out
	}
	for _, dir := range p.pullDirs(ctx, base, pr) {
		if !hasCommits(ctx, dir, rv.CommitSHA) {
			continue
		}
		against := pr.BaseSHA
		if !pr.Merged && pr.State == chainforge.StateOpen {
			if tip, ok, _ := branchCommit(ctx, dir, pr.BaseBranch); ok {
				against = tip
			}
		}
		if against == "" || !hasCommits(ctx, dir, against) {
			continue
		}
		from, err := gitstore.MergeBase(ctx, dir, rv.CommitSHA, against)
		if err != nil || from == "" {
			continue
		}
		var diff cappedBuffer
		if err := gitstore.WriteDiff(ctx, dir, from, rv.CommitSHA, &diff); err != nil {
			p.svc.log.WarnContext(ctx, "diff a reviewed commit", "repo", base.ID, "number", pr.Number, "err", err)
			return out
		}
		files := parseHunks(diff.Bytes())
		for _, c := range rv.Comments {
			if h := hunkAround(files[c.Path], c.Side == "old", c.Line); h != "" {
				out[c.ID] = h
			}
		}
		return out
	}
	return out
}

// cappedBuffer keeps the first maxHunkDiff bytes written to it and drops
// the rest, so a huge diff neither fills memory nor fails the command.
type cappedBuffer struct{ bytes.Buffer }

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := maxHunkDiff - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// diffLine is one line of a hunk with its numbers in the old and new file;
// on the side it is not on, the number the next line there has.
type diffLine struct {
	text     string
	old, new uint64
}

// hunk is the lines of one hunk of a diff.
type hunk struct{ lines []diffLine }

// parseHunks splits a unified diff into each file's hunks, by path (the
// new one and, when it differs, the old one).
func parseHunks(diff []byte) map[string][]*hunk {
	files := map[string][]*hunk{}
	var oldPath, newPath string
	var h *hunk
	var oldNo, newNo, oldEnd, newEnd uint64
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 0, 64<<10), maxHunkDiff)
	for sc.Scan() {
		line := sc.Text()
		// Inside a hunk every line up to its counts belongs to it, even one that looks like a header.
		if h != nil && (oldNo < oldEnd || newNo < newEnd) {
			switch {
			case strings.HasPrefix(line, "+"):
				h.lines = append(h.lines, diffLine{text: line, old: oldNo, new: newNo})
				newNo++
				continue
			case strings.HasPrefix(line, "-"):
				h.lines = append(h.lines, diffLine{text: line, old: oldNo, new: newNo})
				oldNo++
				continue
			case strings.HasPrefix(line, " ") || line == "":
				h.lines = append(h.lines, diffLine{text: line, old: oldNo, new: newNo})
				oldNo++
				newNo++
				continue
			}
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			oldPath, newPath, h = "", "", nil
		case strings.HasPrefix(line, "--- "):
			oldPath = diffPath(line[4:])
		case strings.HasPrefix(line, "+++ "):
			newPath = diffPath(line[4:])
		case strings.HasPrefix(line, "@@ "):
			os, ol, ns, nl, ok := parseHunkHeader(line)
			if !ok {
				h = nil
				continue
			}
			oldNo, oldEnd, newNo, newEnd = os, os+ol, ns, ns+nl
			h = &hunk{}
			if newPath != "" {
				files[newPath] = append(files[newPath], h)
			}
			if oldPath != "" && oldPath != newPath {
				files[oldPath] = append(files[oldPath], h)
			}
		}
	}
	return files
}

// diffPath is the path of a "--- a/x" or "+++ b/x" line: "" for /dev/null,
// unquoted when git quoted it.
func diffPath(raw string) string {
	raw = strings.TrimSuffix(raw, "\t")
	if strings.HasPrefix(raw, `"`) {
		if u, err := strconv.Unquote(raw); err == nil {
			raw = u
		}
	}
	if raw == "/dev/null" {
		return ""
	}
	if len(raw) > 2 && (raw[:2] == "a/" || raw[:2] == "b/") {
		return raw[2:]
	}
	return raw
}

// parseHunkHeader reads "@@ -os,ol +ns,nl @@" (a count left out is 1).
func parseHunkHeader(line string) (os, ol, ns, nl uint64, ok bool) {
	fields := strings.Fields(line)
	if len(fields) < 4 || fields[3] != "@@" {
		return 0, 0, 0, 0, false
	}
	var ok1, ok2 bool
	os, ol, ok1 = hunkRange(fields[1], "-")
	ns, nl, ok2 = hunkRange(fields[2], "+")
	return os, ol, ns, nl, ok1 && ok2
}

func hunkRange(f, sign string) (start, count uint64, ok bool) {
	f, found := strings.CutPrefix(f, sign)
	if !found {
		return 0, 0, false
	}
	a, b, hasCount := strings.Cut(f, ",")
	start, err := strconv.ParseUint(a, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		if count, err = strconv.ParseUint(b, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}

// hunkAround is the diff_hunk of a comment on line n of the old or new
// side: up to HunkContextLines lines ending at it, under a header that
// counts them. "" when no hunk has the line.
func hunkAround(hunks []*hunk, old bool, n uint64) string {
	for _, h := range hunks {
		for i, l := range h.lines {
			at := l.new
			if old {
				at = l.old
			}
			if at != n || (old && strings.HasPrefix(l.text, "+")) || (!old && strings.HasPrefix(l.text, "-")) {
				continue
			}
			kept := h.lines[max(0, i+1-HunkContextLines) : i+1]
			os, ns := kept[0].old, kept[0].new
			var ol, nl uint64
			for _, k := range kept {
				if !strings.HasPrefix(k.text, "+") {
					ol++
				}
				if !strings.HasPrefix(k.text, "-") {
					nl++
				}
			}
			// A side with no lines here is written, as git does, as the line before.
			if ol == 0 && os > 0 {
				os--
			}
			if nl == 0 && ns > 0 {
				ns--
			}
			var b strings.Builder
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@", os, ol, ns, nl)
			for _, k := range kept {
				b.WriteString("\n")
				b.WriteString(k.text)
			}
			return b.String()
		}
	}
	return ""
}
