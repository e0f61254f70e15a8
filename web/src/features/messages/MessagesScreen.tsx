import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/PageHeader'
import { SignInNotice } from '@/components/SignInNotice'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useUnreadMessages } from './api'
import { ConversationList } from './ConversationList'
import { ConversationView } from './ConversationView'
import { NewMessageForm } from './NewMessageForm'
import './messages.css'

/**
 * Direct messages (/messages, /messages/:id): the signed-in user's
 * conversations beside the open one, or the form for a new message. They
 * stay on this node, so both people need an account here.
 */
export default function MessagesScreen() {
  const { t } = useTranslation('messages')
  useDocumentTitle(t('title'))
  const user = useSignedInUser()
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      {user ? <Inbox me={user.username} /> : <SignInNotice message={t('signedOut')} />}
    </div>
  )
}

function Inbox({ me }: { me: string }) {
  const { t } = useTranslation('messages')
  const raw = useRoute().params.id ?? ''
  const id = /^[1-9]\d*$/.test(raw) ? Number(raw) : 0
  const unread = useUnreadMessages()
  const to = new URLSearchParams(window.location.search).get('to') ?? ''
  return (
    <>
      {unread.data && unread.data.unread > 0 && (
        <p className="muted" role="status">
          {t('unreadTotal', { count: unread.data.unread, conversations: unread.data.conversations })}
        </p>
      )}
      <div className="messages-layout">
        <ConversationList selected={id} />
        {raw && !id ? (
          <p role="alert">{t('errors.not_found')}</p>
        ) : id ? (
          <ConversationView id={id} me={me} />
        ) : (
          <NewMessageForm initialTo={to} onSent={(c) => window.location.assign(`/messages/${c}`)} />
        )}
      </div>
    </>
  )
}
