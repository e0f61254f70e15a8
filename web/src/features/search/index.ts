// The search feature's public entry point: the user search and its list, which Explore shows.
export { useUserSearch } from './api'
export { UserList } from './UserList'
