import type { UseMutationResult } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Field } from '@/components/Field'
import { Textarea } from '@/components/Textarea'
import { ApiError } from '@/lib/http'
import { MAX_REPLY, type TicketStatus, type TicketThread } from './tickets'

/** A ticket's status as a badge: whose turn it is. */
export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('tickets')
  return <span className={`badge ticket-status ticket-status-${status}`}>{t(`status.${status}`)}</span>
}

/**
 * A ticket's thread: the first message, every reply (the staff's marked), and
 * a reply box. staff shows it as the node's admins see it (the sender's
 * e-mail, each reply's author); actions are the status buttons.
 */
export function TicketConversation({
  thread,
  staff,
  reply,
  actions,
}: {
  thread: TicketThread
  staff: boolean
  reply: UseMutationResult<TicketThread, Error, string>
  actions?: ReactNode
}) {
  const { t, i18n } = useTranslation('tickets')
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language)
  const sender = thread.user ? `${thread.name} (${thread.user.login})` : thread.name
  return (
    <div className="stack ticket-conversation">
      <div className="ticket-meta">
        <TicketStatusBadge status={thread.status} />
        {staff && (
          <span className="muted">
            {thread.anonymous ? t('anonymousFrom', { name: thread.name, email: thread.email }) : t('from', { name: sender, email: thread.email })}
          </span>
        )}
        {actions}
      </div>
      <ol className="plain-list ticket-thread">
        <Message author={staff ? sender : t('you')} staffReply={false} when={when(thread.created_at)} body={thread.message} />
        {thread.thread.map((r) => (
          <Message
            key={r.id}
            author={r.staff ? (staff && r.author ? t('staffNamed', { login: r.author.login }) : t('staff')) : staff ? sender : t('you')}
            staffReply={r.staff}
            when={when(r.created_at)}
            body={r.body}
          />
        ))}
      </ol>
      {staff && thread.anonymous && <p className="muted">{t('anonymousHint', { email: thread.email })}</p>}
      <ReplyForm reply={reply} />
    </div>
  )
}

function Message({ author, staffReply, when, body }: { author: string; staffReply: boolean; when: string; body: string }) {
  return (
    <li>
      <Card as="article" className={staffReply ? 'ticket-message ticket-message-staff' : 'ticket-message'}>
        <header className="ticket-message-head">
          <strong>{author}</strong> <span className="muted">{when}</span>
        </header>
        <p className="ticket-body">{body}</p>
      </Card>
    </li>
  )
}

function ReplyForm({ reply }: { reply: UseMutationResult<TicketThread, Error, string> }) {
  const { t } = useTranslation('tickets')
  const id = useId()
  const [body, setBody] = useState('')
  const [error, setError] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const text = body.trim()
    if (!text) return setError(t('replyRequired'))
    if (text.length > MAX_REPLY) return setError(t('replyTooLong', { max: MAX_REPLY }))
    setError('')
    reply.mutate(text, { onSuccess: () => setBody('') })
  }
  const failed = reply.isError ? (reply.error instanceof ApiError ? reply.error.message : t('replyFailed')) : ''
  const shown = error || failed
  return (
    <form className="ticket-reply" onSubmit={submit} noValidate>
      <Field label={t('replyLabel')} error={shown || undefined} announce>
        <Textarea id={id} rows={5} value={body} maxLength={MAX_REPLY} onChange={(e) => setBody(e.target.value)} />
      </Field>
      <div>
        <Button type="submit" disabled={reply.isPending}>
          {reply.isPending ? t('sending') : t('send')}
        </Button>
      </div>
    </form>
  )
}
