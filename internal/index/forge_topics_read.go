package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// Topics across repositories, and the emails accounts claimed.

// Topic is a topic public repositories carry, with how many do.
type Topic struct {
	Name      string `json:"name"`
	RepoCount int64  `json:"repoCount"`
}

// SearchTopics lists the topics of public repositories that start with q
// (all when q is empty), the most used first. Private repositories' topics
// never show: a topic could name what a private repository is about.
func (ix *Index) SearchTopics(ctx context.Context, q string, p Page) ([]Topic, int64, error) {
	where, args := "r.private = FALSE", []any{}
	if q = strings.ToLower(strings.TrimSpace(q)); q != "" {
		args = append(args, likeEscape(q)+"%")
		where += ` AND t.topic LIKE $1 ESCAPE '\'`
	}
	from := `(SELECT t.topic, COUNT(*) AS repos FROM forge_repo_topics t JOIN forge_repos r ON r.id = t.repo_id WHERE ` + where + ` GROUP BY t.topic) x`
	out := []Topic{}
	total, err := ix.page(ctx, "x.topic, x.repos", from, "", "x.repos DESC, x.topic", args, p, func(rows *sql.Rows, total *int64) error {
		var t Topic
		err := rows.Scan(&t.Name, &t.RepoCount, total)
		out = append(out, t)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("search topics: %w", err)
	}
	return out, total, nil
}

// EmailOwners maps each of emails (lower case) that an account claimed
// to that account.
func (ix *Index) EmailOwners(ctx context.Context, emails []string) (map[string]common.Address, error) {
	out := map[string]common.Address{}
	if len(emails) == 0 {
		return out, nil
	}
	args := make([]any, len(emails))
	marks := make([]string, len(emails))
	for i, e := range emails {
		args[i], marks[i] = e, fmt.Sprintf("$%d", i+1)
	}
	rows, err := ix.query(ctx, `SELECT email, address FROM forge_user_emails WHERE email IN (`+strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read email claims: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e, addr string
		if err := rows.Scan(&e, &addr); err != nil {
			return nil, fmt.Errorf("read email claims: %w", err)
		}
		out[e] = common.HexToAddress(addr)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read email claims: %w", err)
	}
	return out, nil
}

// EmailsOf lists the emails addr claimed, sorted.
func (ix *Index) EmailsOf(ctx context.Context, addr common.Address) ([]string, error) {
	rows, err := ix.query(ctx, `SELECT email FROM forge_user_emails WHERE address = $1 ORDER BY email`, addr.Hex())
	if err != nil {
		return nil, fmt.Errorf("read the emails of %s: %w", addr.Hex(), err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return nil, fmt.Errorf("read the emails of %s: %w", addr.Hex(), err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
