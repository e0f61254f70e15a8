package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
	runnerv1 "gitea.dev/actions-proto-go/runner/v1"
	"github.com/sirupsen/logrus"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// How the reporter batches: the log goes out every logInterval, or as soon as
// flushLines lines wait; the state goes out when it changed, and at least every
// stateInterval, which is also how soon a cancel from the forge arrives.
const (
	logInterval        = 300 * time.Millisecond
	flushLines         = 100
	stateInterval      = time.Second
	finalReportTimeout = 30 * time.Second
	maxOutputKey       = 255
	maxOutputValue     = 1 << 20
)

// reporter streams one task's log and state to the forge. It is the logrus
// hook act's job logger fires for every entry: it turns raw step output into
// log rows, and act's stepResult/jobResult fields into the task's state.
type reporter struct {
	client    *client
	masker    *masker
	debug     bool
	cancelJob context.CancelFunc
	log       *slog.Logger

	mu        sync.Mutex
	rows      []*runnerv1.LogRow // not yet acknowledged; rows[0] is line `acked`
	acked     int64
	state     *runnerv1.TaskState
	dirty     bool
	outputs   map[string]string     // not yet acknowledged
	jobResult runnerv1.Result       // as act logged it
	timeouts  map[int]time.Duration // steps' timeout-minutes, by step number
	cancelled bool                  // by the forge

	flush chan struct{}
	stop  chan struct{}
	done  chan struct{}
}

func newReporter(c *client, task *runnerv1.Task, m *masker, cancelJob context.CancelFunc, log *slog.Logger) *reporter {
	return &reporter{
		client:    c,
		masker:    m,
		debug:     task.GetSecrets()["ACTIONS_STEP_DEBUG"] == "true" || task.GetVars()["ACTIONS_STEP_DEBUG"] == "true",
		cancelJob: cancelJob,
		log:       log.With("task", task.GetId()),
		state:     &runnerv1.TaskState{Id: task.GetId(), StartedAt: timestamppb.Now()},
		dirty:     true,
		outputs:   map[string]string{},
		flush:     make(chan struct{}, 1),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
	}
}

// setSteps declares the job's steps, so the forge can show them before they run.
func (r *reporter) setSteps(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.state.Steps = make([]*runnerv1.StepState, n)
	for i := range r.state.Steps {
		r.state.Steps[i] = &runnerv1.StepState{Id: int64(i)}
	}
	r.dirty = true
}

// setStepTimeouts records the steps' timeouts, so a step that runs out of
// time gets a line saying so: act only logs that the step was killed.
func (r *reporter) setStepTimeouts(timeouts map[int]time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timeouts = timeouts
}

// Levels is every level: a skipped step's result comes at debug level.
func (r *reporter) Levels() []logrus.Level { return logrus.AllLevels }

// Fire records one entry of act's job logger.
func (r *reporter) Fire(e *logrus.Entry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if res, ok := parseResult(e.Data["jobResult"]); ok {
		r.jobResult = res
	}
	step := r.stepOf(e)
	if row := r.row(e); row != nil {
		i := r.append(row)
		if step != nil {
			if step.LogLength == 0 {
				step.LogIndex = i
			}
			// A step's lines are a range; anything act logs in between belongs to it.
			step.LogLength = i - step.LogIndex + 1
		}
	}
	if step == nil {
		return nil
	}
	if step.StartedAt == nil {
		step.StartedAt = timestamppb.New(e.Time)
		r.dirty = true
	}
	if res, ok := parseResult(e.Data["stepResult"]); ok {
		if step.LogLength == 0 {
			step.LogIndex = r.next()
		}
		step.Result = res
		step.StoppedAt = timestamppb.New(e.Time)
		r.dirty = true
		r.noteTimeout(step)
	}
	return nil
}

// noteTimeout adds, to a step that failed once its time ran out, the line that
// says why.
func (r *reporter) noteTimeout(step *runnerv1.StepState) {
	limit, ok := r.timeouts[int(step.GetId())]
	if !ok || step.GetResult() != runnerv1.Result_RESULT_FAILURE {
		return
	}
	if step.GetStoppedAt().AsTime().Sub(step.GetStartedAt().AsTime()) < limit {
		return
	}
	i := r.append(&runnerv1.LogRow{Time: step.GetStoppedAt(), Content: fmt.Sprintf("the step exceeded its timeout-minutes (%s)", limit)})
	if step.LogLength == 0 {
		step.LogIndex = i
	}
	step.LogLength = i - step.LogIndex + 1
}

// stepOf is the step an entry belongs to: act tags a step's main stage with its
// number. Pre and post stages and the job's own lines belong to no step, so the
// forge shows them as the job's set-up and completion.
func (r *reporter) stepOf(e *logrus.Entry) *runnerv1.StepState {
	if e.Data["stage"] != "Main" {
		return nil
	}
	n, ok := e.Data["stepNumber"].(int)
	if !ok || n < 0 || n >= len(r.state.Steps) {
		return nil
	}
	return r.state.Steps[n]
}

// row turns an entry into a masked log row, or nil for an entry the log
// leaves out (debug output unless ACTIONS_STEP_DEBUG, ::add-mask:: lines).
func (r *reporter) row(e *logrus.Entry) *runnerv1.LogRow {
	if e.Level > logrus.InfoLevel && !r.debug {
		return nil
	}
	content := strings.TrimRight(e.Message, "\r\n")
	if v, ok := strings.CutPrefix(content, "::add-mask::"); ok && e.Data["raw_output"] == true {
		r.masker.add(unescapeCommand(strings.TrimSpace(v)))
		return nil
	}
	return &runnerv1.LogRow{Time: timestamppb.New(e.Time), Content: r.masker.mask(content)}
}

// unescapeCommand undoes the escaping of a workflow command's value.
func unescapeCommand(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(s)
}

func (r *reporter) next() int64 { return r.acked + int64(len(r.rows)) }

func (r *reporter) append(row *runnerv1.LogRow) int64 {
	i := r.next()
	r.rows = append(r.rows, row)
	if len(r.rows) >= flushLines {
		select {
		case r.flush <- struct{}{}:
		default:
		}
	}
	return i
}

// logf adds a line of the runner's own, outside any step.
func (r *reporter) logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.append(&runnerv1.LogRow{Time: timestamppb.Now(), Content: r.masker.mask(fmt.Sprintf(format, args...))})
}

// setOutputs records the job's outputs, within the forge's limits.
func (r *reporter) setOutputs(outputs map[string]string) {
	for k, v := range outputs {
		switch {
		case len(k) > maxOutputKey:
			r.logf("output %q left out: its name is longer than %d bytes", k[:32]+"…", maxOutputKey)
		case len(v) > maxOutputValue:
			r.logf("output %q left out: its value is longer than %d bytes", k, maxOutputValue)
		default:
			r.mu.Lock()
			r.outputs[k] = v
			r.dirty = true
			r.mu.Unlock()
		}
	}
}

func (r *reporter) result() (act runnerv1.Result, cancelled bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.jobResult, r.cancelled
}

// start sends the log and state in the background until finish.
func (r *reporter) start(ctx context.Context) {
	ctx = context.WithoutCancel(ctx) // the job's end must still be reported
	go func() {
		defer close(r.done)
		tick := time.NewTicker(logInterval)
		defer tick.Stop()
		var lastState time.Time
		for {
			select {
			case <-r.stop:
				return
			case <-tick.C:
			case <-r.flush:
			}
			if err := retry(ctx, 3, func(ctx context.Context) error { return r.sendLog(ctx, false) }); err != nil {
				r.log.Warn("send log", "err", err)
			}
			if r.isDirty() || time.Since(lastState) >= stateInterval {
				lastState = time.Now()
				if err := retry(ctx, 3, r.sendState); err != nil {
					r.log.Warn("send state", "err", err)
				}
			}
		}
	}()
}

func (r *reporter) isDirty() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dirty
}

// finish stops the background sending, closes the task with result and sends
// the rest of the log and the final state.
func (r *reporter) finish(result runnerv1.Result, lastWords string) error {
	close(r.stop)
	<-r.done
	if lastWords != "" {
		r.logf("%s", lastWords)
	}
	r.close(result)
	ctx, cancel := context.WithTimeout(context.Background(), finalReportTimeout)
	defer cancel()
	logErr := retry(ctx, 8, func(ctx context.Context) error { return r.sendLog(ctx, true) })
	stateErr := retry(ctx, 8, func(ctx context.Context) error {
		if err := r.sendState(ctx); err != nil {
			return err
		}
		r.mu.Lock()
		left := slices.Sorted(maps.Keys(r.outputs))
		r.mu.Unlock()
		if len(left) > 0 {
			return connect.NewError(connect.CodeUnavailable, fmt.Errorf("outputs not acknowledged: %v", left))
		}
		return nil
	})
	return errors.Join(logErr, stateErr)
}

// close sets the final result of the task and of each step act never finished.
func (r *reporter) close(result runnerv1.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := timestamppb.Now()
	r.state.Result = result
	r.state.StoppedAt = now
	for _, s := range r.state.Steps {
		if s.Result != runnerv1.Result_RESULT_UNSPECIFIED {
			continue
		}
		switch {
		case result == runnerv1.Result_RESULT_CANCELLED:
			s.Result = runnerv1.Result_RESULT_CANCELLED
		case s.StartedAt != nil:
			s.Result = runnerv1.Result_RESULT_FAILURE
		default:
			s.Result = runnerv1.Result_RESULT_SKIPPED
		}
		if s.LogLength == 0 {
			s.LogIndex = r.next()
		}
		s.StoppedAt = now
	}
	r.dirty = true
}

// sendLog sends the lines not yet acknowledged, once.
func (r *reporter) sendLog(ctx context.Context, noMore bool) error {
	r.mu.Lock()
	rows := slices.Clone(r.rows)
	index := r.acked
	r.mu.Unlock()
	if len(rows) == 0 && !noMore {
		return nil
	}
	resp, err := r.client.UpdateLog(ctx, connect.NewRequest(&runnerv1.UpdateLogRequest{
		TaskId: r.state.GetId(), Index: index, Rows: rows, NoMore: noMore,
	}))
	if err != nil {
		return fmt.Errorf("update log: %w", err)
	}
	ack := resp.Msg.GetAckIndex()
	r.mu.Lock()
	defer r.mu.Unlock()
	if ack < r.acked {
		// Lines the forge acknowledged are gone from here: nothing can resend them.
		return fmt.Errorf("update log: the forge acknowledged up to line %d, then %d", r.acked, ack)
	}
	n := min(ack-r.acked, int64(len(r.rows)))
	r.rows = r.rows[n:]
	r.acked += n
	if noMore && len(r.rows) > 0 {
		return connect.NewError(connect.CodeUnavailable, fmt.Errorf("update log: %d lines not acknowledged", len(r.rows)))
	}
	return nil
}

// sendState sends the task's state and the outputs not yet acknowledged, once,
// and cancels the job if the forge answers that it was cancelled.
func (r *reporter) sendState(ctx context.Context) error {
	r.mu.Lock()
	state := proto.Clone(r.state).(*runnerv1.TaskState)
	outputs := maps.Clone(r.outputs)
	r.dirty = false
	r.mu.Unlock()
	resp, err := r.client.UpdateTask(ctx, connect.NewRequest(&runnerv1.UpdateTaskRequest{State: state, Outputs: outputs}))
	if err != nil {
		r.mu.Lock()
		r.dirty = true
		r.mu.Unlock()
		return fmt.Errorf("update task: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range resp.Msg.GetSentOutputs() {
		delete(r.outputs, k)
	}
	if resp.Msg.GetState().GetResult() == runnerv1.Result_RESULT_CANCELLED && !r.cancelled {
		r.cancelled = true
		r.log.Info("the forge cancelled the task")
		r.cancelJob()
	}
	return nil
}

var results = map[string]runnerv1.Result{
	"success":   runnerv1.Result_RESULT_SUCCESS,
	"failure":   runnerv1.Result_RESULT_FAILURE,
	"cancelled": runnerv1.Result_RESULT_CANCELLED,
	"skipped":   runnerv1.Result_RESULT_SKIPPED,
}

// parseResult reads act's jobResult (a string) or stepResult (a Stringer).
func parseResult(v any) (runnerv1.Result, bool) {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case fmt.Stringer:
		s = v.String()
	default:
		return runnerv1.Result_RESULT_UNSPECIFIED, false
	}
	res, ok := results[s]
	return res, ok
}
