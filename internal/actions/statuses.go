package actions

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	chainforge "github.com/dforge/dforge/internal/chain/forge"
	"github.com/dforge/dforge/internal/usererr"
)

// statusState is the commit status a job in state st posts.
func statusState(st string) (state, description string) {
	switch st {
	case StatusBlocked, StatusWaiting:
		return chainforge.StatusPending, "Waiting to run"
	case StatusRunning:
		return chainforge.StatusPending, "Running"
	case StatusSuccess:
		return chainforge.StatusSuccess, "Successful"
	case StatusSkipped:
		return chainforge.StatusSuccess, "Skipped"
	case StatusCancelled:
		return chainforge.StatusError, "Cancelled"
	}
	return chainforge.StatusFailure, "Failing"
}

// postStatuses posts the commit status of every job whose state moved
// since its last one. A job's posted column says what was posted, so a
// restart posts what a crash left unposted, and nothing twice.
//
// They are posted in the name of the writer who approved the run, when it
// needed approval (its author may not set statuses), else of its actor; a
// run still waiting for its approval posts nothing, as nobody with the
// authority to has acted yet.
func (s *Service) postStatuses(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT j.id, j.name, j.status, j.posted, r.repo_id, r.id, r.name, r.event, r.sha,
			CASE WHEN r.approved_by <> '' THEN r.approved_by ELSE r.actor END
		FROM actions_jobs j JOIN actions_runs r ON r.id = j.run_id WHERE j.posted <> j.status AND NOT (r.need_approval = 1 AND r.approved_by = '')
		ORDER BY j.id LIMIT 100`)
	if err != nil {
		return fmt.Errorf("find unposted statuses: %w", err)
	}
	type post struct {
		id                          int64
		job, st, posted             string
		repo                        uint64
		number                      int64
		workflow, event, sha, actor string
	}
	var posts []post
	for rows.Next() {
		var p post
		if err := rows.Scan(&p.id, &p.job, &p.st, &p.posted, &p.repo, &p.number, &p.workflow, &p.event, &p.sha, &p.actor); err != nil {
			rows.Close()
			return fmt.Errorf("read an unposted status: %w", err)
		}
		posts = append(posts, p)
	}
	rows.Close()
	for _, p := range posts {
		state, desc := statusState(p.st)
		if was, _ := statusState(p.posted); p.posted != "" && was == state && state == chainforge.StatusPending {
			state = "" // pending stays pending: nothing to post
		}
		if state != "" {
			err := s.cfg.PostStatus(ctx, common.HexToAddress(p.actor), chainforge.StatusCreate{
				Repo: p.repo, SHA: p.sha, State: state, Description: desc,
				Context:   fmt.Sprintf("%s / %s (%s)", p.workflow, p.job, p.event),
				TargetURL: s.runURL(ctx, p.repo, p.number),
			})
			if _, refused := usererr.As(err); err != nil && !refused {
				return fmt.Errorf("post the status of job %d: %w", p.id, err)
			} else if err != nil {
				s.log.Warn("actions: a status was refused", "job", p.id, "err", err)
			}
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE actions_jobs SET posted = $1 WHERE id = $2`, p.st, p.id); err != nil {
			return fmt.Errorf("note the posted status: %w", err)
		}
	}
	return nil
}

// runURL is the page of run id.
func (s *Service) runURL(ctx context.Context, repo uint64, id int64) string {
	rec, err := s.cfg.Index.RepoByID(ctx, repo)
	if err != nil || s.cfg.BaseURL == "" {
		return ""
	}
	return fmt.Sprintf("%s/%s/%s/actions/runs/%d", s.cfg.BaseURL, rec.Owner.Username, rec.Name, id)
}
