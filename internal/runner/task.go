package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"github.com/nektos/act/pkg/common"
	"github.com/nektos/act/pkg/model"
	actrunner "github.com/nektos/act/pkg/runner"
	"github.com/sirupsen/logrus"
	"go.yaml.in/yaml/v4"
)

// execution runs tasks for one registered runner.
type execution struct {
	client *client
	reg    *Registration
	labels []Label
	opts   Options
}

// errTimeout is the cause of a job's context when its timeout expires.
var errTimeout = errors.New("the job exceeded its timeout")

// run runs one task to its end and reports it. It returns nothing: every
// failure reaches the forge as the task's result and a last log line.
func (x *execution) run(ctx context.Context, task *runnerv1.Task) {
	jobCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	rep := newReporter(x.client, task, newMasker(taskMasks(task)...), cancel, x.opts.Log)
	rep.start(ctx)
	rep.logf("%s (%s) received task %d of job %s, triggered by %s", x.reg.Name, x.opts.Version,
		task.GetId(), contextString(task, "job"), contextString(task, "event_name"))

	execErr := x.execute(jobCtx, task, rep)
	result, lastWords := x.verdict(ctx, rep, execErr)
	if err := rep.finish(result, lastWords); err != nil {
		x.opts.Log.Warn("report the task's end", "task", task.GetId(), "err", err)
	}
	x.opts.Log.Info("task done", "task", task.GetId(), "result", result.String())
}

// verdict decides the task's result, and the line that says why when act's own
// log does not.
func (x *execution) verdict(ctx context.Context, rep *reporter, execErr error) (runnerv1.Result, string) {
	actResult, cancelled := rep.result()
	switch {
	case cancelled:
		return runnerv1.Result_RESULT_CANCELLED, "the task was cancelled"
	case errors.Is(execErr, errTimeout):
		return runnerv1.Result_RESULT_FAILURE, execErr.Error()
	case ctx.Err() != nil:
		return runnerv1.Result_RESULT_FAILURE, "the runner stopped during the job"
	case actResult != runnerv1.Result_RESULT_UNSPECIFIED:
		return actResult, ""
	case execErr != nil:
		return runnerv1.Result_RESULT_FAILURE, execErr.Error()
	}
	return runnerv1.Result_RESULT_SUCCESS, ""
}

// execute runs the task's job with act.
func (x *execution) execute(ctx context.Context, task *runnerv1.Task, rep *reporter) (err error) {
	defer func() {
		// A job act cannot handle fails alone; the runner goes on with the next.
		if p := recover(); p != nil {
			err = fmt.Errorf("act panicked: %v", p)
		}
	}()
	wf, jobID, err := parseWorkflow(task)
	if err != nil {
		return err
	}
	job := wf.GetJob(jobID)
	rep.setSteps(len(job.Steps))
	timeouts, notes := stepTimeouts(job)
	rep.setStepTimeouts(timeouts)
	for _, n := range notes {
		rep.logf("%s", n)
	}

	timeout, err := jobTimeout(job, x.opts.JobTimeout)
	if err != nil {
		rep.logf("%v; the job runs with the runner's limit of %s", err, x.opts.JobTimeout)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("%w (%s)", errTimeout, timeout))
	defer cancel()

	dir := filepath.Join(x.opts.Workdir, fmt.Sprintf("task-%d", task.GetId()))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create the task's directory: %w", err)
	}
	defer os.RemoveAll(dir)

	cfg, err := x.actConfig(task, dir, timeout)
	if err != nil {
		return err
	}
	r, err := actrunner.New(cfg)
	if err != nil {
		return fmt.Errorf("prepare act: %w", err)
	}
	// The plan is the job alone: the jobs it needs ran elsewhere and are in the
	// workflow only for the needs context.
	plan := &model.Plan{Stages: []*model.Stage{{Runs: []*model.Run{{Workflow: wf, JobID: jobID}}}}}

	ctx = common.WithLoggerHook(ctx, rep)
	ctx = actrunner.WithJobLoggerFactory(ctx, quietLogger{})
	err = r.NewPlanExecutor(plan)(ctx)
	rep.setOutputs(job.Outputs)
	if cause := context.Cause(ctx); errors.Is(cause, errTimeout) {
		return cause
	}
	return err
}

// parseWorkflow reads the task's payload, a workflow of the one job to run,
// and adds the jobs it needs with their outputs and results.
func parseWorkflow(task *runnerv1.Task) (*model.Workflow, string, error) {
	wf, err := model.ReadWorkflow(bytes.NewReader(task.GetWorkflowPayload()))
	if err != nil {
		return nil, "", fmt.Errorf("read the workflow: %w", err)
	}
	ids := wf.GetJobIDs()
	if len(ids) != 1 {
		return nil, "", fmt.Errorf("read the workflow: want one job, found %d (%v)", len(ids), ids)
	}
	jobID := ids[0]
	if wf.Jobs[jobID] == nil {
		return nil, "", fmt.Errorf("read the workflow: job %q is empty", jobID)
	}
	needs := slices.Sorted(maps.Keys(task.GetNeeds()))
	raw := yaml.Node{Kind: yaml.SequenceNode}
	for _, id := range needs {
		n := task.GetNeeds()[id]
		wf.Jobs[id] = &model.Job{
			Outputs: n.GetOutputs(),
			Result:  strings.ToLower(strings.TrimPrefix(n.GetResult().String(), "RESULT_")),
		}
		raw.Content = append(raw.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: id})
	}
	if len(needs) > 0 {
		wf.Jobs[jobID].RawNeeds = raw
	}
	return wf, jobID, nil
}

// jobTimeout is the job's timeout-minutes, or limit when it has none. act
// honours a step's timeout-minutes but not a job's.
func jobTimeout(job *model.Job, limit time.Duration) (time.Duration, error) {
	s := strings.TrimSpace(job.TimeoutMinutes)
	if s == "" {
		return limit, nil
	}
	m, err := strconv.ParseFloat(s, 64)
	if err != nil || m <= 0 {
		return limit, fmt.Errorf("timeout-minutes %q is not a positive number", s)
	}
	return time.Duration(m * float64(time.Minute)), nil
}

// stepTimeouts reads the steps' timeout-minutes. act honours only a whole
// number of minutes and silently ignores any other, so a fraction is rounded
// up to the next minute (and said so in the log) rather than dropped. The
// durations let the log say which step ran out of time; a timeout that is an
// expression is act's alone.
func stepTimeouts(job *model.Job) (map[int]time.Duration, []string) {
	timeouts := map[int]time.Duration{}
	var notes []string
	for i, st := range job.Steps {
		s := strings.TrimSpace(st.TimeoutMinutes)
		if s == "" || strings.Contains(s, "${{") {
			continue
		}
		m, err := strconv.ParseFloat(s, 64)
		if err != nil || m <= 0 {
			notes = append(notes, fmt.Sprintf("step %d: timeout-minutes %q is not a positive number; the step has none", i+1, s))
			continue
		}
		if whole := math.Ceil(m); whole != m {
			st.TimeoutMinutes = strconv.Itoa(int(whole))
			notes = append(notes, fmt.Sprintf("step %d: timeout-minutes %s is rounded up to %s: a step's timeout counts whole minutes", i+1, s, st.TimeoutMinutes))
			m = whole
		}
		timeouts[i] = time.Duration(m * float64(time.Minute))
	}
	return timeouts, notes
}

// actConfig builds act's configuration for the task.
func (x *execution) actConfig(task *runnerv1.Task, dir string, timeout time.Duration) (*actrunner.Config, error) {
	preset := githubContext(task)
	event, err := json.Marshal(preset.Event)
	if err != nil {
		return nil, fmt.Errorf("encode the event: %w", err)
	}
	instance := contextString(task, "server_url")
	if instance == "" {
		instance = x.reg.Address
	}
	actions := contextString(task, "gitea_default_actions_url")
	if actions == "" {
		actions = "https://github.com"
	}
	secrets := maps.Clone(task.GetSecrets())
	if secrets == nil {
		secrets = map[string]string{}
	}
	return &actrunner.Config{
		// Workdir is the workspace's path in a job container, as act_runner
		// names it. In host mode it is only a name: act runs the job in a
		// directory of its own under ActionCacheDir, this task's directory.
		Workdir:               workspacePath(preset.Repository, task.GetId()),
		ActionCacheDir:        dir,
		LogOutput:             true,
		Env:                   x.jobEnv(task, preset),
		Secrets:               secrets,
		Vars:                  task.GetVars(),
		GitHubInstance:        strings.TrimSuffix(instance, "/"),
		DefaultActionInstance: actions,
		AutoRemove:            true,
		NoSkipCheckout:        true,
		PresetGitHubContext:   preset,
		EventJSON:             string(event),
		ContainerNamePrefix:   fmt.Sprintf("DFORGE-ACTIONS-TASK-%d", task.GetId()),
		// act reaches Docker through DOCKER_HOST or its default socket; "-"
		// keeps that socket out of job containers, which could otherwise
		// command the host's daemon (act mounts it by default).
		ContainerDaemonSocket: "-",
		ContainerMaxLifetime:  timeout,
		PlatformPicker:        func(runsOn []string) string { return pickPlatform(x.labels, runsOn) },
	}, nil
}

func workspacePath(repository string, taskID int64) string {
	if repository == "" {
		repository = fmt.Sprintf("task-%d", taskID)
	}
	return "/workspace/" + repository
}

// githubContext reads the github context the forge sent with the task.
func githubContext(task *runnerv1.Task) *model.GithubContext {
	g := &model.GithubContext{
		Event:           task.GetContext().GetFields()["event"].GetStructValue().AsMap(),
		RunID:           contextString(task, "run_id"),
		RunNumber:       contextString(task, "run_number"),
		RunAttempt:      contextString(task, "run_attempt"),
		Actor:           contextString(task, "actor"),
		Repository:      contextString(task, "repository"),
		EventName:       contextString(task, "event_name"),
		Sha:             contextString(task, "sha"),
		Ref:             contextString(task, "ref"),
		RefName:         contextString(task, "ref_name"),
		RefType:         contextString(task, "ref_type"),
		HeadRef:         contextString(task, "head_ref"),
		BaseRef:         contextString(task, "base_ref"),
		Token:           contextString(task, "token"),
		RepositoryOwner: contextString(task, "repository_owner"),
		RetentionDays:   contextString(task, "retention_days"),
	}
	if g.Event == nil {
		g.Event = map[string]any{}
	}
	if t := task.GetSecrets()["GITEA_TOKEN"]; t != "" {
		g.Token = t
	} else if t := task.GetSecrets()["GITHUB_TOKEN"]; t != "" {
		g.Token = t
	}
	return g
}

// jobEnv is the environment Gitea's runner gives every job: where the
// artifact and cache API is, and the token to reach it.
func (x *execution) jobEnv(task *runnerv1.Task, preset *model.GithubContext) map[string]string {
	addr := strings.TrimSuffix(x.reg.Address, "/")
	runtimeToken := contextString(task, "gitea_runtime_token")
	if runtimeToken == "" {
		runtimeToken = preset.Token
	}
	env := map[string]string{
		"GITEA_ACTIONS":                "true",
		"GITEA_ACTIONS_RUNNER_VERSION": x.opts.Version,
		"ACTIONS_RUNTIME_URL":          addr + "/api/actions_pipeline/",
		"ACTIONS_RESULTS_URL":          addr,
		"ACTIONS_RUNTIME_TOKEN":        runtimeToken,
	}
	if id := contextString(task, "run_id"); id != "" {
		env["GITEA_RUN_ID"] = id
	}
	return env
}

// taskMasks are the values no log line may show: the secrets and the tokens.
func taskMasks(task *runnerv1.Task) []string {
	masks := slices.Collect(maps.Values(task.GetSecrets()))
	return append(masks, contextString(task, "token"), contextString(task, "gitea_runtime_token"))
}

func contextString(task *runnerv1.Task, key string) string {
	return task.GetContext().GetFields()[key].GetStringValue()
}

// quietLogger keeps act's job log off the runner's stdout: it goes to the
// forge through the reporter.
type quietLogger struct{}

func (quietLogger) WithJobLogger() *logrus.Logger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}
