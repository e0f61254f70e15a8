// The actions feature's public entry point: the Actions section of a
// repository's settings (runners, secrets, variables), which the
// repositories feature's settings page shows to owners.
export { ActionsSettings } from './ActionsSettings'
