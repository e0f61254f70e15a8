package actions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nektos/act/pkg/jobparser"
	"github.com/nektos/act/pkg/model"
	"github.com/robfig/cron/v3"

	"github.com/dforge/dforge/internal/gitstore"
	"github.com/dforge/dforge/internal/index"
)

// Schedules: a workflow's `on.schedule` crons are kept by the node that
// relayed the last push to the repository's default branch, and fired
// by its worker. A push there relayed by another node drops them here
// (Observe), and that node takes them: one node fires each.

// maxSchedules bounds a repository's crons.
const maxSchedules = 50

// refreshSchedules replaces repo's schedules with those of the workflow
// files at t's commit, a push to the default branch.
func (s *Service) refreshSchedules(ctx context.Context, dir string, repo index.Repo, t trigger, files []gitstore.Entry) error {
	type entry struct{ workflow, spec string }
	var found []entry
	for _, f := range files {
		content, err := readWorkflow(ctx, dir, f)
		if errors.Is(err, errWorkflowTooBig) {
			continue // an invalid workflow: its runs say so
		}
		if err != nil {
			return err
		}
		for _, spec := range cronsOf(content) {
			if _, err := cron.ParseStandard(spec); err == nil && len(found) < maxSchedules {
				found = append(found, entry{f.Name, spec})
			}
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	if _, err := tx.ExecContext(ctx, `DELETE FROM actions_schedules WHERE repo_id = $1`, int64(repo.ID)); err != nil {
		return fmt.Errorf("drop the schedules: %w", err)
	}
	for _, e := range found {
		next, _ := nextFire(e.spec, s.now())
		if _, err := tx.ExecContext(ctx, `INSERT INTO actions_schedules (repo_id, workflow, spec, ref, actor, next_ms) VALUES ($1, $2, $3, $4, $5, $6)`,
			int64(repo.ID), e.workflow, e.spec, t.Ref, t.Who, next.UnixMilli()); err != nil {
			return fmt.Errorf("keep a schedule: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit the schedules: %w", err)
	}
	return nil
}

// cronsOf are the cron specs of a workflow's on.schedule.
func cronsOf(content string) []string {
	wf, err := model.ReadWorkflow(strings.NewReader(content))
	if err != nil {
		return nil
	}
	events, err := jobparser.ParseRawOn(&wf.RawOn)
	if err != nil {
		return nil
	}
	var out []string
	for _, evt := range events {
		for _, sc := range evt.Schedules() {
			if spec := strings.TrimSpace(sc["cron"]); spec != "" {
				out = append(out, spec)
			}
		}
	}
	return out
}

func nextFire(spec string, after time.Time) (time.Time, error) {
	sched, err := cron.ParseStandard(spec)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse cron %q: %w", spec, err)
	}
	return sched.Next(after), nil
}

// fireSchedules starts a run of each schedule that is due, at its ref's
// head. The next fire time is written before the run, so a crash between
// the two loses that fire rather than doubling it.
func (s *Service) fireSchedules(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, repo_id, workflow, spec, ref, actor FROM actions_schedules WHERE next_ms <= $1 ORDER BY next_ms LIMIT 100`, s.ms())
	if err != nil {
		return fmt.Errorf("find due schedules: %w", err)
	}
	type due struct {
		id                       int64
		repo                     uint64
		workflow, spec, ref, who string
	}
	var all []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.id, &d.repo, &d.workflow, &d.spec, &d.ref, &d.who); err != nil {
			rows.Close()
			return fmt.Errorf("read a schedule: %w", err)
		}
		all = append(all, d)
	}
	rows.Close()
	for _, d := range all {
		next, err := nextFire(d.spec, s.now())
		if err != nil {
			return err
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE actions_schedules SET next_ms = $1 WHERE id = $2`, next.UnixMilli(), d.id); err != nil {
			return fmt.Errorf("move the schedule on: %w", err)
		}
		if err := s.fire(ctx, d.repo, d.workflow, d.ref, d.who); err != nil {
			s.log.Warn("actions: a schedule did not fire", "repo", d.repo, "workflow", d.workflow, "err", err)
		}
	}
	return nil
}

// fire records a scheduled run of repo's workflow at ref's head.
func (s *Service) fire(ctx context.Context, repo uint64, workflow, ref, who string) error {
	rec, err := s.cfg.Index.RepoByID(ctx, repo)
	if err != nil {
		return err
	}
	dir, err := s.cfg.RepoDir(ctx, repo)
	if err != nil {
		return fmt.Errorf("find the git data: %w", err)
	}
	sha, err := gitstore.Resolve(ctx, dir, ref)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", ref, err)
	}
	files, err := workflowFiles(ctx, dir, sha)
	if err != nil {
		return err
	}
	t := trigger{Repo: repo, Event: "schedule", Ref: ref, After: sha, Who: who, Created: s.ms()}
	for _, f := range files {
		if f.Name != workflow {
			continue
		}
		p, err := planRun(ctx, dir, rec, t, f, func(events []*jobparser.Event) (bool, error) {
			for _, evt := range events {
				if evt.IsSchedule() {
					return true, nil
				}
			}
			return false, nil
		})
		if err != nil || p == nil {
			return err
		}
		return s.record(ctx, t, []plannedRun{*p})
	}
	return nil
}
