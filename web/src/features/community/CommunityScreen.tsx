import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { useLiveChain } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import {
  COMMUNITY_ROLES,
  type CommunityEventSummary,
  type CommunityOverview,
  type CommunityRole,
  type CommunityTopic,
  type RoleHolder,
  useCommunityOverview,
  useRoleHolders,
} from '@/lib/community'
import type { Repository } from '@/lib/forge/api'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import './community.css'

// How many holders of each role the page names; the rest are counted.
const HOLDERS_SHOWN = 100

// Where each role's holders are presented in full, when a page does.
const ROLE_PAGES: Partial<Record<CommunityRole, string>> = { ambassador: '/ambassadors' }

/** /community: live figures from the chain's projection, refreshed as blocks land. */
export default function CommunityScreen() {
  const { t } = useTranslation('communityPage')
  useDocumentTitle(t('title'))
  useLiveChain()
  const overview = useCommunityOverview()
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      <QueryState query={overview}>
        {(o) => (
          <>
            <Figures overview={o} />
            <div className="grid community-lists">
              <Trending overview={o} />
              <MostStarred repos={o.most_starred} />
              <TopContributors overview={o} />
              <LatestTopics topics={o.latest_topics} />
              <UpcomingEvents events={o.upcoming_events} />
            </div>
            <Roles overview={o} />
          </>
        )}
      </QueryState>
      <TakePart />
    </div>
  )
}

function Figures({ overview: o }: { overview: CommunityOverview }) {
  const { t } = useTranslation('communityPage')
  const fmt = useChainFormat()
  const figures: [string, number, string][] = [
    ['repositories', o.repositories, t('figures.repositoriesHint')],
    ['contributors', o.contributors, t('figures.contributorsHint')],
    ['proposals', o.proposals, t('figures.proposalsHint')],
    ['openProposals', o.open_proposals, t('figures.openProposalsHint')],
    ['topics', o.topics, t('figures.topicsHint')],
  ]
  return (
    <section aria-labelledby="community-figures">
      <h2 id="community-figures">{t('figures.title')}</h2>
      <dl className="community-figures">
        {figures.map(([key, value, hint]) => (
          <Card key={key} className="community-figure">
            <dt>{t(`figures.${key}`)}</dt>
            <dd>
              <span className="community-figure-value num" data-testid={`figure-${key}`}>
                {fmt.count(value)}
              </span>
              <span className="muted">{hint}</span>
            </dd>
          </Card>
        ))}
      </dl>
      <p className="muted">{t('figures.asOf', { height: fmt.count(o.height) })}</p>
    </section>
  )
}

function ListCard({ id, title, lead, children }: { id: string; title: string; lead?: string; children: ReactNode }) {
  return (
    <Card as="section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {lead && <p className="muted">{lead}</p>}
      {children}
    </Card>
  )
}

function RepoLink({ repo }: { repo: Repository }) {
  return <PreloadLink to={`/${repo.full_name}`}>{repo.full_name}</PreloadLink>
}

function Trending({ overview: o }: { overview: CommunityOverview }) {
  const { t } = useTranslation('communityPage')
  const fmt = useChainFormat()
  return (
    <ListCard id="community-trending" title={t('trending.title')} lead={t('trending.lead', { days: o.window_days })}>
      {o.trending.length === 0 ? (
        <EmptyState message={t('trending.empty', { days: o.window_days })} />
      ) : (
        <ol className="community-list">
          {o.trending.map((r) => (
            <li key={r.repository.id}>
              <RepoLink repo={r.repository} />
              <span className="muted">{t('trending.gained', { stars: fmt.count(r.recent_stars), actions: fmt.count(r.recent_activity) })}</span>
            </li>
          ))}
        </ol>
      )}
    </ListCard>
  )
}

function MostStarred({ repos }: { repos: Repository[] }) {
  const { t } = useTranslation('communityPage')
  const fmt = useChainFormat()
  return (
    <ListCard id="community-starred" title={t('starred.title')}>
      {repos.length === 0 ? (
        <EmptyState message={t('starred.empty')} action={<PreloadLink to="/explore">{t('starred.explore')}</PreloadLink>} />
      ) : (
        <ol className="community-list">
          {repos.map((r) => (
            <li key={r.id}>
              <RepoLink repo={r} />
              <span className="muted">{t('starred.stars', { count: fmt.count(r.stars_count) })}</span>
            </li>
          ))}
        </ol>
      )}
    </ListCard>
  )
}

function TopContributors({ overview: o }: { overview: CommunityOverview }) {
  const { t } = useTranslation('communityPage')
  const fmt = useChainFormat()
  return (
    <ListCard id="community-contributors" title={t('contributors.title')} lead={t('contributors.lead')}>
      {o.top_contributors.length === 0 ? (
        <EmptyState message={t('contributors.empty')} action={<PreloadLink to="/rewards">{t('contributors.rewards')}</PreloadLink>} />
      ) : (
        <ol className="community-list">
          {o.top_contributors.map((c) => (
            <li key={c.address}>
              <PreloadLink to={`/${c.name}`}>{c.name}</PreloadLink>
              <span className="muted">{t('contributors.earned', { amount: fmt.amount(c.earned), count: fmt.count(c.contributions) })}</span>
            </li>
          ))}
        </ol>
      )}
    </ListCard>
  )
}

function LatestTopics({ topics }: { topics: CommunityTopic[] }) {
  const { t } = useTranslation('communityPage')
  const fmt = useChainFormat()
  return (
    <ListCard id="community-topics" title={t('topics.title')}>
      {topics.length === 0 ? (
        <EmptyState message={t('topics.empty')} action={<PreloadLink to="/forum">{t('topics.forum')}</PreloadLink>} />
      ) : (
        <>
          <ol className="community-list">
            {topics.map((topic) => (
              <li key={topic.id}>
                <PreloadLink to={`/forum/topic/${topic.id}`}>{topic.title}</PreloadLink>
                <span className="muted">{t('topics.by', { author: topic.author.login, count: fmt.count(topic.replies) })}</span>
              </li>
            ))}
          </ol>
          <PreloadLink to="/forum">{t('topics.forum')}</PreloadLink>
        </>
      )}
    </ListCard>
  )
}

function UpcomingEvents({ events }: { events: CommunityEventSummary[] }) {
  const { t, i18n } = useTranslation('communityPage')
  const when = (e: CommunityEventSummary) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(e.starts_at))
  return (
    <ListCard id="community-events" title={t('events.title')}>
      {events.length === 0 ? (
        <EmptyState message={t('events.empty')} action={<PreloadLink to="/events">{t('events.calendar')}</PreloadLink>} />
      ) : (
        <>
          <ol className="community-list">
            {events.map((e) => (
              <li key={e.id}>
                <PreloadLink to={`/events/${e.id}`}>{e.title}</PreloadLink>
                <span className="muted">
                  <time dateTime={e.starts_at}>{when(e)}</time>
                  {e.place ? ` · ${e.place}` : ` · ${t('events.online')}`}
                </span>
              </li>
            ))}
          </ol>
          <PreloadLink to="/events">{t('events.calendar')}</PreloadLink>
        </>
      )}
    </ListCard>
  )
}

function Roles({ overview: o }: { overview: CommunityOverview }) {
  const { t } = useTranslation('communityPage')
  const holders = useRoleHolders(undefined, 1, HOLDERS_SHOWN)
  return (
    <section aria-labelledby="community-roles">
      <h2 id="community-roles">{t('roles.title')}</h2>
      <p className="muted">
        {t('roles.lead')} <PreloadLink to="/governance/new?type=role">{t('roles.propose')}</PreloadLink>
      </p>
      <QueryState query={holders}>
        {(page) => (
          <ul className="grid community-roles">
            {COMMUNITY_ROLES.map((role) => (
              <RoleCard key={role} role={role} count={o.roles.find((r) => r.role === role)?.holders ?? 0} holders={page.items.filter((h) => h.role === role)} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  )
}

function RoleCard({ role, count, holders }: { role: CommunityRole; count: number; holders: RoleHolder[] }) {
  const { t } = useTranslation('communityPage')
  const fmt = useChainFormat()
  const more = ROLE_PAGES[role]
  return (
    <Card as="li" aria-labelledby={`community-role-${role}`}>
      <h3 id={`community-role-${role}`}>
        {t(`roles.names.${role}`)} <span className="muted num">({fmt.count(count)})</span>
      </h3>
      {holders.length === 0 ? (
        <p className="muted">{t('roles.none')}</p>
      ) : (
        <ul className="community-holders">
          {holders.map((h) => (
            <li key={h.user.wallet_address}>
              <PreloadLink to={`/${h.user.login}`}>{h.user.full_name || h.user.login}</PreloadLink>
              {h.user.location && <span className="muted"> · {h.user.location}</span>}
            </li>
          ))}
        </ul>
      )}
      {count > holders.length && holders.length > 0 && <p className="muted">{t('roles.andMore', { count: fmt.count(count - holders.length) })}</p>}
      {more && <PreloadLink to={more}>{t(`roles.more.${role}`)}</PreloadLink>}
    </Card>
  )
}

// Each way to take part: its label under takePart.<id>, and where it leads.
const WAYS = [
  { id: 'forum', to: '/forum' },
  { id: 'events', to: '/events' },
  { id: 'governance', to: '/governance' },
  { id: 'ambassadors', to: '/ambassadors' },
  { id: 'rewards', to: '/rewards' },
  { id: 'blog', to: '/blog' },
  { id: 'code', to: '/docs/getting-started' },
] as const

function TakePart() {
  const { t } = useTranslation('communityPage')
  return (
    <nav aria-labelledby="community-take-part">
      <h2 id="community-take-part">{t('takePart.title')}</h2>
      <ul className="community-ways">
        {WAYS.map((way) => (
          <li key={way.id}>
            <PreloadLink to={way.to}>{t(`takePart.${way.id}`)}</PreloadLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
