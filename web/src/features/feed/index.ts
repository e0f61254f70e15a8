export { FeedLink } from './FeedLink'
