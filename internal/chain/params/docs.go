package params

// Doc describes one changeable parameter: its bounds, its unit and why
// its default is what it is. /docs and the proposal form read these.
type Doc struct {
	Name  string `json:"name"`
	Group string `json:"group"`
	Unit  string `json:"unit"` // blocks, micro (token micro-units), bps, points, count
	Min   uint64 `json:"min"`
	Max   uint64 `json:"max"`
	Doc   string `json:"doc"`
	field func(*Params) *uint64
}

// Docs lists every changeable parameter in a fixed order.
func Docs() []Doc {
	return []Doc{
		{Name: "unbondingBlocks", Group: "ledger", Unit: "blocks", Min: 1, Max: noMax, field: func(p *Params) *uint64 { return &p.UnbondingBlocks },
			Doc: "About seven days of 6-second blocks. Long enough that a voter cannot vote, unstake and sell before anyone can react; short enough that staking is not a lock-up."},

		{Name: "votingPeriodBlocks", Group: "gov", Unit: "blocks", Min: 1, Max: noMax, field: func(p *Params) *uint64 { return &p.Gov.VotingPeriodBlocks },
			Doc: "About three days: every time zone sees a proposal during working hours at least twice before voting ends."},
		{Name: "proposalDeposit", Group: "gov", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Gov.ProposalDeposit },
			Doc: "1,000 tokens, paid when proposing and returned once the proposal reaches quorum; below quorum it goes to the treasury. It makes spam proposals cost something without pricing out serious ones."},
		{Name: "minProposerStake", Group: "gov", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Gov.MinProposerStake },
			Doc: "10,000 tokens staked: a proposer has something at stake in the outcome, and a fresh account cannot flood the list."},
		{Name: "quorumBps", Group: "gov", Unit: "bps", Min: 1, Max: OneBps, field: func(p *Params) *uint64 { return &p.Gov.QuorumBps },
			Doc: "33.4 %: more than a third of the snapshotted voting power must take part (abstain counts), so a small group cannot pass changes while most holders are away, as in Cosmos SDK chains."},
		{Name: "thresholdBps", Group: "gov", Unit: "bps", Min: 1, Max: OneBps, field: func(p *Params) *uint64 { return &p.Gov.ThresholdBps },
			Doc: "50 %: a proposal passes when yes is more than half of yes plus no. A simple majority of those who took a side."},
		{Name: "timelockBlocks", Group: "gov", Unit: "blocks", Min: 0, Max: noMax, field: func(p *Params) *uint64 { return &p.Gov.TimelockBlocks },
			Doc: "About one day between passing and taking effect, so node operators and users can prepare for (or leave before) a change. 0 executes in the block that ends the vote."},

		{Name: "epochBlocks", Group: "rewards", Unit: "blocks", Min: 1, Max: noMax, field: func(p *Params) *uint64 { return &p.Rewards.EpochBlocks },
			Doc: "About one day: caps and reputation decay work per epoch, and a day is long enough to smooth bursts and short enough that a cap is not a month-long lock-out."},
		{Name: "rewardPr", Group: "rewards", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Rewards.PR },
			Doc: "100 tokens for a merged pull request: the unit of accepted work, paid only once a maintainer other than the author merges it."},
		{Name: "rewardReview", Group: "rewards", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Rewards.Review },
			Doc: "20 tokens for an approving review of a pull request that then merges: reviewing is real work, but a fifth of authoring so approvals are not farmed."},
		{Name: "rewardIssueReporter", Group: "rewards", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Rewards.IssueReporter },
			Doc: "10 tokens to the reporter of an issue closed as completed by someone else: good reports matter, but a report alone must not pay more than fixing it."},
		{Name: "rewardIssueCloser", Group: "rewards", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Rewards.IssueCloser },
			Doc: "10 tokens to whoever closed the issue as completed (the merged pull request's author, or the maintainer)."},
		{Name: "rewardCommit", Group: "rewards", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Rewards.Commit },
			Doc: "5 tokens per commit that reaches a default branch, once per commit: small, because commits are cheap to split; the per-account cap bounds the rest."},
		{Name: "treasuryShareBps", Group: "rewards", Unit: "bps", Min: 0, Max: OneBps, field: func(p *Params) *uint64 { return &p.Rewards.TreasuryShareBps },
			Doc: "10 % of every reward goes to the treasury, which funds what governance decides to spend on."},
		{Name: "capPerAccount", Group: "rewards", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Rewards.CapPerAccount },
			Doc: "1,000 tokens per account per epoch (ten merged pull requests): enough for a productive day, and a ceiling on what any one account can farm."},
		{Name: "capPerRepo", Group: "rewards", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Rewards.CapPerRepo },
			Doc: "5,000 tokens per repository per epoch: a ring of accounts merging each other's work in one repository cannot drain more than this."},
		{Name: "capPerEpoch", Group: "rewards", Unit: "micro", Min: 0, Max: maxAmount, field: func(p *Params) *uint64 { return &p.Rewards.CapPerEpoch },
			Doc: "50,000 tokens per epoch across the chain: bounds inflation to about 0.05 % of the initial supply a day whatever happens."},
		{Name: "minRepoStars", Group: "rewards", Unit: "count", Min: 0, Max: noMax, field: func(p *Params) *uint64 { return &p.Rewards.MinRepoStars },
			Doc: "A repository needs at least one star from someone to earn rewards: a throw-away repository nobody looks at pays nothing."},
		{Name: "minRepoContributors", Group: "rewards", Unit: "count", Min: 0, Max: noMax, field: func(p *Params) *uint64 { return &p.Rewards.MinRepoContributors },
			Doc: "And at least two distinct contributors (accounts that pushed or had a pull request merged): one account alone cannot reward itself."},

		{Name: "reputationPr", Group: "reputation", Unit: "points", Min: 0, Max: noMax, field: func(p *Params) *uint64 { return &p.Reputation.PR },
			Doc: "10 points for a rewarded merged pull request."},
		{Name: "reputationReview", Group: "reputation", Unit: "points", Min: 0, Max: noMax, field: func(p *Params) *uint64 { return &p.Reputation.Review },
			Doc: "4 points for a rewarded review."},
		{Name: "reputationIssue", Group: "reputation", Unit: "points", Min: 0, Max: noMax, field: func(p *Params) *uint64 { return &p.Reputation.Issue },
			Doc: "2 points for a rewarded issue, to the reporter and to the closer."},
		{Name: "reputationCommit", Group: "reputation", Unit: "points", Min: 0, Max: noMax, field: func(p *Params) *uint64 { return &p.Reputation.Commit },
			Doc: "1 point for a rewarded commit."},
		{Name: "reputationDecayBps", Group: "reputation", Unit: "bps", Min: 0, Max: OneBps, field: func(p *Params) *uint64 { return &p.Reputation.DecayBps },
			Doc: "2 % a day: reputation halves in about five weeks without new contributions, so influence follows recent work."},
		{Name: "multiplierPerPointBps", Group: "reputation", Unit: "bps", Min: 0, Max: OneBps, field: func(p *Params) *uint64 { return &p.Reputation.PerPointBps },
			Doc: "0.1 % per point: 1,000 points (about a hundred merged pull requests kept up) reach the 2.0x ceiling."},
		{Name: "maxMultiplierBps", Group: "reputation", Unit: "bps", Min: OneBps, Max: MaxMultiplierCap, field: func(p *Params) *uint64 { return &p.Reputation.MaxMultiplierBps },
			Doc: "2.0x, the most reputation can multiply stake or a reward by: experience counts, but stake still decides."},
	}
}
