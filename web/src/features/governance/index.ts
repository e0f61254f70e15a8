// The governance feature's public entry point: proposal statuses, account
// names and number formats that analytics, rewards and profiles show.
export { useGovFormat } from './format'
export { AccountName } from './ProposalBadges'
export { PROPOSAL_STATUSES, type ProposalStatus } from './proposals'
