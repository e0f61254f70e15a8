// The messages feature's public entry point: the unread count, for a badge
// elsewhere in the app.
export { useUnreadMessages } from './api'
