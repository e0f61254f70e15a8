import { type ReactNode, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { describeError } from '@/features/auth'

/** A titled part of a tab. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  )
}

/** Copies text to the clipboard and says whether that worked. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation('settings')
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  useEffect(() => {
    if (state !== 'copied') return
    const timer = setTimeout(() => setState('idle'), 2500)
    return () => clearTimeout(timer)
  }, [state])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
  }
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => void copy()}>
        {label ?? t('copy')}
      </Button>
      <span role="status" className={state === 'failed' ? 'field-error' : 'muted'}>
        {state === 'copied' ? t('copied') : state === 'failed' ? t('copyFailed') : ''}
      </span>
    </>
  )
}

/** A failed request, explained (server message, rejected signature, offline...). */
export function ErrorAlert({ error, id }: { error: unknown; id?: string }) {
  const { t } = useTranslation('auth')
  const text = describeError(error)
  return (
    <p id={id} className="alert-error" role="alert">
      {t(text.key, text.values)}
    </p>
  )
}

/** A date and time in the interface language. */
export function useFormatDate() {
  const { i18n } = useTranslation()
  return (iso: string) => {
    const d = new Date(iso)
    return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' })
  }
}
