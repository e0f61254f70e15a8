package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Merging pull requests, with the git binary: conflicts are found with
// `git merge-tree --write-tree` (no worktree), merge and squash commits are
// written with commit-tree, and a rebase replays the commits with `git
// rebase` in a throwaway worktree (git 2.39 has no plumbing that cherry-picks
// onto another base). Nothing here moves a branch: the caller records the
// merge, then moves the ref with MoveRef, so a refused merge leaves the
// repository as it was (only unreferenced objects, which gc collects).

// Merge styles, as the forge names them.
const (
	StyleMerge  = "merge"
	StyleSquash = "squash"
	StyleRebase = "rebase"
	// StyleRebaseMerge replays the head onto the base, then joins them with
	// a merge commit (--no-ff), which keeps a linear branch inside the merge.
	StyleRebaseMerge = "rebase-merge"
	// StyleFastForward moves the base to the head, and only when the base
	// is in the head's history: no commit is made.
	StyleFastForward = "fast-forward-only"
)

// ConflictError says a merge cannot be made without a person: the files
// both sides changed differently.
type ConflictError struct {
	Files []string
}

func (e *ConflictError) Error() string {
	return "merge conflict in " + strings.Join(e.Files, ", ")
}

// ErrUnrelated is returned for branches with no common commit.
var ErrUnrelated = errors.New("the branches share no history")

// ErrNotFastForward is returned for a fast-forward-only merge whose base
// is not in the head's history (the base moved since the head branched).
var ErrNotFastForward = errors.New("the base branch is not an ancestor of the head")

// ErrRefChanged is returned by MoveRef when the ref no longer holds the
// expected commit (someone pushed meanwhile).
var ErrRefChanged = errors.New("the branch moved meanwhile")

// CommitOf resolves rev (a full ref name or a commit id) to a commit id;
// ok is false when it names no commit.
func CommitOf(ctx context.Context, dir, rev string) (id string, ok bool, err error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", false, nil
	}
	cmd := Command(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("git rev-parse %s: %w: %s", rev, err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), true, nil
}

// FetchRef copies srcRef of the repository at src, with the objects it
// reaches, to dstRef of the repository at dir (a fork's branch into its
// parent's refs/pull/N/head). Within one repository it just sets the ref.
func FetchRef(ctx context.Context, dir, src, srcRef, dstRef string) error {
	if filepath.Clean(src) == filepath.Clean(dir) {
		id, ok, err := CommitOf(ctx, dir, srcRef)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("fetch %s: %w", srcRef, ErrNotFound)
		}
		return SetRef(ctx, dir, dstRef, id)
	}
	if _, err := run(ctx, dir, nil, nil, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", src, "+"+srcRef+":"+dstRef); err != nil {
		return fmt.Errorf("fetch %s from %s: %w", srcRef, src, err)
	}
	return nil
}

// SetRef points ref at id, whatever it held.
func SetRef(ctx context.Context, dir, ref, id string) error {
	if _, err := run(ctx, dir, nil, nil, "update-ref", ref, id); err != nil {
		return fmt.Errorf("set %s: %w", ref, err)
	}
	return nil
}

// MoveRef moves ref from old to new atomically: ErrRefChanged if it no
// longer holds old.
func MoveRef(ctx context.Context, dir, ref, new, old string) error {
	_, err := run(ctx, dir, nil, nil, "update-ref", ref, new, old)
	if err != nil && strings.Contains(err.Error(), "but expected") {
		return fmt.Errorf("move %s: %w", ref, ErrRefChanged)
	}
	if err != nil {
		return fmt.Errorf("move %s: %w", ref, err)
	}
	return nil
}

// DeleteRefAt deletes ref only while it holds old: ErrRefChanged if it
// moved meanwhile.
func DeleteRefAt(ctx context.Context, dir, ref, old string) error {
	_, err := run(ctx, dir, nil, nil, "update-ref", "-d", ref, old)
	if err != nil && strings.Contains(err.Error(), "but expected") {
		return fmt.Errorf("delete %s: %w", ref, ErrRefChanged)
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", ref, err)
	}
	return nil
}

// MergeBase is the best common ancestor of a and b; "" when they have none.
func MergeBase(ctx context.Context, dir, a, b string) (string, error) {
	cmd := Command(ctx, dir, "merge-base", a, b)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 && stderr.Len() == 0 {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("git merge-base: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// IsAncestor reports whether a is b or one of its ancestors.
func IsAncestor(ctx context.Context, dir, a, b string) (bool, error) {
	cmd := Command(ctx, dir, "merge-base", "--is-ancestor", a, b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("git merge-base --is-ancestor: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return true, nil
}

// MergeTree merges head into base without a worktree and returns the
// merged tree, or the conflicted files (sorted) when there are any.
func MergeTree(ctx context.Context, dir, base, head string) (tree string, conflicts []string, err error) {
	cmd := Command(ctx, dir, "merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", base, head)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	clean := err == nil
	if !clean && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		if strings.Contains(stderr.String(), "unrelated histories") {
			return "", nil, ErrUnrelated
		}
		return "", nil, fmt.Errorf("git merge-tree: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	// Output: <tree>\0 then, on conflict, one conflicted path per \0.
	fields := strings.Split(strings.TrimRight(stdout.String(), "\x00"), "\x00")
	tree = fields[0]
	if clean {
		return tree, nil, nil
	}
	for _, f := range fields[1:] {
		if f != "" && !slices.Contains(conflicts, f) {
			conflicts = append(conflicts, f)
		}
	}
	slices.Sort(conflicts)
	return tree, conflicts, nil
}

// MergeOptions describe the commit(s) a merge makes on the base branch.
type MergeOptions struct {
	Style string // StyleMerge, StyleSquash, StyleRebase, StyleRebaseMerge or StyleFastForward
	// Base and Head are commit ids: the base branch's tip and the pull
	// request's head.
	Base, Head string
	// Message is the merge or squash commit's message (unused by rebase,
	// which keeps each commit's own, and by fast-forward-only).
	Message string
	// Author of a squash commit (the pull request's author); Committer of
	// every commit made (the person merging), and author of a merge commit.
	Author, Committer Signature
}

// Merge makes the commit(s) that merge Head into Base in opts.Style and
// returns the new tip for the base branch; no ref moves. A conflict is a
// *ConflictError; branches without a common commit give ErrUnrelated; a
// fast-forward-only merge of a base that moved gives ErrNotFastForward.
func Merge(ctx context.Context, dir string, opts MergeOptions) (string, error) {
	if opts.Style == StyleFastForward {
		ff, err := IsAncestor(ctx, dir, opts.Base, opts.Head)
		if err != nil {
			return "", err
		}
		if !ff {
			return "", ErrNotFastForward
		}
		return opts.Head, nil
	}
	tree, conflicts, err := MergeTree(ctx, dir, opts.Base, opts.Head)
	if err != nil {
		return "", err
	}
	if len(conflicts) > 0 {
		return "", &ConflictError{Files: conflicts}
	}
	switch opts.Style {
	case StyleMerge:
		return commitTree(ctx, dir, tree, opts.Message, opts.Committer, opts.Committer, opts.Base, opts.Head)
	case StyleSquash:
		return commitTree(ctx, dir, tree, opts.Message, opts.Author, opts.Committer, opts.Base)
	case StyleRebase:
		return rebase(ctx, dir, opts)
	case StyleRebaseMerge:
		// The merge commit's tree is the rebased head's: the rebase already
		// applied the head's changes on top of the base.
		rebased, err := rebase(ctx, dir, opts)
		if err != nil {
			return "", err
		}
		return commitTree(ctx, dir, rebased+"^{tree}", opts.Message, opts.Committer, opts.Committer, opts.Base, rebased)
	}
	return "", fmt.Errorf("unknown merge style %q", opts.Style)
}

func commitTree(ctx context.Context, dir, tree, message string, author, committer Signature, parents ...string) (string, error) {
	args := []string{"commit-tree", "--no-gpg-sign", tree}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	if !strings.HasSuffix(message, "\n") {
		message += "\n"
	}
	env := append(signatureEnv("AUTHOR", author), signatureEnv("COMMITTER", committer)...)
	id, err := run(ctx, dir, env, strings.NewReader(message), args...)
	if err != nil {
		return "", fmt.Errorf("write merge commit: %w", err)
	}
	return id, nil
}

// signatureEnv is who (AUTHOR or COMMITTER) as git's environment.
func signatureEnv(who string, s Signature) []string {
	when := s.When
	if when.IsZero() {
		when = time.Now()
	}
	return []string{
		"GIT_" + who + "_NAME=" + s.Name, "GIT_" + who + "_EMAIL=" + s.Email,
		"GIT_" + who + "_DATE=" + fmt.Sprintf("@%d %s", when.Unix(), when.Format("-0700")),
	}
}

// rebase replays the head's commits onto the base in a throwaway worktree
// of the bare repository (its objects go straight into the repository).
// When the base is already in the head's history this is a fast-forward:
// the head itself, as git rebase leaves it.
func rebase(ctx context.Context, dir string, opts MergeOptions) (string, error) {
	if ff, err := IsAncestor(ctx, dir, opts.Base, opts.Head); err != nil || ff {
		return opts.Head, err
	}
	tmp, err := os.MkdirTemp("", "dforge-rebase-")
	if err != nil {
		return "", fmt.Errorf("rebase: %w", err)
	}
	defer os.RemoveAll(tmp)
	wt := filepath.Join(tmp, "worktree")
	if _, err := run(ctx, dir, nil, nil, "worktree", "add", "--quiet", "--detach", wt, opts.Head); err != nil {
		return "", fmt.Errorf("rebase: add worktree: %w", err)
	}
	defer func() {
		// A fresh context: the worktree's record must go even when ctx is done.
		clean, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		run(clean, dir, nil, nil, "worktree", "remove", "--force", wt)
		run(clean, dir, nil, nil, "worktree", "prune")
	}()
	settings := []string{"-c", "commit.gpgSign=false", "-c", "rebase.autoSquash=false", "-c", "rebase.autoStash=false",
		"-c", "rebase.updateRefs=false", "-c", "core.hooksPath=/dev/null"}
	args := append(settings, "rebase", "--quiet", "--no-verify", opts.Base)
	if _, err := run(ctx, wt, signatureEnv("COMMITTER", opts.Committer), nil, args...); err != nil {
		files, _ := run(ctx, wt, nil, nil, "diff", "--name-only", "--diff-filter=U")
		if files != "" {
			return "", &ConflictError{Files: strings.Split(files, "\n")}
		}
		return "", fmt.Errorf("rebase: %w", err)
	}
	id, ok, err := CommitOf(ctx, wt, "HEAD")
	if err != nil || !ok {
		return "", fmt.Errorf("rebase: read the result: %v", err)
	}
	return id, nil
}

// DeleteRef removes ref; a missing ref is no error.
func DeleteRef(ctx context.Context, dir, ref string) error {
	if _, err := run(ctx, dir, nil, nil, "update-ref", "-d", ref); err != nil {
		return fmt.Errorf("delete %s: %w", ref, err)
	}
	return nil
}
