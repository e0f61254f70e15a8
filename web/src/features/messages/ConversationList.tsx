import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Paged } from '@/components/Lists'
import { CONVERSATIONS_PAGE, useConversations, type Conversation } from './api'
import { When } from './SendError'

/** The signed-in user's conversations, the latest first, with unread badges; selected is the open one. */
export function ConversationList({ selected }: { selected: number }) {
  const { t } = useTranslation('messages')
  const [page, setPage] = useState(1)
  const query = useConversations(page)
  return (
    <nav className="conversation-list" aria-label={t('conversations')}>
      <h2>{t('conversations')}</h2>
      <a className="btn btn-outline btn-sm new-message-link" href="/messages" aria-current={selected === 0 ? 'page' : undefined}>
        {t('new.title')}
      </a>
      <Paged query={query} page={page} onPage={setPage} limit={CONVERSATIONS_PAGE} label={t('conversations')} empty={t('empty.conversations')}>
        {(list) => (
          <ul className="plain-list">
            {list.map((c) => (
              <ConversationRow key={c.id} conversation={c} selected={c.id === selected} />
            ))}
          </ul>
        )}
      </Paged>
    </nav>
  )
}

function ConversationRow({ conversation: c, selected }: { conversation: Conversation; selected: boolean }) {
  const { t } = useTranslation('messages')
  const last = c.last_message
  const preview = last ? last.body.replace(/\s+/g, ' ').slice(0, 80) : ''
  return (
    <li>
      <a
        href={`/messages/${c.id}`}
        className={`conversation-row${c.unread_count > 0 ? ' unread' : ''}`}
        aria-current={selected ? 'page' : undefined}
        aria-label={c.unread_count > 0 ? t('rowUnread', { name: c.with.login, count: c.unread_count }) : undefined}
      >
        <span className="conversation-head">
          <strong>{c.with.login}</strong>
          {c.unread_count > 0 && (
            <span className="badge unread-badge" aria-hidden="true">
              {c.unread_count}
            </span>
          )}
          {c.blocked && <span className="muted"> · {t('blocked')}</span>}
        </span>
        {last && (
          <span className="conversation-preview muted">
            {preview} · <When iso={last.created_at} />
          </span>
        )}
      </a>
    </li>
  )
}
