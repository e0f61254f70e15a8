// The topics feature's public entry point: a repository's topics (shown,
// and edited by its admins), and where a topic leads.
export { RepoTopics, TopicList } from './RepoTopics'
export { topicHref } from './api'
