package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/forge"
)

// CommitStatus is a projected commit status.
type CommitStatus struct {
	ID          uint64 `json:"id"`
	SHA         string `json:"sha"`
	Context     string `json:"context"`
	State       string `json:"state"`
	Description string `json:"description"`
	TargetURL   string `json:"targetUrl"`
	Creator     User   `json:"creator"`
	Time        string `json:"time"`
}

const statusCols = `s.id, s.sha, s.context, s.state, s.description, s.target_url, s.creator, ` + "COALESCE(a.username, a.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')" + `, s.time_ns`

func scanStatus(rows *sql.Rows, extra ...any) (CommitStatus, error) {
	var st CommitStatus
	var id, ns int64
	var creator, name string
	err := rows.Scan(append([]any{&id, &st.SHA, &st.Context, &st.State, &st.Description, &st.TargetURL, &creator, &name, &ns}, extra...)...)
	st.ID, st.Creator, st.Time = uint64(id), user(creator, name), formatTime(ns)
	return st, err
}

// CommitStatuses lists every status sent for sha, newest first.
func (ix *Index) CommitStatuses(ctx context.Context, repo uint64, sha string, p Page) ([]CommitStatus, int64, error) {
	out := []CommitStatus{}
	total, err := ix.page(ctx, statusCols, `forge_commit_statuses s LEFT JOIN chain_accounts a ON a.address = s.creator`,
		"s.repo_id = $1 AND s.sha = $2", "s.id DESC", []any{int64(repo), sha}, p, func(rows *sql.Rows, total *int64) error {
			st, err := scanStatus(rows, total)
			out = append(out, st)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list commit statuses: %w", err)
	}
	return out, total, nil
}

// MaxLatestStatuses bounds the contexts a combined status reads.
const MaxLatestStatuses = 500

// LatestStatuses is the latest status of each context of sha, by context.
func (ix *Index) LatestStatuses(ctx context.Context, repo uint64, sha string) ([]CommitStatus, error) {
	rows, err := ix.query(ctx, `SELECT `+statusCols+` FROM forge_commit_statuses s
		LEFT JOIN chain_accounts a ON a.address = s.creator
		WHERE s.repo_id = $1 AND s.sha = $2 AND s.id = (SELECT MAX(l.id) FROM forge_commit_statuses l
			WHERE l.repo_id = s.repo_id AND l.sha = s.sha AND l.context = s.context)
		ORDER BY s.context LIMIT $3`, int64(repo), sha, MaxLatestStatuses)
	if err != nil {
		return nil, fmt.Errorf("read latest statuses: %w", err)
	}
	defer rows.Close()
	out := []CommitStatus{}
	for rows.Next() {
		st, err := scanStatus(rows)
		if err != nil {
			return nil, fmt.Errorf("read latest statuses: %w", err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// Protection is a projected branch protection rule.
type Protection struct {
	Branch              string   `json:"branch"`
	EnablePush          bool     `json:"enablePush"`
	PushWhitelist       []User   `json:"pushWhitelist"`
	EnableStatusCheck   bool     `json:"enableStatusCheck"`
	StatusCheckContexts []string `json:"statusCheckContexts"`
	RequiredApprovals   int64    `json:"requiredApprovals"`
	Created             string   `json:"created"`
	Updated             string   `json:"updated"`
}

// Protections lists a repository's rules by branch name (a repository has
// few: the chain bounds nothing here, so the list is bounded).
func (ix *Index) Protections(ctx context.Context, repo uint64) ([]Protection, error) {
	return ix.protections(ctx, "repo_id = $1 ORDER BY branch LIMIT 1000", int64(repo))
}

// Protection is branch's rule; false when it has none.
func (ix *Index) Protection(ctx context.Context, repo uint64, branch string) (Protection, bool, error) {
	if !utf8.ValidString(branch) {
		// The chain takes no such rule, and PostgreSQL would refuse to
		// compare it (a 500 for a URL's %ff).
		return Protection{}, false, nil
	}
	list, err := ix.protections(ctx, "repo_id = $1 AND branch = $2", int64(repo), branch)
	if err != nil || len(list) == 0 {
		return Protection{}, false, err
	}
	return list[0], true, nil
}

// RuleFor is the rule that applies to branch, as the chain picks it: the
// rule naming it exactly, else the first-created pattern matching it.
func (ix *Index) RuleFor(ctx context.Context, repo uint64, branch string) (Protection, bool, error) {
	if p, ok, err := ix.Protection(ctx, repo, branch); err != nil || ok {
		return p, ok, err
	}
	list, err := ix.protections(ctx, "repo_id = $1 ORDER BY created_time_ns, branch LIMIT 1000", int64(repo))
	if err != nil {
		return Protection{}, false, err
	}
	for _, p := range list {
		if forge.IsRulePattern(p.Branch) && forge.RuleMatches(p.Branch, branch) {
			return p, true, nil
		}
	}
	return Protection{}, false, nil
}

func (ix *Index) protections(ctx context.Context, where string, args ...any) ([]Protection, error) {
	rows, err := ix.query(ctx, `SELECT branch, enable_push, push_whitelist, enable_status_check, status_check_contexts,
		required_approvals, created_time_ns, updated_time_ns FROM forge_branch_protections WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("read branch protections: %w", err)
	}
	defer rows.Close()
	out := []Protection{}
	for rows.Next() {
		var p Protection
		var wl, contexts string
		var created, updated int64
		if err := rows.Scan(&p.Branch, &p.EnablePush, &wl, &p.EnableStatusCheck, &contexts, &p.RequiredApprovals, &created, &updated); err != nil {
			return nil, fmt.Errorf("read branch protections: %w", err)
		}
		var addrs []string
		if err := json.Unmarshal([]byte(wl), &addrs); err != nil {
			return nil, fmt.Errorf("read push whitelist of %s: %w", p.Branch, err)
		}
		if err := json.Unmarshal([]byte(contexts), &p.StatusCheckContexts); err != nil {
			return nil, fmt.Errorf("read status check contexts of %s: %w", p.Branch, err)
		}
		p.PushWhitelist = []User{}
		for _, a := range addrs {
			p.PushWhitelist = append(p.PushWhitelist, User{Address: a})
		}
		p.Created, p.Updated = formatTime(created), formatTime(updated)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, ix.nameUsers(ctx, out)
}

// nameUsers fills in the whitelisted users' names.
func (ix *Index) nameUsers(ctx context.Context, list []Protection) error {
	for i := range list {
		for j, u := range list[i].PushWhitelist {
			var name string
			err := ix.queryRow(ctx, `SELECT `+userExpr("a")+` FROM chain_accounts a WHERE a.address = $1`, u.Address).Scan(&name)
			if err != nil && err != sql.ErrNoRows {
				return fmt.Errorf("name whitelisted user: %w", err)
			}
			list[i].PushWhitelist[j] = user(u.Address, name)
		}
	}
	return nil
}

// Whitelisted reports whether a is on p's push whitelist.
func (p Protection) Whitelisted(a common.Address) bool {
	for _, u := range p.PushWhitelist {
		if common.HexToAddress(u.Address) == a {
			return true
		}
	}
	return false
}

// CommitStatusByID is one status.
func (ix *Index) CommitStatusByID(ctx context.Context, repo, id uint64) (CommitStatus, error) {
	rows, err := ix.query(ctx, `SELECT `+statusCols+` FROM forge_commit_statuses s
		LEFT JOIN chain_accounts a ON a.address = s.creator WHERE s.repo_id = $1 AND s.id = $2`, int64(repo), int64(id))
	if err != nil {
		return CommitStatus{}, fmt.Errorf("read status %d: %w", id, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return CommitStatus{}, fmt.Errorf("read status %d: %w", id, err)
		}
		return CommitStatus{}, notFound("status %d does not exist", id)
	}
	st, err := scanStatus(rows)
	if err != nil {
		return CommitStatus{}, fmt.Errorf("read status %d: %w", id, err)
	}
	return st, nil
}
