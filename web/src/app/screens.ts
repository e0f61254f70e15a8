import { lazyScreen, type LazyScreen } from './lazyScreen'

// One entry per screen of the route table (routes.json names them). Each is
// its own chunk, fetched on first visit or when a link to it is hovered.
export const screens = {
  home: lazyScreen(() => import('@/features/home/HomeScreen')),
  info: lazyScreen(() => import('@/features/content/InfoScreen')),
  explore: lazyScreen(() => import('@/features/repositories/ExploreScreen')),
  repository: lazyScreen(() => import('@/features/repositories/RepositoryScreen')),
  issue: lazyScreen(() => import('@/features/issues/IssueScreen')),
  pullRequest: lazyScreen(() => import('@/features/pulls/PullRequestScreen')),
  governance: lazyScreen(() => import('@/features/governance/GovernanceScreen')),
  rewards: lazyScreen(() => import('@/features/rewards/RewardsScreen')),
  profile: lazyScreen(() => import('@/features/users/ProfileScreen')),
  user: lazyScreen(() => import('@/features/users/UserScreen')),
  settings: lazyScreen(() => import('@/features/settings/SettingsScreen')),
  help: lazyScreen(() => import('@/features/help/HelpScreen')),
  faq: lazyScreen(() => import('@/features/help/FaqScreen')),
  contact: lazyScreen(() => import('@/features/help/ContactScreen')),
  docs: lazyScreen(() => import('@/features/docs/DocsScreen')),
  apiReference: lazyScreen(() => import('@/features/docs/ApiReferenceScreen')),
  blog: lazyScreen(() => import('@/features/blog/BlogScreen')),
  blogPost: lazyScreen(() => import('@/features/blog/BlogPostScreen')),
  community: lazyScreen(() => import('@/features/community/CommunityScreen')),
  forum: lazyScreen(() => import('@/features/community/ForumScreen')),
  forumTopic: lazyScreen(() => import('@/features/community/ForumTopicScreen')),
  events: lazyScreen(() => import('@/features/community/EventsScreen')),
  notifications: lazyScreen(() => import('@/features/notifications/NotificationsScreen')),
  search: lazyScreen(() => import('@/features/search/SearchScreen')),
  leaderboard: lazyScreen(() => import('@/features/rewards/LeaderboardScreen')),
  analytics: lazyScreen(() => import('@/features/analytics/AnalyticsScreen')),
  status: lazyScreen(() => import('@/features/analytics/StatusScreen')),
  playground: lazyScreen(() => import('@/features/playground/PlaygroundScreen')),
  ecosystem: lazyScreen(() => import('@/features/ecosystem/EcosystemScreen')),
  workspace: lazyScreen(() => import('@/features/workspace/WorkspaceScreen')),
  notFound: lazyScreen(() => import('@/features/errors/NotFoundScreen')),
} satisfies Record<string, LazyScreen>

export type ScreenName = keyof typeof screens
