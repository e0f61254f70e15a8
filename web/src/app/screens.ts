import { lazyScreen, type LazyScreen } from './lazyScreen'

// One entry per screen of the route table (routes.json names them). Each is
// its own chunk, fetched on first visit or when a link to it is hovered.
export const screens = {
  home: lazyScreen(() => import('@/features/home/HomeScreen'), 'home'),
  info: lazyScreen(() => import('@/features/content/InfoScreen')),
  explore: lazyScreen(() => import('@/features/repositories/ExploreScreen'), ['repositories', 'issues', 'wallet']),
  repository: lazyScreen(() => import('@/features/repositories/RepositoryScreen'), ['repositories', 'issues']),
  newRepository: lazyScreen(() => import('@/features/repositories/NewRepositoryScreen'), 'repositories'),
  code: lazyScreen(() => import('@/features/repositories/CodeScreen'), 'repositories'),
  commits: lazyScreen(() => import('@/features/repositories/CommitsScreen'), ['repositories', 'wallet']),
  commit: lazyScreen(() => import('@/features/repositories/CommitScreen'), 'repositories'),
  branches: lazyScreen(() => import('@/features/repositories/BranchesScreen'), 'repositories'),
  tags: lazyScreen(() => import('@/features/repositories/TagsScreen'), 'repositories'),
  contributors: lazyScreen(() => import('@/features/repositories/ContributorsScreen'), 'repositories'),
  repoSettings: lazyScreen(() => import('@/features/repositories/RepoSettingsScreen'), 'repositories'),
  issues: lazyScreen(() => import('@/features/issues/IssueListScreen'), ['issues', 'repositories', 'wallet', 'tracker']),
  newIssue: lazyScreen(() => import('@/features/issues/NewIssueScreen'), ['issues', 'repositories']),
  issue: lazyScreen(() => import('@/features/issues/IssueScreen'), ['issues', 'repositories', 'tracker']),
  milestones: lazyScreen(() => import('@/features/issues/MilestoneListScreen'), ['tracker', 'issues', 'repositories', 'wallet']),
  milestone: lazyScreen(() => import('@/features/issues/MilestoneScreen'), ['tracker', 'issues', 'repositories', 'wallet']),
  pulls: lazyScreen(() => import('@/features/pulls/PullListScreen'), ['pulls', 'issues', 'repositories', 'wallet']),
  newPullRequest: lazyScreen(() => import('@/features/pulls/NewPullScreen'), ['pulls', 'issues', 'repositories']),
  pullRequest: lazyScreen(() => import('@/features/pulls/PullRequestScreen'), ['pulls', 'issues', 'repositories', 'tracker']),
  governance: lazyScreen(() => import('@/features/governance/GovernanceScreen'), ['governance', 'wallet']),
  newProposal: lazyScreen(() => import('@/features/governance/NewProposalScreen'), ['governance', 'issues', 'wallet']),
  proposal: lazyScreen(() => import('@/features/governance/ProposalScreen'), ['governance', 'wallet']),
  rewards: lazyScreen(() => import('@/features/rewards/RewardsScreen'), ['rewards', 'wallet']),
  profile: lazyScreen(() => import('@/features/users/ProfileScreen'), 'users'),
  user: lazyScreen(() => import('@/features/users/UserScreen'), 'users'),
  settings: lazyScreen(() => import('@/features/settings/SettingsScreen'), ['settings', 'auth']),
  help: lazyScreen(() => import('@/features/help/HelpScreen'), 'help'),
  faq: lazyScreen(() => import('@/features/help/FaqScreen'), 'help'),
  contact: lazyScreen(() => import('@/features/help/ContactScreen'), 'help'),
  docs: lazyScreen(() => import('@/features/docs/DocsScreen'), 'docs'),
  apiReference: lazyScreen(() => import('@/features/docs/ApiReferenceScreen'), 'docs'),
  blog: lazyScreen(() => import('@/features/blog/BlogScreen'), 'blog'),
  blogPost: lazyScreen(() => import('@/features/blog/BlogPostScreen'), 'blog'),
  community: lazyScreen(() => import('@/features/community/CommunityScreen'), 'community'),
  forum: lazyScreen(() => import('@/features/community/ForumScreen'), 'community'),
  forumTopic: lazyScreen(() => import('@/features/community/ForumTopicScreen'), 'community'),
  events: lazyScreen(() => import('@/features/community/EventsScreen'), 'community'),
  notifications: lazyScreen(() => import('@/features/notifications/NotificationsScreen'), 'notifications'),
  search: lazyScreen(() => import('@/features/search/SearchScreen'), 'search'),
  leaderboard: lazyScreen(() => import('@/features/rewards/LeaderboardScreen'), 'rewards'),
  analytics: lazyScreen(() => import('@/features/analytics/AnalyticsScreen'), 'analytics'),
  status: lazyScreen(() => import('@/features/analytics/StatusScreen'), 'analytics'),
  playground: lazyScreen(() => import('@/features/playground/PlaygroundScreen'), 'playground'),
  ecosystem: lazyScreen(() => import('@/features/ecosystem/EcosystemScreen'), 'ecosystem'),
  wallet: lazyScreen(() => import('@/features/wallet/WalletScreen'), 'wallet'),
  explorer: lazyScreen(() => import('@/features/explorer/ExplorerScreen'), 'explorer'),
  validators: lazyScreen(() => import('@/features/explorer/ValidatorsScreen'), 'explorer'),
  staking: lazyScreen(() => import('@/features/explorer/StakingScreen'), 'explorer'),
  treasury: lazyScreen(() => import('@/features/explorer/TreasuryScreen'), 'explorer'),
  workspace: lazyScreen(() => import('@/features/workspace/WorkspaceScreen'), 'workspace'),
  notFound: lazyScreen(() => import('@/features/errors/NotFoundScreen')),
} satisfies Record<string, LazyScreen>

export type ScreenName = keyof typeof screens

/** The screen a route names; the route table names only known screens (routes.test.ts checks). */
export function screenFor(name: string): LazyScreen {
  return Object.hasOwn(screens, name) ? screens[name as ScreenName] : screens.notFound
}
