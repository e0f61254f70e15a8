/** A proposal's lifecycle: active -> passed | rejected, and passed -> executed. */
export const PROPOSAL_STATUSES = ['active', 'passed', 'rejected', 'executed'] as const
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number]

/** The list's filter: every proposal, or those in one status. */
export type ProposalFilter = 'all' | ProposalStatus
export const PROPOSAL_FILTERS: readonly ProposalFilter[] = ['all', ...PROPOSAL_STATUSES]
