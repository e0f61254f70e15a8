/** The forum's category tabs; 'all' is every category. */
export const FORUM_CATEGORIES = ['all', 'general', 'help', 'showcase', 'development', 'announcements'] as const
export type ForumCategory = (typeof FORUM_CATEGORIES)[number]

/** What a topic can be marked with; the labels are forum.labels.<id>, kept for the topic lists. */
export const TOPIC_LABELS = ['pinned', 'locked', 'acceptedAnswer'] as const
