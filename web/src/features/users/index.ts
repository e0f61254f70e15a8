// The users feature's public entry point: the public user's shape, which search lists.
export type { PublicUser } from './api'
