import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { Markdown } from '@/components/Markdown'
import { QueryState } from '@/components/QueryState'
import { MarkdownEditor } from '@/features/issues'
import { MAX_BODY, MESSAGES_PAGE, useBlockUser, useConversation, useMarkConversationRead, useMessages, useSendMessage, type Conversation, type Message } from './api'
import { SendError, submitOnCtrlEnter, When } from './SendError'

/** One conversation: who it is with, block/unblock, the thread (polled) and the reply box. */
export function ConversationView({ id, me }: { id: number; me: string }) {
  const query = useConversation(id)
  return <QueryState query={query}>{(c) => <Open conversation={c} me={me} />}</QueryState>
}

function Open({ conversation: c, me }: { conversation: Conversation; me: string }) {
  const { t } = useTranslation('messages')
  const { mutate } = useMarkConversationRead()
  // Open is reading: whatever arrives while the page is open is read too,
  // once per last message (a failed mark is not retried in a loop).
  const marked = useRef(0)
  const last = c.last_message?.id ?? 0
  useEffect(() => {
    if (c.unread_count > 0 && marked.current !== last) {
      marked.current = last
      mutate(c.id)
    }
  }, [c.id, c.unread_count, last, mutate])
  return (
    <section className="conversation" aria-labelledby="conversation-title">
      <header className="conversation-header">
        <h2 id="conversation-title">{t('with', { name: c.with.login })}</h2>
        <BlockButton login={c.with.login} blocked={c.blocked} />
      </header>
      <Thread id={c.id} me={me} />
      {c.blocked ? <p className="muted">{t('blockedNotice', { name: c.with.login })}</p> : <Reply to={c.with.login} />}
    </section>
  )
}

function BlockButton({ login, blocked }: { login: string; blocked: boolean }) {
  const { t } = useTranslation('messages')
  const block = useBlockUser()
  return (
    <div className="block-action">
      <Button size="sm" variant="outline" disabled={block.isPending} onClick={() => block.mutate({ login, block: !blocked })}>
        {blocked ? t('unblock', { name: login }) : t('block', { name: login })}
      </Button>
      {block.isError && <SendError error={block.error} />}
    </div>
  )
}

/** The messages, oldest at the top of each page; page 1 is the newest. */
function Thread({ id, me }: { id: number; me: string }) {
  const { t } = useTranslation('messages')
  const [page, setPage] = useState(1)
  const query = useMessages(id, page)
  return (
    <Paged query={query} page={page} onPage={setPage} limit={MESSAGES_PAGE} label={t('thread')} empty={t('empty.thread')}>
      {(messages) => (
        <ol className="message-thread" aria-label={t('thread')} aria-live="polite">
          {[...messages].reverse().map((m) => (
            <MessageItem key={m.id} message={m} mine={m.sender.login.toLowerCase() === me.toLowerCase()} />
          ))}
        </ol>
      )}
    </Paged>
  )
}

function MessageItem({ message: m, mine }: { message: Message; mine: boolean }) {
  const { t } = useTranslation('messages')
  return (
    <li className={`message${mine ? ' mine' : ''}`}>
      <Card size="sm">
        <header className="message-meta muted">
          <strong>{mine ? t('you') : m.sender.login}</strong> · <When iso={m.created_at} />
        </header>
        <Markdown html={m.body_html} />
      </Card>
    </li>
  )
}

function Reply({ to }: { to: string }) {
  const { t } = useTranslation('messages')
  const [body, setBody] = useState('')
  const send = useSendMessage()
  return (
    <form
      className="message-compose"
      onKeyDown={submitOnCtrlEnter}
      onSubmit={(e) => {
        e.preventDefault()
        if (body.trim()) send.mutate({ to, body }, { onSuccess: () => setBody('') })
      }}
    >
      <MarkdownEditor label={t('reply')} value={body} onChange={setBody} rows={4} required maxLength={MAX_BODY} />
      <div className="compose-actions">
        <span className="muted">{t('sendHint')}</span>
        <Button type="submit" disabled={send.isPending || !body.trim()}>
          {send.isPending ? t('sending') : t('send')}
        </Button>
      </div>
      {send.isError && <SendError error={send.error} />}
    </form>
  )
}
