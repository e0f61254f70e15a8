// The wallet feature's public entry point: the account summary and the
// transaction forms that the explorer's staking and treasury pages embed.
export { AccountSummary } from './AccountSummary'
export { TxForm } from './TxForm'
export { WalletActions } from './WalletActions'
