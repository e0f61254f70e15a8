// The help feature's public entry point: the support ticket thread, which the
// admin console shows to the node's staff too.
export { TicketConversation, TicketStatusBadge } from './TicketConversation'
export type { Ticket, TicketReply, TicketStatus, TicketThread } from './tickets'
