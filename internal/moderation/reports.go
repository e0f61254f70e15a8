package moderation

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/usererr"
)

// Report is one report and what became of it.
type Report struct {
	ID         int64
	Reporter   common.Address
	Kind       Kind
	Key        string
	Label      string
	Subject    common.Address
	Reason     string
	Detail     string
	Status     string // StatusOpen or StatusResolved
	Action     string // how it was resolved: ActionDismissed, ActionHidden, ActionSuspended
	Note       string // the moderator's note or reason
	ResolvedBy common.Address
	Created    time.Time
	Resolved   time.Time
}

// File records reporter's report of t. A second open report by the same
// person on the same target is a 409 (already_reported).
func (s *Service) File(ctx context.Context, reporter common.Address, t Target, reason, detail string) (Report, error) {
	detail = strings.TrimSpace(detail)
	if err := checkReason(reason); err != nil {
		return Report{}, err
	}
	if err := checkText("detail", detail, MaxDetail, true); err != nil {
		return Report{}, err
	}
	now := s.now()
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO mod_reports (reporter, kind, target, label, subject, reason, detail, status, created_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8)
		ON CONFLICT (reporter, kind, target) WHERE status = 'open' DO NOTHING RETURNING id`,
		UserKey(reporter), string(t.Kind), t.Key, t.Label, UserKey(t.Subject), reason, detail, ms(now)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return Report{}, usererr.Clashf("already_reported", "you already reported this %s; a moderator will look at it", t.Kind)
	}
	if err != nil {
		return Report{}, fmt.Errorf("insert report: %w", err)
	}
	return s.Report(ctx, id)
}

const reportCols = `id, reporter, kind, target, label, subject, reason, detail, status, action, note, resolved_by, created_ms, resolved_ms`

// Report reads report id (404 when there is none).
func (s *Service) Report(ctx context.Context, id int64) (Report, error) {
	list, err := s.queryReports(ctx, `SELECT `+reportCols+` FROM mod_reports WHERE id = $1`, id)
	if err != nil {
		return Report{}, err
	}
	if len(list) == 0 {
		return Report{}, usererr.Missingf("there is no report %d", id)
	}
	return list[0], nil
}

// Filter picks reports for the moderators' queue.
type Filter struct {
	Status string // StatusOpen, StatusResolved, or "" for both
	Kind   Kind   // "" for every kind
}

// Queue lists reports for the moderators, newest first, one page of
// limit from offset, with the count of all that match.
func (s *Service) Queue(ctx context.Context, f Filter, limit, offset int) ([]Report, int64, error) {
	where, args := []string{"1 = 1"}, []any{}
	if f.Status != "" {
		args = append(args, f.Status)
		where = append(where, fmt.Sprintf("status = $%d", len(args)))
	}
	if f.Kind != "" {
		args = append(args, string(f.Kind))
		where = append(where, fmt.Sprintf("kind = $%d", len(args)))
	}
	return s.page(ctx, strings.Join(where, " AND "), args, limit, offset)
}

// Mine lists reporter's own reports, newest first.
func (s *Service) Mine(ctx context.Context, reporter common.Address, limit, offset int) ([]Report, int64, error) {
	return s.page(ctx, "reporter = $1", []any{UserKey(reporter)}, limit, offset)
}

func (s *Service) page(ctx context.Context, where string, args []any, limit, offset int) ([]Report, int64, error) {
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mod_reports WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count reports: %w", err)
	}
	n := len(args)
	list, err := s.queryReports(ctx, fmt.Sprintf(`SELECT %s FROM mod_reports WHERE %s ORDER BY id DESC LIMIT $%d OFFSET $%d`,
		reportCols, where, n+1, n+2), append(args, limit, offset)...)
	return list, total, err
}

func (s *Service) queryReports(ctx context.Context, q string, args ...any) ([]Report, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("query reports: %w", err)
	}
	defer rows.Close()
	out := []Report{}
	for rows.Next() {
		var r Report
		var reporter, kind, subject, by string
		var created, resolved int64
		if err := rows.Scan(&r.ID, &reporter, &kind, &r.Key, &r.Label, &subject, &r.Reason, &r.Detail, &r.Status, &r.Action,
			&r.Note, &by, &created, &resolved); err != nil {
			return nil, fmt.Errorf("scan report: %w", err)
		}
		r.Reporter, r.Kind, r.Subject = common.HexToAddress(reporter), Kind(kind), common.HexToAddress(subject)
		if by != "" {
			r.ResolvedBy = common.HexToAddress(by)
		}
		r.Created, r.Resolved = fromMS(created), fromMS(resolved)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read reports: %w", err)
	}
	return out, nil
}

// Dismiss resolves report id with no action; note is optional.
func (s *Service) Dismiss(ctx context.Context, moderator common.Address, id int64, note string) (Report, error) {
	note = strings.TrimSpace(note)
	if err := checkText("note", note, MaxReason, false); err != nil {
		return Report{}, err
	}
	rep, err := s.openReport(ctx, id)
	if err != nil {
		return Report{}, err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		return s.resolve(ctx, tx, moderator, ActionDismissed, note, "id = $5", rep.ID)
	})
	if err != nil {
		return Report{}, err
	}
	return s.Report(ctx, id)
}

// HideFor hides report id's target on this node with reason, and
// resolves every open report of it.
func (s *Service) HideFor(ctx context.Context, moderator common.Address, id int64, reason string) (Report, error) {
	rep, err := s.openReport(ctx, id)
	if err != nil {
		return Report{}, err
	}
	if _, err := s.Hide(ctx, moderator, Target{Kind: rep.Kind, Key: rep.Key, Label: rep.Label}, reason); err != nil {
		return Report{}, err
	}
	return s.Report(ctx, id)
}

// SuspendFor stops the account report id's target belongs to from
// writing through this node, and resolves every open report of it. A
// report already resolved by hiding its target may still lead to a
// suspension (the content hidden, then its author stopped).
func (s *Service) SuspendFor(ctx context.Context, moderator common.Address, id int64, reason string) (Report, error) {
	rep, err := s.Report(ctx, id)
	if err != nil {
		return Report{}, err
	}
	if _, err := s.suspend(ctx, moderator, rep.Subject, reason, &rep); err != nil {
		return Report{}, err
	}
	return s.Report(ctx, id)
}

// openReport reads report id and refuses one already resolved (409).
func (s *Service) openReport(ctx context.Context, id int64) (Report, error) {
	rep, err := s.Report(ctx, id)
	if err != nil {
		return Report{}, err
	}
	if rep.Status != StatusOpen {
		return Report{}, usererr.Clashf("already_resolved", "report %d is already resolved (%s)", id, rep.Action)
	}
	return rep, nil
}

// resolve marks the open reports matching cond (over $5...) resolved.
func (s *Service) resolve(ctx context.Context, tx *sql.Tx, moderator common.Address, action, note, cond string, args ...any) error {
	_, err := tx.ExecContext(ctx, `UPDATE mod_reports SET status = 'resolved', action = $1, note = $2, resolved_by = $3, resolved_ms = $4
		WHERE status = 'open' AND `+cond, append([]any{action, note, UserKey(moderator), ms(s.now())}, args...)...)
	if err != nil {
		return fmt.Errorf("resolve reports: %w", err)
	}
	return nil
}

func (s *Service) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
