package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// A repository's milestones, with the open and closed issues and pull
// requests filed under each, counted from forge_issues.

// Milestone is a projected milestone.
type Milestone struct {
	ID           uint64 `json:"id"`
	Repo         uint64 `json:"repo"`
	Title        string `json:"title"`
	Description  string `json:"description"`
	State        string `json:"state"`
	OpenIssues   int64  `json:"openIssues"`
	ClosedIssues int64  `json:"closedIssues"`
	// Due is the due date in Unix seconds; 0 for none.
	Due     int64  `json:"due,omitempty"`
	Created string `json:"created"`
	Updated string `json:"updated"`
	Closed  string `json:"closed,omitempty"`
	// Signer is the key that signed its creation and Delegation the
	// delegate it acted under ("" when the owner signed; both "" before
	// the own-keys rules).
	Signer     string `json:"signer"`
	Delegation string `json:"delegation"`
}

const milestoneCols = `m.id, m.repo_id, m.title, m.description, m.state, COALESCE(m.due_unix, 0), m.created_time_ns, m.updated_time_ns, m.closed_time_ns, m.signer, m.delegation,
	(SELECT COUNT(*) FROM forge_issues i WHERE i.milestone_id = m.id AND i.state = 'open'),
	(SELECT COUNT(*) FROM forge_issues i WHERE i.milestone_id = m.id AND i.state = 'closed')`

func scanMilestone(row scanner) (Milestone, error) {
	var m Milestone
	var id, repo, createdNS, updatedNS int64
	var closedNS sql.NullInt64
	err := row.Scan(&id, &repo, &m.Title, &m.Description, &m.State, &m.Due, &createdNS, &updatedNS, &closedNS, &m.Signer, &m.Delegation, &m.OpenIssues, &m.ClosedIssues)
	m.ID, m.Repo, m.Created, m.Updated = uint64(id), uint64(repo), formatTime(createdNS), formatTime(updatedNS)
	if closedNS.Valid {
		m.Closed = formatTime(closedNS.Int64)
	}
	return m, err
}

// MilestoneFilter narrows a milestone list; zero fields match everything.
type MilestoneFilter struct {
	State string // "open", "closed" or "" for both
	Name  string // a substring of the title, any case
}

// Milestones lists repo's milestones matching f, oldest first.
func (ix *Index) Milestones(ctx context.Context, repo uint64, f MilestoneFilter) ([]Milestone, error) {
	where, args := "m.repo_id = $1", []any{int64(repo)}
	if f.State != "" {
		args = append(args, f.State)
		where += fmt.Sprintf(" AND m.state = $%d", len(args))
	}
	if f.Name != "" {
		args = append(args, "%"+likeEscape(strings.ToLower(f.Name))+"%")
		where += fmt.Sprintf(` AND lower(m.title) LIKE $%d ESCAPE '\'`, len(args))
	}
	rows, err := ix.query(ctx, `SELECT `+milestoneCols+` FROM forge_milestones m WHERE `+where+` ORDER BY m.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("list milestones: %w", err)
	}
	defer rows.Close()
	out := []Milestone{}
	for rows.Next() {
		m, err := scanMilestone(rows)
		if err != nil {
			return nil, fmt.Errorf("list milestones: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list milestones: %w", err)
	}
	return out, nil
}

// MilestoneByID reads milestone id of repo; a missing error when repo has
// none.
func (ix *Index) MilestoneByID(ctx context.Context, repo, id uint64) (Milestone, error) {
	m, err := scanMilestone(ix.queryRow(ctx, `SELECT `+milestoneCols+` FROM forge_milestones m WHERE m.id = $1 AND m.repo_id = $2`, int64(id), int64(repo)))
	if errors.Is(err, sql.ErrNoRows) {
		return Milestone{}, notFound("there is no milestone %d", id)
	}
	if err != nil {
		return Milestone{}, fmt.Errorf("read milestone %d: %w", id, err)
	}
	return m, nil
}

// fillMilestones attaches their milestone to issues of repo: one read of
// the repository's milestones, when one of them has any.
func (ix *Index) fillMilestones(ctx context.Context, repo uint64, issues []Issue) error {
	need := false
	for _, is := range issues {
		need = need || is.MilestoneID != 0
	}
	if !need {
		return nil
	}
	all, err := ix.Milestones(ctx, repo, MilestoneFilter{})
	if err != nil {
		return err
	}
	for i := range issues {
		for j := range all {
			if all[j].ID == issues[i].MilestoneID {
				m := all[j]
				issues[i].Milestone = &m
			}
		}
	}
	return nil
}
