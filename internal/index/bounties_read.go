package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/dforge/dforge/internal/chain/bounty"
)

// Bounty is an issue's bounty as the API shows it.
type Bounty struct {
	Repo        string `json:"repo"`
	RepoID      uint64 `json:"repo_id"`
	Number      uint64 `json:"number"`
	Title       string `json:"title"`
	IssueState  string `json:"issue_state"`
	Status      string `json:"status"`
	Total       uint64 `json:"total"`
	FunderCount int64  `json:"funder_count"`
	Expiry      uint64 `json:"expiry"`
	PaidTo      *User  `json:"paid_to"`
	PaidAmount  uint64 `json:"paid_amount"`
	PaidHeight  int64  `json:"paid_height"`
	PaidAt      string `json:"paid_at,omitempty"`
	// Language is the repository's main language, set by the API ("" when
	// unknown): the index keeps none.
	Language string   `json:"language"`
	Funders  []Funder `json:"funders,omitempty"`
}

// Funder is one funder's share.
type Funder struct {
	User
	Amount uint64 `json:"amount"`
	Expiry uint64 `json:"expiry"`
}

// BountyFilter selects bounties: by status (open or paid), repository id
// (0 for all) and a set of repositories (nil for all; an empty, non-nil
// set matches nothing, as when no repository has the language asked for).
type BountyFilter struct {
	Status  string
	RepoID  uint64
	RepoIDs []uint64
}

const bountyCols = `r.owner, ` + `COALESCE(oa.username, oa.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')` + `, r.name, b.repo_id, b.number, i.title, i.state, b.status, b.total,
	b.funders, b.expiry, b.paid_to, ` + `COALESCE(pa.username, pa.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')` + `, b.paid_amount, b.paid_height, b.paid_time_ns`

// Only public repositories' issues reach the chain; the join on
// forge_repos hides those of deleted (or since hidden) repositories.
const bountyFrom = `bounties b JOIN forge_repos r ON r.id = b.repo_id AND r.private = FALSE
	JOIN forge_issues i ON i.repo_id = b.repo_id AND i.number = b.number
	LEFT JOIN chain_accounts oa ON oa.address = r.owner LEFT JOIN chain_accounts pa ON pa.address = b.paid_to`

func scanBounty(rows interface{ Scan(...any) error }) (Bounty, error) {
	var b Bounty
	var owner, ownerName, name, paidTo, paidName string
	var repo, number, total, expiry, paidAmount, paidNS int64
	if err := rows.Scan(&owner, &ownerName, &name, &repo, &number, &b.Title, &b.IssueState, &b.Status, &total,
		&b.FunderCount, &expiry, &paidTo, &paidName, &paidAmount, &b.PaidHeight, &paidNS); err != nil {
		return Bounty{}, err
	}
	b.Repo = user(owner, ownerName).Username + "/" + name
	b.RepoID, b.Number, b.Total, b.Expiry, b.PaidAmount = uint64(repo), uint64(number), uint64(total), uint64(expiry), uint64(paidAmount)
	if paidTo != "" {
		u := user(paidTo, paidName)
		b.PaidTo, b.PaidAt = &u, formatTime(paidNS)
	}
	return b, nil
}

// bountyWhere is the condition of f's status, with its arguments: the
// list and the read of its repositories share it.
func bountyWhere(status string) (string, []any) {
	where := "b.status = $1"
	if status == bounty.StatusOpen {
		// Shares left on an issue closed by hand wait for their refunds;
		// nobody can earn them, so the list of open bounties leaves them out.
		where += " AND i.state = 'open'"
	}
	return where, []any{status}
}

// Bounties lists bounties: open ones by value, most first; paid ones by
// the height they were paid at, newest first.
func (ix *Index) Bounties(ctx context.Context, f BountyFilter, pg Page) ([]Bounty, int64, error) {
	out := []Bounty{}
	if f.RepoIDs != nil && len(f.RepoIDs) == 0 {
		return out, 0, nil
	}
	where, args := bountyWhere(f.Status)
	order := "b.total DESC, b.repo_id, b.number"
	if f.Status == bounty.StatusPaid {
		order = "b.paid_height DESC, b.repo_id, b.number"
	}
	if f.RepoID != 0 {
		args = append(args, int64(f.RepoID))
		where += fmt.Sprintf(" AND b.repo_id = $%d", len(args))
	}
	if len(f.RepoIDs) > 0 {
		marks := make([]string, len(f.RepoIDs))
		for i, id := range f.RepoIDs {
			args = append(args, int64(id))
			marks[i] = fmt.Sprintf("$%d", len(args))
		}
		where += " AND b.repo_id IN (" + strings.Join(marks, ", ") + ")"
	}
	total, err := ix.listPage(ctx, bountyCols, bountyFrom, bountyFrom, where, order, args, pg, func(rows *sql.Rows) error {
		b, err := scanBounty(rows)
		if err != nil {
			return err
		}
		out = append(out, b)
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list bounties: %w", err)
	}
	return out, total, nil
}

// BountyRepos is the ids of the public repositories with bounties of
// status that the list shows (open ones on open issues only), in order:
// the language filter picks among them.
func (ix *Index) BountyRepos(ctx context.Context, status string) ([]uint64, error) {
	where, args := bountyWhere(status)
	rows, err := ix.query(ctx, `SELECT DISTINCT b.repo_id FROM `+bountyFrom+` WHERE `+where+` ORDER BY b.repo_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read bounty repositories: %w", err)
	}
	defer rows.Close()
	out := []uint64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read bounty repositories: %w", err)
		}
		out = append(out, uint64(id))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read bounty repositories: %w", err)
	}
	return out, nil
}

// BountyOf reads the bounty of issue number of repository repo with its
// funders; ok is false when it was never funded.
func (ix *Index) BountyOf(ctx context.Context, repo, number uint64) (b Bounty, ok bool, err error) {
	err = ix.snapshot(ctx, func(tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `SELECT `+bountyCols+` FROM `+bountyFrom+` WHERE b.repo_id = $1 AND b.number = $2`, int64(repo), int64(number))
		b, err = scanBounty(row)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		ok = true
		b.Funders, err = readFunders(ctx, tx, repo, number)
		return err
	})
	if err != nil {
		return Bounty{}, false, fmt.Errorf("read bounty %d#%d: %w", repo, number, err)
	}
	return b, ok, nil
}

func readFunders(ctx context.Context, tx *sql.Tx, repo, number uint64) ([]Funder, error) {
	rows, err := tx.QueryContext(ctx, `SELECT f.funder, `+userExpr("a")+`, f.amount, f.expiry FROM bounty_funders f
		LEFT JOIN chain_accounts a ON a.address = f.funder WHERE f.repo_id = $1 AND f.number = $2 ORDER BY f.seq`, int64(repo), int64(number))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Funder{}
	for rows.Next() {
		var addr, name string
		var amount, expiry int64
		if err := rows.Scan(&addr, &name, &amount, &expiry); err != nil {
			return nil, err
		}
		out = append(out, Funder{User: user(addr, name), Amount: uint64(amount), Expiry: uint64(expiry)})
	}
	return out, rows.Err()
}
