import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import { MarkdownEditor } from '@/features/issues'
import { MAX_BODY, useSendMessage } from './api'
import { SendError, submitOnCtrlEnter } from './SendError'

/** A first message (or the next one) to a user picked by username; it opens the conversation once sent. */
export function NewMessageForm({ initialTo, onSent }: { initialTo: string; onSent: (conversation: number) => void }) {
  const { t } = useTranslation('messages')
  const id = useId()
  const [to, setTo] = useState(initialTo)
  const [body, setBody] = useState('')
  const send = useSendMessage()
  const ready = to.trim() !== '' && body.trim() !== ''
  return (
    <section className="conversation" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('new.title')}</h2>
      <p className="muted">{t('new.help')}</p>
      <form
        className="message-compose"
        onKeyDown={submitOnCtrlEnter}
        onSubmit={(e) => {
          e.preventDefault()
          if (ready) send.mutate({ to: to.trim(), body }, { onSuccess: (m) => onSent(m.conversation_id) })
        }}
      >
        <Field label={t('new.to')}>
          <Input id={`${id}-to`} type="text" value={to} required autoComplete="off" spellCheck={false} placeholder={t('new.toPlaceholder')} onChange={(e) => setTo(e.target.value)} />
        </Field>
        <MarkdownEditor label={t('new.body')} value={body} onChange={setBody} rows={6} required maxLength={MAX_BODY} />
        <div className="compose-actions">
          <span className="muted">{t('sendHint')}</span>
          <Button type="submit" disabled={send.isPending || !ready}>
            {send.isPending ? t('sending') : t('send')}
          </Button>
        </div>
        {send.isError && <SendError error={send.error} />}
      </form>
    </section>
  )
}
