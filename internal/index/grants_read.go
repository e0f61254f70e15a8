package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// GrantInfo is a projected grant with its milestones. ID is its
// proposal's; Expiry the block at whose start what is unreleased returns
// to the treasury; ApprovalsNeeded is a majority of the reviewers.
type GrantInfo struct {
	ID              uint64           `json:"id"`
	Title           string           `json:"title"`
	Proposer        User             `json:"proposer"`
	Status          string           `json:"status"`
	Failure         string           `json:"failure"`
	Total           uint64           `json:"total"`
	Released        uint64           `json:"released"`
	Refunded        uint64           `json:"refunded"`
	Expiry          int64            `json:"expiry"`
	Reviewers       []User           `json:"reviewers"`
	ApprovalsNeeded int              `json:"approvals_needed"`
	CreatedHeight   int64            `json:"created_height"`
	CreatedAt       string           `json:"created_at"`
	Milestones      []GrantMilestone `json:"milestones"`
}

// GrantMilestone is one payment of a grant, numbered from 0 (Index) as a
// GrantApprove names it, with the reviewers' approvals in order.
type GrantMilestone struct {
	Index          int             `json:"index"`
	Description    string          `json:"description"`
	Amount         uint64          `json:"amount"`
	Recipient      User            `json:"recipient"`
	Released       bool            `json:"released"`
	ReleasedHeight int64           `json:"released_height"`
	Approvals      []GrantApproval `json:"approvals"`
}

// GrantApproval is a reviewer's approval of a milestone.
type GrantApproval struct {
	Reviewer User   `json:"reviewer"`
	Height   int64  `json:"height"`
	Time     string `json:"time"`
}

const grantColumns = `g.id, g.title, g.proposer, ` + "COALESCE(ua.username, ua.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')" + `, g.status, g.failure,
	g.total, g.released, g.refunded, g.expiry, g.reviewers, g.created_height, g.created_time_ns`

const grantFrom = `grants g LEFT JOIN chain_accounts ua ON ua.address = g.proposer`

func scanGrant(row scanner, extra ...any) (GrantInfo, error) {
	var g GrantInfo
	var id, total, released, refunded, createdNS int64
	var proposer, name, reviewers string
	if err := row.Scan(append([]any{&id, &g.Title, &proposer, &name, &g.Status, &g.Failure, &total, &released, &refunded,
		&g.Expiry, &reviewers, &g.CreatedHeight, &createdNS}, extra...)...); err != nil {
		return g, err
	}
	g.ID, g.Total, g.Released, g.Refunded = uint64(id), uint64(total), uint64(released), uint64(refunded)
	g.Proposer, g.CreatedAt = user(proposer, name), formatTime(createdNS)
	for _, r := range strings.Split(reviewers, ",") {
		g.Reviewers = append(g.Reviewers, User{Address: r})
	}
	g.ApprovalsNeeded = len(g.Reviewers)/2 + 1
	g.Milestones = []GrantMilestone{}
	return g, nil
}

// Grants lists grants in status ("" for all), newest first, with their
// milestones, and counts them all.
func (ix *Index) Grants(ctx context.Context, status string, pg Page) ([]GrantInfo, int64, error) {
	where, args := "", []any(nil)
	if status != "" {
		where, args = "g.status = $1", []any{status}
	}
	out := []GrantInfo{}
	total, err := ix.page(ctx, grantColumns, grantFrom, where, "g.id DESC", args, pg, func(rows *sql.Rows, total *int64) error {
		g, err := scanGrant(rows, total)
		out = append(out, g)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list grants: %w", err)
	}
	if err := ix.grantDetails(ctx, out); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// Grant reads grant id with its milestones.
func (ix *Index) Grant(ctx context.Context, id uint64) (GrantInfo, error) {
	g, err := scanGrant(ix.queryRow(ctx, `SELECT `+grantColumns+` FROM `+grantFrom+` WHERE g.id = $1`, int64(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return GrantInfo{}, notFound("there is no grant #%d", id)
	}
	if err != nil {
		return GrantInfo{}, fmt.Errorf("read grant #%d: %w", id, err)
	}
	list := []GrantInfo{g}
	if err := ix.grantDetails(ctx, list); err != nil {
		return GrantInfo{}, err
	}
	return list[0], nil
}

// grantDetails fills the grants' milestones and approvals, and names
// every account they show, in three queries for the whole page.
func (ix *Index) grantDetails(ctx context.Context, list []GrantInfo) error {
	if len(list) == 0 {
		return nil
	}
	at := make(map[int64]*GrantInfo, len(list))
	ids := make([]any, len(list))
	marks := make([]string, len(list))
	for i := range list {
		at[int64(list[i].ID)], ids[i], marks[i] = &list[i], int64(list[i].ID), fmt.Sprintf("$%d", i+1)
	}
	in := "(" + strings.Join(marks, ", ") + ")"
	if err := ix.grantMilestones(ctx, in, ids, at); err != nil {
		return err
	}
	if err := ix.grantApprovals(ctx, in, ids, at); err != nil {
		return err
	}
	return ix.nameGrantPeople(ctx, list)
}

func (ix *Index) grantMilestones(ctx context.Context, in string, ids []any, at map[int64]*GrantInfo) error {
	rows, err := ix.query(ctx, `SELECT grant_id, milestone, description, amount, recipient, released, released_height
		FROM grant_milestones WHERE grant_id IN `+in+` ORDER BY grant_id, milestone`, ids...)
	if err != nil {
		return fmt.Errorf("read grant milestones: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, amount int64
		var m GrantMilestone
		var recipient string
		if err := rows.Scan(&id, &m.Index, &m.Description, &amount, &recipient, &m.Released, &m.ReleasedHeight); err != nil {
			return fmt.Errorf("read grant milestones: %w", err)
		}
		m.Amount, m.Recipient, m.Approvals = uint64(amount), User{Address: recipient}, []GrantApproval{}
		at[id].Milestones = append(at[id].Milestones, m)
	}
	return rows.Err()
}

func (ix *Index) grantApprovals(ctx context.Context, in string, ids []any, at map[int64]*GrantInfo) error {
	rows, err := ix.query(ctx, `SELECT grant_id, milestone, reviewer, height, time_ns
		FROM grant_approvals WHERE grant_id IN `+in+` ORDER BY grant_id, milestone, height, reviewer`, ids...)
	if err != nil {
		return fmt.Errorf("read grant approvals: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, ns int64
		var milestone int
		var a GrantApproval
		if err := rows.Scan(&id, &milestone, &a.Reviewer.Address, &a.Height, &ns); err != nil {
			return fmt.Errorf("read grant approvals: %w", err)
		}
		a.Time = formatTime(ns)
		if g := at[id]; milestone < len(g.Milestones) {
			g.Milestones[milestone].Approvals = append(g.Milestones[milestone].Approvals, a)
		}
	}
	return rows.Err()
}

// nameGrantPeople gives the reviewers, recipients and approvers their names.
func (ix *Index) nameGrantPeople(ctx context.Context, list []GrantInfo) error {
	var people []*User
	for i := range list {
		g := &list[i]
		for j := range g.Reviewers {
			people = append(people, &g.Reviewers[j])
		}
		for j := range g.Milestones {
			people = append(people, &g.Milestones[j].Recipient)
			for k := range g.Milestones[j].Approvals {
				people = append(people, &g.Milestones[j].Approvals[k].Reviewer)
			}
		}
	}
	seen := map[string]bool{}
	var args []any
	var marks []string
	for _, u := range people {
		if !seen[u.Address] {
			seen[u.Address] = true
			args = append(args, u.Address)
			marks = append(marks, fmt.Sprintf("$%d", len(args)))
		}
	}
	named := map[string]string{}
	if len(args) > 0 {
		rows, err := ix.query(ctx, `SELECT address, COALESCE(username, default_name, '') FROM chain_accounts WHERE address IN (`+strings.Join(marks, ", ")+`)`, args...)
		if err != nil {
			return fmt.Errorf("name grant accounts: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var addr, name string
			if err := rows.Scan(&addr, &name); err != nil {
				return fmt.Errorf("name grant accounts: %w", err)
			}
			named[addr] = name
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("name grant accounts: %w", err)
		}
	}
	for _, u := range people {
		*u = user(u.Address, named[u.Address])
	}
	return nil
}
