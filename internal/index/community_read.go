package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/dforge/dforge/internal/chain/roles"
)

// The community page's live figures, read in one pass and kept until the
// projection changes.

// CommunityWindow is how far back from the newest block trending looks.
const CommunityWindow = 7 * 24 * time.Hour

// communityListLen is how many entries each list of the overview holds.
const communityListLen = 5

// CommunityOverview are the figures of the community page.
type CommunityOverview struct {
	Height int64
	// Repositories counts the public repositories.
	Repositories int64
	// Contributors counts the accounts with at least one accepted
	// contribution (a reward outcome no rule withheld: paid, or cut only
	// by a cap), as the leaderboard counts them.
	Contributors  int64
	Proposals     int64
	OpenProposals int64 // still being voted on
	// Trending are public repositories by stars given plus forge actions
	// (pushes, issues, pull requests, comments, reviews, merges) in the
	// CommunityWindow before the newest block, then by stars.
	Trending    []TrendingRepo
	MostStarred []Repo // public repositories with stars, most first
	// TopContributors are the leaderboard of all time: by tokens earned
	// for accepted contributions, then by their number.
	TopContributors []Rank
	// RoleCounts are the holders of each role, in roles.All's order.
	RoleCounts []RoleCount
}

// TrendingRepo is a repository and what it gained in the window.
type TrendingRepo struct {
	Repo
	RecentStars    int64
	RecentActivity int64
}

// RoleCount is how many accounts hold a role.
type RoleCount struct {
	Role    string
	Holders int64
}

// CommunityOverview reads the community page's figures.
func (ix *Index) CommunityOverview(ctx context.Context) (CommunityOverview, error) {
	o, err := remember(ctx, ix, readKey("community-overview", ""), func(ctx context.Context) (CommunityOverview, error) { return ix.communityOverview(ctx) })
	if err != nil {
		return CommunityOverview{}, fmt.Errorf("read the community overview: %w", err)
	}
	return o, nil
}

func (ix *Index) communityOverview(ctx context.Context) (CommunityOverview, error) {
	o := CommunityOverview{Height: max(ix.Height(), 0)}
	err := ix.snapshot(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT
			(SELECT COUNT(*) FROM forge_repos WHERE private = FALSE),
			(SELECT COUNT(DISTINCT w.account) FROM chain_rewards w WHERE `+accepted+`),
			(SELECT COUNT(*) FROM gov_proposals),
			(SELECT COUNT(*) FROM gov_proposals WHERE status = 'active')`).
			Scan(&o.Repositories, &o.Contributors, &o.Proposals, &o.OpenProposals); err != nil {
			return fmt.Errorf("count: %w", err)
		}
		var err error
		if o.RoleCounts, err = roleCounts(ctx, tx); err != nil {
			return err
		}
		if o.Trending, err = trending(ctx, tx); err != nil {
			return err
		}
		o.MostStarred, err = mostStarred(ctx, tx)
		return err
	})
	if err != nil {
		return o, err
	}
	if o.TopContributors, err = ix.Leaderboard(ctx, 0, communityListLen); err != nil {
		return o, err
	}
	return o, nil
}

func roleCounts(ctx context.Context, tx *sql.Tx) ([]RoleCount, error) {
	rows, err := tx.QueryContext(ctx, `SELECT role, COUNT(*) FROM community_roles GROUP BY role`)
	if err != nil {
		return nil, fmt.Errorf("count role holders: %w", err)
	}
	defer rows.Close()
	counts := map[string]int64{}
	for rows.Next() {
		var role string
		var n int64
		if err := rows.Scan(&role, &n); err != nil {
			return nil, fmt.Errorf("count role holders: %w", err)
		}
		counts[role] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count role holders: %w", err)
	}
	out := make([]RoleCount, len(roles.All))
	for i, r := range roles.All {
		out[i] = RoleCount{Role: r, Holders: counts[r]}
	}
	return out, nil
}

// windowStart is the time CommunityWindow before the newest block.
func windowStart(ctx context.Context, tx *sql.Tx) (int64, error) {
	var latest int64
	err := tx.QueryRowContext(ctx, `SELECT b.time_ns FROM chain_blocks b JOIN chain_index i ON i.id = 1 AND b.height = i.height`).Scan(&latest)
	if err != nil && !errors.Is(err, sql.ErrNoRows) { // no block yet: nothing happened
		return 0, fmt.Errorf("read the newest block's time: %w", err)
	}
	return latest - CommunityWindow.Nanoseconds(), nil
}

func trending(ctx context.Context, tx *sql.Tx) ([]TrendingRepo, error) {
	since, err := windowStart(ctx, tx)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `WITH recent AS (
			SELECT repo_id, COUNT(*) AS stars, 0 AS acts FROM forge_stars WHERE time_ns > $1 GROUP BY repo_id
			UNION ALL
			SELECT repo_id, 0 AS stars, COUNT(*) AS acts FROM forge_activity WHERE time_ns > $1 GROUP BY repo_id
		), score AS (
			SELECT repo_id, CAST(SUM(stars) AS BIGINT) AS stars, CAST(SUM(acts) AS BIGINT) AS acts FROM recent GROUP BY repo_id
		)
		SELECT `+repoColumns+`, s.stars, s.acts FROM score s JOIN forge_repos r ON r.id = s.repo_id
		LEFT JOIN chain_accounts oa ON oa.address = r.owner
		WHERE r.private = FALSE
		ORDER BY s.stars + s.acts DESC, r.stars DESC, r.id LIMIT $2`, since, communityListLen)
	if err != nil {
		return nil, fmt.Errorf("read trending repositories: %w", err)
	}
	defer rows.Close()
	out := []TrendingRepo{}
	for rows.Next() {
		var t TrendingRepo
		if t.Repo, err = scanRepo(rows, &t.RecentStars, &t.RecentActivity); err != nil {
			return nil, fmt.Errorf("read trending repositories: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read trending repositories: %w", err)
	}
	return out, nil
}

func mostStarred(ctx context.Context, tx *sql.Tx) ([]Repo, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+repoColumns+` FROM `+repoFrom+`
		WHERE r.private = FALSE AND r.stars > 0 ORDER BY r.stars DESC, r.id LIMIT $1`, communityListLen)
	if err != nil {
		return nil, fmt.Errorf("read most starred repositories: %w", err)
	}
	defer rows.Close()
	out := []Repo{}
	for rows.Next() {
		r, err := scanRepo(rows)
		if err != nil {
			return nil, fmt.Errorf("read most starred repositories: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read most starred repositories: %w", err)
	}
	return out, nil
}
