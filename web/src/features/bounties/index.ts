// The bounties feature's public entry point: the panel the issue page shows.
export { BountyPanel, type BountyPanelProps } from './BountyPanel'
