// The rewards feature's public entry point: a user's reputation, which their profile shows.
export { useReputation } from './api'
