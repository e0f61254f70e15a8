package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/dforge/dforge/internal/chain/gov"
	"github.com/dforge/dforge/internal/chain/rewards"
)

// Proposal is a projected governance proposal. VotingEndHeight is the
// last block votes are taken in (the chain tallies at the start of the
// next); EndedHeight is nil while the vote runs.
type Proposal struct {
	ID              uint64            `json:"id"`
	Proposer        string            `json:"proposer"`
	ProposerName    string            `json:"proposer_name"`
	Type            string            `json:"type"`
	Title           string            `json:"title"`
	Description     string            `json:"description"`
	Payload         map[string]string `json:"payload"`
	Deposit         uint64            `json:"deposit"`
	Status          string            `json:"status"`
	Failure         string            `json:"failure"`
	CreatedHeight   int64             `json:"created_height"`
	CreatedAt       string            `json:"created_at"`
	VotingEndHeight int64             `json:"voting_end_height"`
	ExecuteHeight   int64             `json:"execute_height"`
	Tally           Tally             `json:"tally"`
	EndedHeight     *int64            `json:"ended_height"`
}

// Tally is a proposal's running count of voting power, with the quorum
// and threshold in force when it was made.
type Tally struct {
	Yes          uint64 `json:"yes"`
	No           uint64 `json:"no"`
	Abstain      uint64 `json:"abstain"`
	TotalPower   uint64 `json:"total_power"`
	Voters       uint64 `json:"voters"`
	QuorumBps    uint64 `json:"quorum_bps"`
	ThresholdBps uint64 `json:"threshold_bps"`
}

// Vote is an account's current vote on a proposal.
type Vote struct {
	Proposal  uint64 `json:"proposal"`
	Voter     string `json:"voter"`
	VoterName string `json:"voter_name"`
	Option    string `json:"option"`
	Power     uint64 `json:"power"`
	Height    int64  `json:"height"`
	Time      string `json:"time"`
}

// Reward is a contribution's reward outcome. Minted went to the account,
// Treasury to the treasury; Withheld is what a rule or a cap kept back,
// and Reason says which ("" when paid in full).
type Reward struct {
	Height        int64  `json:"height"`
	Time          string `json:"time"`
	Account       string `json:"account"`
	AccountName   string `json:"account_name"`
	Kind          string `json:"kind"`
	Repo          string `json:"repo"` // owner/name; "" once the repository is deleted
	Number        uint64 `json:"number"`
	SHA           string `json:"sha"`
	Base          uint64 `json:"base"`
	MultiplierBps uint64 `json:"multiplier_bps"`
	Minted        uint64 `json:"minted"`
	Treasury      uint64 `json:"treasury"`
	Withheld      uint64 `json:"withheld"`
	Reason        string `json:"reason"`
}

// Scores count an account's accepted contributions by kind: those a rule
// did not withhold (a cap may still have cut them).
type Scores struct {
	Total  uint64 `json:"total"`
	Commit uint64 `json:"commit"`
	PR     uint64 `json:"pr"`
	Issue  uint64 `json:"issue"` // as reporter and as closer
	Review uint64 `json:"review"`
}

// RewardTotals are an account's contributions and what they earned.
type RewardTotals struct {
	Scores   Scores
	Earned   uint64
	Withheld uint64
}

// Rank is a leaderboard row; the index leaves Reputation to the caller,
// which reads it from the chain.
type Rank struct {
	Rank          int    `json:"rank"`
	Address       string `json:"address"`
	Name          string `json:"name"`
	Earned        uint64 `json:"earned"`
	Contributions uint64 `json:"contributions"`
	Reputation    uint64 `json:"reputation"`
}

// GovFigures are chain-wide governance and reward figures.
type GovFigures struct {
	Supply          uint64            `json:"supply"`
	Staked          uint64            `json:"staked"`
	Treasury        uint64            `json:"treasury"`
	RewardsPerEpoch []EpochRewards    `json:"rewards_per_epoch"`
	Proposals       ProposalsByStatus `json:"proposals"`
}

// EpochRewards is what an epoch's rewards minted, the treasury's share included.
type EpochRewards struct {
	Epoch  uint64 `json:"epoch"`
	Minted uint64 `json:"minted"`
}

// ProposalsByStatus counts proposals in each status.
type ProposalsByStatus struct {
	Active   int64 `json:"active"`
	Passed   int64 `json:"passed"`
	Rejected int64 `json:"rejected"`
	Executed int64 `json:"executed"`
	Failed   int64 `json:"failed"`
}

// ProposalStatuses are the statuses a proposal list may be narrowed to.
var ProposalStatuses = []string{gov.StatusActive, gov.StatusPassed, gov.StatusRejected, gov.StatusExecuted, gov.StatusFailed}

const proposalColumns = `p.id, p.proposer, ` + "COALESCE(ua.username, ua.default_name, (SELECT CASE WHEN wide_names THEN '' ELSE '-' END FROM chain_index WHERE id = 1), '')" + `, p.type, p.title, p.description,
	p.payload, p.deposit, p.status, p.failure, p.created_height, p.created_time_ns, p.voting_end_height, p.execute_height,
	p.ended_height, p.quorum_bps, p.threshold_bps, p.total_power, p.yes_power, p.no_power, p.abstain_power, p.voters`

const proposalFrom = `gov_proposals p LEFT JOIN chain_accounts ua ON ua.address = p.proposer`

func scanProposal(row scanner, extra ...any) (Proposal, error) {
	var p Proposal
	var id, deposit, createdNS, quorum, threshold, total, yes, no, abstain, voters int64
	var proposer, proposerName, payload string
	var ended sql.NullInt64
	err := row.Scan(append([]any{&id, &proposer, &proposerName, &p.Type, &p.Title, &p.Description, &payload, &deposit,
		&p.Status, &p.Failure, &p.CreatedHeight, &createdNS, &p.VotingEndHeight, &p.ExecuteHeight, &ended,
		&quorum, &threshold, &total, &yes, &no, &abstain, &voters}, extra...)...)
	if err != nil {
		return p, err
	}
	u := user(proposer, proposerName)
	p.ID, p.Proposer, p.ProposerName, p.Deposit = uint64(id), u.Address, u.Username, uint64(deposit)
	p.CreatedAt = formatTime(createdNS)
	p.VotingEndHeight-- // the chain's end height is the block whose start ends the vote
	if ended.Valid {
		p.EndedHeight = &ended.Int64
	}
	p.Tally = Tally{Yes: uint64(yes), No: uint64(no), Abstain: uint64(abstain), TotalPower: uint64(total),
		Voters: uint64(voters), QuorumBps: uint64(quorum), ThresholdBps: uint64(threshold)}
	if err := json.Unmarshal([]byte(payload), &p.Payload); err != nil {
		return p, fmt.Errorf("decode the payload of proposal #%d: %w", p.ID, err)
	}
	if p.Payload == nil {
		p.Payload = map[string]string{}
	}
	return p, nil
}

// Proposals lists proposals in status ("" for all), newest first, and
// counts them all.
func (ix *Index) Proposals(ctx context.Context, status string, pg Page) ([]Proposal, int64, error) {
	where, args := "", []any(nil)
	if status != "" {
		where, args = "p.status = $1", []any{status}
	}
	out := []Proposal{}
	total, err := ix.page(ctx, proposalColumns, proposalFrom, where, "p.id DESC", args, pg, func(rows *sql.Rows, total *int64) error {
		p, err := scanProposal(rows, total)
		out = append(out, p)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list proposals: %w", err)
	}
	return out, total, nil
}

// Proposal reads proposal id.
func (ix *Index) Proposal(ctx context.Context, id uint64) (Proposal, error) {
	p, err := scanProposal(ix.queryRow(ctx, `SELECT `+proposalColumns+` FROM `+proposalFrom+` WHERE p.id = $1`, int64(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return Proposal{}, notFound("there is no proposal #%d", id)
	}
	if err != nil {
		return Proposal{}, fmt.Errorf("read proposal #%d: %w", id, err)
	}
	return p, nil
}

// Votes lists the votes on proposal id, newest first, and counts them all;
// with a voter, only that account's vote (an empty list if it has none).
func (ix *Index) Votes(ctx context.Context, id uint64, voter *common.Address, pg Page) ([]Vote, int64, error) {
	out := []Vote{}
	where, args := `v.proposal = $1`, []any{int64(id)}
	if voter != nil {
		where, args = where+` AND v.voter = $2`, append(args, voter.Hex())
	}
	total, err := ix.listPage(ctx, `v.proposal, v.voter, `+userExpr("ua")+`, v.option, v.power, v.height, v.time_ns`,
		`gov_votes v LEFT JOIN chain_accounts ua ON ua.address = v.voter`, `gov_votes v`, where,
		"v.height DESC, v.voter", args, pg, func(rows *sql.Rows) error {
			var v Vote
			var proposal, power, ns int64
			var voter, name string
			if err := rows.Scan(&proposal, &voter, &name, &v.Option, &power, &v.Height, &ns); err != nil {
				return err
			}
			u := user(voter, name)
			v.Proposal, v.Voter, v.VoterName, v.Power, v.Time = uint64(proposal), u.Address, u.Username, uint64(power), formatTime(ns)
			out = append(out, v)
			return nil
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list votes on #%d: %w", id, err)
	}
	return out, total, nil
}

// accepted is true of a reward row no rule withheld: paid, or cut only
// by a cap.
var accepted = fmt.Sprintf(`(w.minted + w.treasury > 0 OR w.reason IN ('%s', '%s', '%s'))`,
	rewards.ReasonCapAccount, rewards.ReasonCapRepo, rewards.ReasonCapEpoch)

// Rewards lists reward outcomes, of account when not nil, newest first,
// and counts them all.
func (ix *Index) Rewards(ctx context.Context, account *common.Address, pg Page) ([]Reward, int64, error) {
	where, args := "", []any(nil)
	if account != nil {
		where, args = "w.account = $1", []any{account.Hex()}
	}
	out := []Reward{}
	total, err := ix.listPage(ctx, `w.height, w.time_ns, w.account, `+userExpr("ua")+`, w.kind, r.owner, `+userExpr("oa")+`, r.name,
		w.number, w.sha, w.base, w.multiplier_bps, w.minted, w.treasury, w.withheld, w.reason`,
		`chain_rewards w LEFT JOIN chain_accounts ua ON ua.address = w.account
		LEFT JOIN forge_repos r ON r.id = w.repo_id LEFT JOIN chain_accounts oa ON oa.address = r.owner`,
		`chain_rewards w`, where, "w.height DESC, w.seq DESC", args, pg, func(rows *sql.Rows) error {
			var rw Reward
			var ns, number, base, mult, minted, treasury, withheld int64
			var account, name string
			var owner, ownerName, repo sql.NullString
			if err := rows.Scan(&rw.Height, &ns, &account, &name, &rw.Kind, &owner, &ownerName, &repo,
				&number, &rw.SHA, &base, &mult, &minted, &treasury, &withheld, &rw.Reason); err != nil {
				return err
			}
			u := user(account, name)
			rw.Time, rw.Account, rw.AccountName = formatTime(ns), u.Address, u.Username
			if repo.Valid {
				rw.Repo = user(owner.String, ownerName.String).Username + "/" + repo.String
			}
			rw.Number, rw.Base, rw.MultiplierBps = uint64(number), uint64(base), uint64(mult)
			rw.Minted, rw.Treasury, rw.Withheld = uint64(minted), uint64(treasury), uint64(withheld)
			out = append(out, rw)
			return nil
		})
	if err != nil {
		return nil, 0, fmt.Errorf("list rewards: %w", err)
	}
	return out, total, nil
}

// RewardTotals sums up account's rewards: its accepted contributions by
// kind, what it earned and what was withheld.
func (ix *Index) RewardTotals(ctx context.Context, account common.Address) (RewardTotals, error) {
	count := func(kinds ...string) string {
		cond := accepted
		if len(kinds) > 0 {
			cond += " AND w.kind IN ('" + strings.Join(kinds, "', '") + "')"
		}
		return "CAST(COALESCE(SUM(CASE WHEN " + cond + " THEN 1 ELSE 0 END), 0) AS BIGINT)"
	}
	var total, commit, pr, issue, review, earned, withheld int64
	err := ix.queryRow(ctx, `SELECT `+count()+`, `+count(rewards.KindCommit)+`, `+count(rewards.KindPR)+`, `+
		count(rewards.KindIssueReporter, rewards.KindIssueCloser)+`, `+count(rewards.KindReview)+`,
		CAST(COALESCE(SUM(w.minted), 0) AS BIGINT), CAST(COALESCE(SUM(w.withheld), 0) AS BIGINT)
		FROM chain_rewards w WHERE w.account = $1`, account.Hex()).Scan(&total, &commit, &pr, &issue, &review, &earned, &withheld)
	if err != nil {
		return RewardTotals{}, fmt.Errorf("sum the rewards of %s: %w", account.Hex(), err)
	}
	return RewardTotals{
		Scores: Scores{Total: uint64(total), Commit: uint64(commit), PR: uint64(pr), Issue: uint64(issue), Review: uint64(review)},
		Earned: uint64(earned), Withheld: uint64(withheld),
	}, nil
}

// Leaderboard ranks the accounts with accepted contributions in the last
// period before the newest projected block (0: ever) by what they earned,
// then by their contributions, then by address.
func (ix *Index) Leaderboard(ctx context.Context, period time.Duration, limit int) ([]Rank, error) {
	where, args := "", []any{limit}
	if period > 0 {
		var latest int64
		err := ix.queryRow(ctx, `SELECT b.time_ns FROM chain_blocks b JOIN chain_index i ON i.id = 1 AND b.height = i.height`).Scan(&latest)
		switch {
		case errors.Is(err, sql.ErrNoRows): // no block yet: nothing was rewarded
		case err != nil:
			return nil, fmt.Errorf("read the newest block's time: %w", err)
		default:
			where, args = "WHERE w.time_ns > $2", append(args, latest-period.Nanoseconds())
		}
	}
	rows, err := ix.query(ctx, `SELECT w.account, `+userExpr("ua")+`,
		CAST(SUM(w.minted) AS BIGINT) AS earned, CAST(SUM(CASE WHEN `+accepted+` THEN 1 ELSE 0 END) AS BIGINT) AS contributions
		FROM chain_rewards w LEFT JOIN chain_accounts ua ON ua.address = w.account `+where+`
		GROUP BY w.account, ua.username, ua.default_name
		HAVING SUM(CASE WHEN `+accepted+` THEN 1 ELSE 0 END) > 0
		ORDER BY earned DESC, contributions DESC, lower(w.account) LIMIT $1`, args...)
	if err != nil {
		return nil, fmt.Errorf("rank contributors: %w", err)
	}
	defer rows.Close()
	out := []Rank{}
	for rows.Next() {
		var addr, name string
		var earned, contributions int64
		if err := rows.Scan(&addr, &name, &earned, &contributions); err != nil {
			return nil, fmt.Errorf("rank contributors: %w", err)
		}
		u := user(addr, name)
		out = append(out, Rank{Rank: len(out) + 1, Address: u.Address, Name: u.Username, Earned: uint64(earned), Contributions: uint64(contributions)})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rank contributors: %w", err)
	}
	return out, nil
}

// figureEpochs is how many of the latest epochs GovFigures lists.
const figureEpochs = 30

// GovFigures reads the chain-wide governance and reward figures at the
// projected height.
func (ix *Index) GovFigures(ctx context.Context) (GovFigures, error) {
	f := GovFigures{RewardsPerEpoch: []EpochRewards{}}
	err := ix.snapshot(ctx, func(tx *sql.Tx) error {
		var s Status
		if err := readStatus(ctx, tx, &s); err != nil {
			return err
		}
		f.Supply, f.Staked, f.Treasury = s.Supply, s.Staked, s.Treasury.Balance
		if err := readProposalCounts(ctx, tx, &f.Proposals); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT epoch, CAST(SUM(minted + treasury) AS BIGINT) FROM chain_rewards
			GROUP BY epoch ORDER BY epoch DESC LIMIT $1`, figureEpochs)
		if err != nil {
			return fmt.Errorf("sum rewards by epoch: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var epoch, minted int64
			if err := rows.Scan(&epoch, &minted); err != nil {
				return fmt.Errorf("sum rewards by epoch: %w", err)
			}
			f.RewardsPerEpoch = append(f.RewardsPerEpoch, EpochRewards{Epoch: uint64(epoch), Minted: uint64(minted)})
		}
		slices.Reverse(f.RewardsPerEpoch)
		if err := rows.Err(); err != nil {
			return fmt.Errorf("sum rewards by epoch: %w", err)
		}
		return nil
	})
	if err != nil {
		return GovFigures{}, fmt.Errorf("read governance figures: %w", err)
	}
	return f, nil
}

func readProposalCounts(ctx context.Context, tx *sql.Tx, c *ProposalsByStatus) error {
	rows, err := tx.QueryContext(ctx, `SELECT status, COUNT(*) FROM gov_proposals GROUP BY status`)
	if err != nil {
		return fmt.Errorf("count proposals: %w", err)
	}
	defer rows.Close()
	counts := map[string]*int64{gov.StatusActive: &c.Active, gov.StatusPassed: &c.Passed, gov.StatusRejected: &c.Rejected,
		gov.StatusExecuted: &c.Executed, gov.StatusFailed: &c.Failed}
	for rows.Next() {
		var status string
		var n int64
		if err := rows.Scan(&status, &n); err != nil {
			return fmt.Errorf("count proposals: %w", err)
		}
		if dst := counts[status]; dst != nil {
			*dst = n
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("count proposals: %w", err)
	}
	return nil
}
