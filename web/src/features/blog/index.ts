// The blog feature's public entry point: the latest posts, which the home page shows.
export { usePosts } from './api'
