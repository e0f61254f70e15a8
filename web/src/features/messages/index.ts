// The messages feature's public entry point: the header's envelope with the
// unread count, and the count itself.
export { MessagesBadge } from './MessagesBadge'
export { useUnreadMessages } from './api'
