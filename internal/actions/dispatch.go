package actions

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nektos/act/pkg/jobparser"
	"github.com/nektos/act/pkg/model"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/usererr"
)

// Dispatch runs repo's workflow file at ref (its default branch when "")
// with inputs, as workflow_dispatch does, in actor's name.
func (s *Service) Dispatch(ctx context.Context, repo uint64, file, ref string, inputs map[string]string, actor common.Address) (Run, error) {
	if strings.ContainsAny(file, "/\\") || (path.Ext(file) != ".yml" && path.Ext(file) != ".yaml") {
		return Run{}, usererr.Missingf("the repository has no workflow %s", file)
	}
	rec, err := s.cfg.Index.RepoByID(ctx, repo)
	if err != nil {
		return Run{}, err
	}
	dir, err := s.cfg.RepoDir(ctx, repo)
	if err != nil {
		return Run{}, fmt.Errorf("find the git data: %w", err)
	}
	if ref == "" {
		ref = rec.DefaultBranch
	}
	full, sha, err := resolveRef(ctx, dir, ref)
	if err != nil {
		return Run{}, err
	}
	files, err := workflowFiles(ctx, dir, sha)
	if err != nil {
		return Run{}, err
	}
	i := slices.IndexFunc(files, func(f gitstore.Entry) bool { return f.Name == file })
	if i < 0 {
		return Run{}, usererr.Missingf("the repository has no workflow %s at %s", file, ref)
	}
	t := trigger{Repo: repo, Event: "workflow_dispatch", Ref: full, After: sha, Who: addr(actor), Created: s.ms()}
	var inputErr error
	p, err := planRun(ctx, dir, rec, t, files[i], func(events []*jobparser.Event) (bool, error) {
		for _, evt := range events {
			if evt.Name == "workflow_dispatch" {
				t.Inputs, inputErr = dispatchInputs(evt.Inputs(), inputs)
				return inputErr == nil, nil
			}
		}
		return false, nil
	})
	switch {
	case err != nil:
		return Run{}, err
	case inputErr != nil:
		return Run{}, inputErr
	case p == nil:
		return Run{}, usererr.Unprocessablef("workflow", "no_dispatch", "workflow %s has no workflow_dispatch trigger", file)
	}
	// planRun built the jobs before the inputs were known to t: plan again
	// with them, so expressions over inputs see their values.
	if p, err = planRun(ctx, dir, rec, t, files[i], func([]*jobparser.Event) (bool, error) { return true, nil }); err != nil {
		return Run{}, err
	}
	ids, err := s.recordRuns(ctx, t, []plannedRun{*p})
	if err != nil {
		return Run{}, err
	}
	return s.RunByID(ctx, repo, ids[0])
}

// resolveRef is ref's full name and commit: a branch, a tag or a full ref.
func resolveRef(ctx context.Context, dir, ref string) (string, string, error) {
	cands := []string{"refs/heads/" + ref, "refs/tags/" + ref}
	if strings.HasPrefix(ref, "refs/") {
		cands = []string{ref}
	}
	for _, c := range cands {
		if strings.HasPrefix(c, "-") {
			break
		}
		sha, err := gitstore.Resolve(ctx, dir, c)
		if err == nil {
			return c, sha, nil
		}
		if !errors.Is(err, gitstore.ErrRefNotFound) && !errors.Is(err, gitstore.ErrInvalidRef) {
			return "", "", fmt.Errorf("resolve %s: %w", c, err)
		}
	}
	return "", "", usererr.Unprocessablef("ref", "invalid_ref", "no branch or tag %s", ref)
}

// maxInputs bounds a dispatch's inputs.
const maxInputs = 25

// dispatchInputs checks given against the workflow's declared inputs
// and fills in defaults, as GitHub does.
func dispatchInputs(declared []jobparser.WorkflowDispatchInput, given map[string]string) (map[string]any, error) {
	if len(given) > maxInputs {
		return nil, usererr.Unprocessablef("inputs", "invalid_inputs", "at most %d inputs", maxInputs)
	}
	out := map[string]any{}
	for name := range given {
		if !slices.ContainsFunc(declared, func(d jobparser.WorkflowDispatchInput) bool { return d.Name == name }) {
			return nil, usererr.Unprocessablef("inputs", "invalid_inputs", "the workflow declares no input %q", name)
		}
	}
	for _, d := range declared {
		v, ok := given[d.Name]
		if !ok {
			v = d.Default
		}
		if d.Required && v == "" {
			return nil, usererr.Unprocessablef("inputs", "invalid_inputs", "input %q is required", d.Name)
		}
		switch d.Type {
		case "choice":
			if v != "" && !slices.Contains(d.Options, v) {
				return nil, usererr.Unprocessablef("inputs", "invalid_inputs", "input %q must be one of %s", d.Name, strings.Join(d.Options, ", "))
			}
		case "boolean":
			if v != "" && v != "true" && v != "false" {
				return nil, usererr.Unprocessablef("inputs", "invalid_inputs", "input %q must be true or false", d.Name)
			}
			out[d.Name] = v == "true"
			continue
		}
		out[d.Name] = v
	}
	return out, nil
}

// Workflow is a workflow file of a repository's default branch.
type Workflow struct {
	ID, Name, Path string // ID is the file's name, as Gitea's API names it
}

// Workflows lists the workflows on repo's default branch: .gitea's, or
// else .github's.
func (s *Service) Workflows(ctx context.Context, repo uint64) ([]Workflow, error) {
	rec, err := s.cfg.Index.RepoByID(ctx, repo)
	if err != nil {
		return nil, err
	}
	dir, err := s.cfg.RepoDir(ctx, repo)
	if err != nil {
		return nil, fmt.Errorf("find the git data: %w", err)
	}
	_, sha, err := resolveRef(ctx, dir, rec.DefaultBranch)
	if err != nil {
		return []Workflow{}, nil // an empty repository has none
	}
	files, err := workflowFiles(ctx, dir, sha)
	if err != nil {
		return nil, err
	}
	out := make([]Workflow, 0, len(files))
	for _, f := range files {
		w := Workflow{ID: f.Name, Name: f.Name, Path: f.Path}
		if content, err := readWorkflow(ctx, dir, f); err == nil {
			if wf, err := model.ReadWorkflow(strings.NewReader(content)); err == nil && wf.Name != "" {
				w.Name = wf.Name
			}
		}
		out = append(out, w)
	}
	return out, nil
}
