// The events feature's public entry point: /community shows the next events
// with the same card.
export { EventCard } from './EventCard'
export { type CommunityEvent, useEvents } from './api'
