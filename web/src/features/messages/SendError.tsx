import type { KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { NotFoundError } from '@/components/QueryState'
import { ApiError } from '@/lib/http'

/** Refusals the API names by code, each with its own sentence. */
const KNOWN_CODES = ['blocked', 'blocking', 'no_account', 'not_found', 'self', 'too_large', 'required', 'invalid_text'] as const

/** Why a send or a block failed, in the reader's language when the server named the reason. */
export function SendError({ error }: { error: Error }) {
  const { t } = useTranslation('messages')
  let text = t('errors.generic', { message: error.message })
  if (error instanceof ApiError && (KNOWN_CODES as readonly string[]).includes(error.code)) text = t(`errors.${error.code}`)
  else if (error instanceof NotFoundError || (error instanceof ApiError && error.status === 404)) text = t('errors.not_found')
  return (
    <p role="alert" className="message-error">
      {text}
    </p>
  )
}

/** A message's time, in the reader's language. */
export function When({ iso }: { iso: string }) {
  const { i18n } = useTranslation()
  const d = new Date(iso)
  const text = Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(d)
  return <time dateTime={iso}>{text}</time>
}

/** Sends on Ctrl+Enter (or Cmd+Enter) from anywhere in a compose form. */
export function submitOnCtrlEnter(e: KeyboardEvent<HTMLFormElement>) {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault()
    e.currentTarget.requestSubmit()
  }
}
