export { NotificationBadge } from './NotificationBadge'
