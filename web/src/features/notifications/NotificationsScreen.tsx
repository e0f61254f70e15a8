import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { Tabs } from '@/components/Tabs'
import { SignInNotice } from '@/components/SignInNotice'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useChainFormat } from '@/lib/chain/format'
import { PAGE_SIZE, useMarkRead, useThreads, type Thread, type ThreadFilter } from './api'
import './notifications.css'

const STATUSES = ['unread', 'all'] as const
const KINDS = ['', 'Issue', 'Pull', 'Repository', 'Transfer', 'Reward', 'Proposal', 'Topic'] as const

/** The signed-in user's notifications: filters, the list with paging, and marking read. */
export default function NotificationsScreen() {
  const { t } = useTranslation('notifications')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={user ? t('lead') : undefined} />
      {user ? <Inbox /> : <SignInNotice message={t('signedOut')} />}
    </div>
  )
}

function Inbox() {
  const { t } = useTranslation('notifications')
  const [filter, setFilter] = useState<ThreadFilter>({ status: 'unread', participating: false, kind: '', repo: '' })
  const [page, setPage] = useState(1)
  const query = useThreads(filter, page)
  const markRead = useMarkRead()
  const change = (f: Partial<ThreadFilter>) => {
    setFilter({ ...filter, ...f })
    setPage(1)
  }
  return (
    <Tabs label={t('filterLabel')} tabs={STATUSES.map((id) => ({ id, label: t(`filters.${id}`) }))} selected={filter.status} onSelect={(status) => change({ status })}>
      <div className="notification-filters">
        <label>
          {t('kind.label')}{' '}
          <Select value={filter.kind} onChange={(e) => change({ kind: e.target.value })}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`kind.${k || 'any'}`)}
              </option>
            ))}
          </Select>
        </label>
        <label>
          <Input type="checkbox" checked={filter.participating} onChange={(e) => change({ participating: e.target.checked })} /> {t('participating')}
        </label>
        <label>
          {t('repo.label')}{' '}
          <Input
            type="text"
            placeholder={t('repo.placeholder')}
            defaultValue={filter.repo}
            onKeyDown={(e) => {
              if (e.key === 'Enter') change({ repo: /^[^/\s]+\/[^/\s]+$/.test(e.currentTarget.value.trim()) ? e.currentTarget.value.trim() : '' })
            }}
            onBlur={(e) => change({ repo: /^[^/\s]+\/[^/\s]+$/.test(e.target.value.trim()) ? e.target.value.trim() : '' })}
          />
        </label>
        <Button size="sm" variant="outline" disabled={markRead.isPending} onClick={() => markRead.mutate({ repo: filter.repo })}>
          {t('markAll')}
        </Button>
      </div>
      {markRead.isError && <p role="alert">{t('markFailed')}</p>}
      <Paged
        query={query}
        page={page}
        onPage={setPage}
        limit={PAGE_SIZE}
        label={t('title')}
        empty={t(`empty.${filter.status}`)}
      >
        {(threads) => (
          <ul className="notification-list">
            {threads.map((th) => (
              <ThreadRow key={th.id} thread={th} onRead={() => markRead.mutate({ id: th.id })} busy={markRead.isPending} />
            ))}
          </ul>
        )}
      </Paged>
    </Tabs>
  )
}

function ThreadRow({ thread, onRead, busy }: { thread: Thread; onRead: () => void; busy: boolean }) {
  const { t, i18n } = useTranslation('notifications')
  const href = thread.subject.latest_comment_html_url || thread.subject.html_url
  const when = new Date(thread.updated_at).toLocaleString(i18n.language)
  return (
    <li className={`notification-row${thread.unread ? ' unread' : ''}`}>
      <div className="notification-main">
        <span className="notification-kind">{t(`kind.${thread.subject.type}`, { defaultValue: thread.subject.type })}</span>{' '}
        <a href={href}>
          <ThreadTitle thread={thread} />
        </a>
        <div className="notification-meta">
          {thread.repository && <span>{thread.repository.full_name} · </span>}
          <span>{t(`reason.${thread.reason}`, { defaultValue: thread.reason })}</span>
          {thread.subject.state && <span> · {t(`state.${thread.subject.state}`, { defaultValue: thread.subject.state })}</span>}
          <span> · {when}</span>
        </div>
      </div>
      {thread.unread && (
        <Button size="sm" variant="ghost" onClick={onRead} disabled={busy} aria-label={t('markReadOne', { title: thread.subject.title })}>
          {t('markRead')}
        </Button>
      )}
    </li>
  )
}

/**
 * What a thread is about, in words: an issue's or proposal's title, or for
 * the chain's own events a sentence (a transfer received, a reward earned
 * or withheld and why, a proposal opening or about to end, a repository
 * offered to the user).
 */
function ThreadTitle({ thread }: { thread: Thread }) {
  const { t } = useTranslation('notifications')
  const format = useChainFormat()
  const { subject, reward } = thread
  switch (subject.type) {
    case 'Transfer':
      return <>{t('transferTitle', { amount: format.amount(thread.amount ?? 0) })}</>
    case 'Reward': {
      const kind = t(`rewardKind.${reward?.kind ?? ''}`, { defaultValue: reward?.kind ?? '' })
      const what = subject.title
      if (!reward?.reason) return <>{t('reward.earned', { amount: format.amount(thread.amount ?? 0), kind, what })}</>
      const why = t(`withheldReason.${reward.reason}`, { defaultValue: reward.reason })
      return thread.amount
        ? <>{t('reward.partly', { amount: format.amount(thread.amount), withheld: format.amount(reward.withheld), kind, what, why })}</>
        : <>{t('reward.withheld', { kind, what, why })}</>
    }
    case 'Proposal':
      return <>{t(thread.reason === 'proposal_ending' ? 'proposal.ending' : 'proposal.opened', { title: subject.title })}</>
    case 'Repository':
      return <>{t('repoTransferTitle', { repo: subject.title })}</>
  }
  return <>{subject.title}</>
}
