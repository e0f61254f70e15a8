// The wallet feature's public entry point: the transaction forms that the
// explorer's staking and treasury pages embed.
export { TxForm } from './TxForm'
export { WalletActions } from './WalletActions'
