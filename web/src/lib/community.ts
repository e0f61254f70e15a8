// The community API (dForge's): who holds the community roles and the
// community page's figures. Both read the chain's projection, so their
// keys start with 'chain' and a screen's useLiveChain refreshes them when
// a block lands.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Optional, Schema } from '@/lib/apiSchema'
import { type Micro } from '@/lib/chain/amount'
import { getChain, getChainPage } from '@/lib/chain/api'
import type { Repository } from '@/lib/forge/api'

/** The roles governance grants (internal/chain/roles), in the order pages show them. */
export const COMMUNITY_ROLES = ['forum_moderator', 'event_organizer', 'ambassador'] as const
export type CommunityRole = (typeof COMMUNITY_ROLES)[number]

// A holder's public profile, as GET /users/{name} gives it: the email, the
// moderation marks and followed_by_me are left out (omitempty) there.
export type HolderProfile = Optional<Schema<'User'>, 'email' | 'hidden' | 'hidden_reason' | 'followed_by_me'>

// role is one of COMMUNITY_ROLES where the document says any string; no amounts, so the generated type holds though it is read with parseExactJSON.
export type RoleHolder = Omit<Schema<'RoleHolder'>, 'role' | 'user'> & { role: CommunityRole; user: HolderProfile }

// The repositories in the overview are shaped as the repository routes shape
// them, their omitempty fields (permissions, moderation marks) optional.

/** A repository and what it gained in the window. */
export type TrendingRepo = Omit<Schema<'TrendingRepo'>, 'repository'> & { repository: Repository }

// A leaderboard row. Hand-written earned: read through parseExactJSON, an
// amount may be a decimal string (Micro) where the document says integer.
export type Contributor = Omit<Schema<'index.Rank'>, 'earned'> & { earned: Micro }

// role is one of COMMUNITY_ROLES where the document says any string.
export type RoleCount = Omit<Schema<'RoleCount'>, 'role'> & { role: CommunityRole }

/** A forum topic as the forum's lists show it. */
export type CommunityTopic = Schema<'ForumTopic'>

/** An event as the calendar sends it; my_rsvp is left out (omitempty) for anonymous callers. */
export type CommunityEventSummary = Optional<Schema<'Event'>, 'my_rsvp'>

/** GET /api/v1/community/overview: each figure is defined in internal/api/doc/home.md ("Community page"). */
export type CommunityOverview = Omit<Schema<'CommunityOverview'>, 'trending' | 'most_starred' | 'top_contributors' | 'roles' | 'upcoming_events'> & {
  trending: TrendingRepo[]
  most_starred: Repository[]
  top_contributors: Contributor[]
  roles: RoleCount[]
  upcoming_events: CommunityEventSummary[]
}

export function useCommunityOverview() {
  return useQuery({ queryKey: ['chain', 'community', 'overview'], queryFn: () => getChain<CommunityOverview>('/api/v1/community/overview') })
}

/** One page of a role's holders (every role when role is undefined), the longest-standing first. */
export function useRoleHolders(role: CommunityRole | undefined, page: number, limit: number) {
  const path = role ? `/api/v1/community/roles?role=${role}` : '/api/v1/community/roles'
  return useQuery({
    queryKey: ['chain', 'community', 'roles', role ?? 'all', page, limit],
    queryFn: () => getChainPage<RoleHolder>(path, page, limit),
    placeholderData: keepPreviousData,
  })
}
