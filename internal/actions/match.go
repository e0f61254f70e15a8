package actions

import (
	"context"
	"fmt"
	"slices"

	"github.com/nektos/act/pkg/jobparser"
	"github.com/nektos/act/pkg/workflowpattern"
)

// matches says whether one of a workflow's events takes the trigger t.
func matches(ctx context.Context, dir string, t trigger, events []*jobparser.Event, changed *[]string) (bool, error) {
	switch t.Event {
	case "push":
		return matchesPush(ctx, dir, t, events, changed)
	case "pull_request":
		return matchesPull(ctx, dir, t, events, changed)
	}
	for _, evt := range events { // issues, issue_comment, release: by type
		if evt.Name == t.Event && typeMatches(evt.Acts()["types"], t.Payload.Action, nil) {
			return true, nil
		}
	}
	return false, nil
}

// typeMatches says whether an event's activity type is among types, or
// among defaults when the workflow names none (nil: any).
func typeMatches(types []string, action string, defaults []string) bool {
	if len(types) == 0 {
		types = defaults
	}
	return len(types) == 0 || slices.Contains(types, action)
}

// matchesPull is GitHub's pull_request filter: types (opened,
// synchronize and reopened by default), branches on the base branch, and
// paths on the pull request's files.
func matchesPull(ctx context.Context, dir string, t trigger, events []*jobparser.Event, changed *[]string) (bool, error) {
	for _, evt := range events {
		if evt.Name != "pull_request" {
			continue
		}
		acts := evt.Acts()
		if !typeMatches(acts["types"], t.Payload.Action, []string{"opened", "synchronize", "reopened"}) {
			continue
		}
		ok, err := pullFilters(ctx, dir, t, acts, changed)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func pullFilters(ctx context.Context, dir string, t trigger, acts map[string][]string, changed *[]string) (bool, error) {
	for key, patterns := range acts {
		var input []string
		switch key {
		case "branches", "branches-ignore":
			input = []string{t.Payload.BaseBranch}
		case "paths", "paths-ignore":
			if *changed == nil {
				files, err := changedFiles(ctx, dir, t)
				if err != nil {
					return false, err
				}
				*changed = append(files, []string{}...)
			}
			input = *changed
		default:
			continue
		}
		ok, err := matchPatterns(key, patterns, input)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// matchesPush says whether one of a workflow's events takes the push t,
// with GitHub's filters: branches, tags, their -ignore forms, and paths.
// A push of a tag does not match a workflow that filters branches only,
// nor a branch push one that filters tags only. changed caches the
// push's files across its workflows.
func matchesPush(ctx context.Context, dir string, t trigger, events []*jobparser.Event, changed *[]string) (bool, error) {
	for _, evt := range events {
		if evt.Name != "push" {
			continue
		}
		ok, err := pushFilters(ctx, dir, t, evt.Acts(), changed)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func pushFilters(ctx context.Context, dir string, t trigger, acts map[string][]string, changed *[]string) (bool, error) {
	branch, isBranch := branchOf(t.Ref)
	tag, isTag := tagOf(t.Ref)
	_, byBranch := acts["branches"]
	_, byBranchIgnore := acts["branches-ignore"]
	_, byTag := acts["tags"]
	_, byTagIgnore := acts["tags-ignore"]
	refFiltered := byBranch || byBranchIgnore || byTag || byTagIgnore
	if refFiltered && ((isTag && !byTag && !byTagIgnore) || (isBranch && !byBranch && !byBranchIgnore)) {
		return false, nil
	}
	for key, patterns := range acts {
		var input []string
		switch key {
		case "branches", "branches-ignore":
			if !isBranch {
				continue
			}
			input = []string{branch}
		case "tags", "tags-ignore":
			if !isTag {
				continue
			}
			input = []string{tag}
		case "paths", "paths-ignore":
			if *changed == nil {
				files, err := changedFiles(ctx, dir, t)
				if err != nil {
					return false, err
				}
				*changed = append(files, []string{}...) // non-nil once read
			}
			input = *changed
		default:
			continue // types and the like say nothing about a push
		}
		ok, err := matchPatterns(key, patterns, input)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// matchPatterns applies one filter: a positive one matches when an input
// matches it, an -ignore one when not all inputs are ignored.
func matchPatterns(key string, patterns, input []string) (bool, error) {
	compiled, err := workflowpattern.CompilePatterns(patterns...)
	if err != nil {
		return false, fmt.Errorf("filter %s: %w", key, err)
	}
	tw := &workflowpattern.EmptyTraceWriter{}
	switch key {
	case "branches-ignore", "tags-ignore", "paths-ignore":
		return !workflowpattern.Filter(compiled, input, tw), nil
	}
	return !workflowpattern.Skip(compiled, input, tw), nil
}
