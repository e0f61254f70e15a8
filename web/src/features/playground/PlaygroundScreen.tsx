import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Markdown } from '@/components/Markdown'
import { PageHeader } from '@/components/PageHeader'
import { Spinner } from '@/components/Spinner'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import { ApiError } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useMarkdownPreview } from './api'
import { useLivePreview } from './useLivePreview'
import './playground.css'

/** /playground: Markdown on the left, the node's sanitized rendering on the right. */
export default function PlaygroundScreen() {
  const { t } = useTranslation('playground')
  useDocumentTitle(t('title'))
  const [text, setText] = useState(() => t('starter'))
  const [live, setLive] = useState(false)
  const preview = useMarkdownPreview()
  useLivePreview(text, live, preview.render)

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    preview.render(text)
  }

  return (
    <>
      <PageHeader title={t('title')} lead={t('lead')} />
      <div className="playground">
        <form onSubmit={onSubmit}>
          <Field label={t('editor.label')} hint={t('editor.hint')}>
            <Textarea id="playground-text" value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
          </Field>
          <label className="playground-live">
            <Input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} />
            {t('editor.live')}
          </label>
          <div className="button-row">
            <Button type="submit">{t('editor.preview')}</Button>
            <Button variant="outline" onClick={() => setText(t('starter'))}>
              {t('editor.reset')}
            </Button>
          </div>
        </form>
        <section className="playground-preview" aria-labelledby="playground-preview-title" aria-busy={preview.isPending}>
          <h2 id="playground-preview-title" className="playground-preview-title">
            {t('preview.title')}
          </h2>
          <PreviewBody html={preview.html} isPending={preview.isPending} error={preview.error} />
        </section>
      </div>
    </>
  )
}

function PreviewBody({ html, isPending, error }: { html: string | null; isPending: boolean; error: Error | null }) {
  const { t } = useTranslation('playground')
  return (
    <>
      {/* Always in the page, so screen readers announce when rendering starts. */}
      <div role="status">
        {isPending && (
          <div className="inline-loading">
            <Spinner size="sm" /> <span>{t('preview.rendering')}</span>
          </div>
        )}
      </div>
      {error && !isPending && (
        <div className="alert-error" role="alert">
          {errorMessage(error, t)}
        </div>
      )}
      {html === null ? (
        !isPending && !error && <p className="muted">{t('preview.idle')}</p>
      ) : html.trim() === '' ? (
        <p className="muted">{t('preview.empty')}</p>
      ) : (
        <Markdown html={html} />
      )}
    </>
  )
}

function errorMessage(err: Error, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (!(err instanceof ApiError)) return t('preview.errors.network')
  if (err.code === 'body_too_large') return t('preview.errors.tooLarge')
  return t('preview.errors.server', { message: err.message })
}
