// The orgs feature's public entry point: the transfer form that repository settings show.
export { TransferRepository } from './TransferRepository'
