// The releases feature's public entry point: its types and reads, for
// other features that show a repository's releases.
export { type Asset, type Release, useReleases } from './api'
