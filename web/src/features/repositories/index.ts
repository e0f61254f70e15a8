// The repositories feature's public entry point: the frame (header and
// section tabs) that the issue and pull request pages of a repository share.
export { RepoPage } from './RepoLayout'
