import { Trans, useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { SignInNotice } from '@/components/SignInNotice'
import { repoHref } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { FEED_PAGE_SIZE, useFeed, type FeedItem } from './api'
import './feed.css'

const userHref = (username: string) => `/user/${encodeURIComponent(username)}`

/** The feed: what the people the user follows, and the repositories they watch or star, have done; paged. */
export default function FeedScreen() {
  const { t } = useTranslation('feed')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={user ? t('lead') : undefined} />
      {user ? <Feed /> : <SignInNotice message={t('signedOut')} />}
    </div>
  )
}

function Feed() {
  const { t } = useTranslation('feed')
  const [pageParam, setPage] = useUrlParam('page', '1')
  const page = Math.max(1, Number.parseInt(pageParam, 10) || 1)
  const query = useFeed(page)
  if (page === 1 && query.data?.items.length === 0) {
    return (
      <EmptyState
        message={t('empty')}
        action={
          <p className="feed-next">
            <PreloadLink to="/explore">{t('explore')}</PreloadLink>
            <PreloadLink to="/search?type=users">{t('people')}</PreloadLink>
          </p>
        }
      />
    )
  }
  return (
    <Paged query={query} page={page} onPage={(p) => setPage(String(p))} limit={FEED_PAGE_SIZE} label={t('title')} empty={t('empty')}>
      {(items) => (
        <ul className="feed-list">
          {items.map((item) => (
            <FeedRow key={item.id} item={item} />
          ))}
        </ul>
      )}
    </Paged>
  )
}

/** The sentence (a key under item) an action reads as. */
function sentenceOf(a: FeedItem): string {
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
}

/** A ref as people name it: the branch or tag alone. */
const refName = (ref = '') => ref.replace(/^refs\/(heads|tags)\//, '')

function targetOf(item: FeedItem): string {
  const { owner, name } = item.repo
  if (!item.number) return repoHref.home(owner, name)
  const href = `${repoHref.section(owner, name, item.isPull ? 'pulls' : 'issues')}/${item.number}`
  return item.commentId ? `${href}#issuecomment-${item.commentId}` : href
}

function FeedRow({ item }: { item: FeedItem }) {
  const { t, i18n } = useTranslation('feed')
  const fmt = useForgeFormat()
  const { owner, name } = item.repo
  return (
    <li className="feed-row">
      <p className="feed-sentence">
        <Trans
          t={t}
          i18nKey={`item.${sentenceOf(item)}`}
          values={{ actor: item.actor.username, repo: item.repo.fullName, number: item.number, ref: refName(item.ref) }}
          components={{
            actor: <PreloadLink to={userHref(item.actor.username)} />,
            repo: <PreloadLink to={repoHref.home(owner, name)} />,
            target: <PreloadLink to={targetOf(item)} />,
            ref: <code />,
          }}
        />
        {item.repo.private && <span className="feed-private">{t('private')}</span>}
      </p>
      {item.title && <p className="feed-title">{item.title}</p>}
      {item.content && <p className="feed-content muted">{item.content}</p>}
      <time className="muted feed-time" dateTime={item.time} title={new Date(item.time).toLocaleString(i18n.resolvedLanguage)}>
        {fmt.ago(item.time)}
      </time>
    </li>
  )
}
