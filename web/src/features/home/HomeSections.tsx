// The home page's node-wide sections: top contributors, recent activity
// and the node's team, each from its API read (./api).
import { Trans, useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { FeedLink } from '@/features/feed'
import { repoHref } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { shortAddress } from '@/lib/chain/address'
import { type Activity, useRecentActivity, useTeam, useTopContributors } from './api'
import { numberFormat } from '@/lib/intl'

const TOP_CONTRIBUTORS = 5
const RECENT_ACTIVITY = 10

const userHref = (username: string) => `/user/${encodeURIComponent(username)}`

/** The most active contributors to public repositories over the last 30 days. */
export function TopContributors() {
  const { t, i18n } = useTranslation('home')
  const contributors = useTopContributors(TOP_CONTRIBUTORS)
  const leaderboard = <PreloadLink to="/leaderboard">{t('contributors.leaderboard')}</PreloadLink>
  return (
    <QueryState query={contributors}>
      {(list) =>
        list.length === 0 ? (
          <EmptyState message={t('contributors.empty')} action={leaderboard} />
        ) : (
          <>
            <p className="muted home-caption">{t('contributors.window')}</p>
            <ol className="home-list contributor-list">
              {list.map((c) => (
                <li key={c.address}>
                  <PreloadLink to={userHref(c.username)}>{c.username}</PreloadLink>
                  <span className="muted"> · {t('contributors.count', { count: c.total, n: numberFormat(i18n.resolvedLanguage).format(c.total) })}</span>
                </li>
              ))}
            </ol>
            {leaderboard}
          </>
        )
      }
    </QueryState>
  )
}

/** The newest actions in public repositories, as sentences. */
export function RecentActivity() {
  const { t } = useTranslation('home')
  const activity = useRecentActivity(RECENT_ACTIVITY)
  return (
    <QueryState query={activity}>
      {(list) => {
        const items = list.filter((a) => sentenceOf(a) !== null)
        return items.length === 0 ? (
          <EmptyState message={t('activity.empty')} />
        ) : (
          <>
            <ul className="home-list activity-list">
              {items.map((a) => (
                <ActivityItem key={`${a.height}-${a.type}-${a.repo.id}-${a.number ?? ''}-${a.ref ?? ''}-${a.time}`} item={a} />
              ))}
            </ul>
            <FeedLink />
          </>
        )
      }}
    </QueryState>
  )
}

/** The sentence (a key under activity.item) an action reads as; null for a kind this page does not know. */
function sentenceOf(a: Activity): string | null {
  switch (a.type) {
    case 'repo.create':
      return 'repoCreate'
    case 'issue.open':
      return 'issueOpen'
    case 'pr.open':
      return 'pullOpen'
    case 'comment':
      return a.isPull ? 'commentPull' : 'commentIssue'
    case 'review':
      return a.state === 'approve' ? 'reviewApprove' : a.state === 'request_changes' ? 'reviewChanges' : 'review'
    case 'pr.merge':
      return 'pullMerge'
    case 'push':
      return a.ref?.startsWith('refs/tags/') ? 'pushTag' : 'push'
  }
  return null
}

/** A ref as people name it: the branch or tag alone. */
const refName = (ref = '') => ref.replace(/^refs\/(heads|tags)\//, '')

function ActivityItem({ item }: { item: Activity }) {
  const { t, i18n } = useTranslation('home')
  const fmt = useForgeFormat()
  const { owner, name } = item.repo
  const target = item.number ? `${repoHref.section(owner, name, item.isPull ? 'pulls' : 'issues')}/${item.number}` : repoHref.home(owner, name)
  return (
    <li>
      <span>
        <Trans
          t={t}
          i18nKey={`activity.item.${sentenceOf(item)}`}
          values={{ actor: item.actor.username, repo: item.repo.fullName, number: item.number, ref: refName(item.ref) }}
          components={{
            actor: <PreloadLink to={userHref(item.actor.username)} />,
            repo: <PreloadLink to={repoHref.home(owner, name)} />,
            target: <PreloadLink to={target} />,
            ref: <code />,
          }}
        />
      </span>
      {item.title && <span className="activity-title">{item.title}</span>}
      <time className="muted activity-time" dateTime={item.time} title={new Date(item.time).toLocaleString(i18n.resolvedLanguage)}>
        {fmt.ago(item.time)}
      </time>
    </li>
  )
}

/** The node's maintainers, as its operator named them. */
export function Team() {
  const { t } = useTranslation('home')
  const team = useTeam()
  return (
    <QueryState query={team}>
      {(list) =>
        list.length === 0 ? (
          <EmptyState message={t('team.empty')} />
        ) : (
          <ul className="home-list team-list">
            {list.map((m) => (
              <li key={m.address}>
                <PreloadLink to={userHref(m.username)}>{m.username}</PreloadLink>
                <span className="muted" title={m.address}>
                  {' '}
                  · {shortAddress(m.address)}
                </span>
              </li>
            ))}
          </ul>
        )
      }
    </QueryState>
  )
}
