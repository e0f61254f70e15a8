import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Textarea } from '@/components/Textarea'
import type { Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { badgeHref, useDispatch } from './api'

/** The chosen workflow's badge (with the Markdown to show it in a README) and, for writers, a form that starts it by hand. */
export function WorkflowPanel({ repo, file, canRun }: { repo: Repository; file: string; canRun: boolean }) {
  const { t } = useTranslation('actions')
  const src = badgeHref(repo.owner.login, repo.name, file, repo.default_branch)
  const markdown = `![${file}](${window.location.origin}${src})`
  return (
    <div className="action-workflow">
      <figure className="action-badge">
        <img src={src} alt={t('badge.alt', { workflow: file })} height={20} />
        <figcaption>
          {t('badge.markdown')} <code>{markdown}</code>
        </figcaption>
      </figure>
      {canRun && <DispatchForm repo={repo} file={file} />}
    </div>
  )
}

/** "name=value" lines to the inputs object; blank lines are skipped. */
function parseInputs(text: string): Record<string, string> | null {
  const inputs: Record<string, string> = {}
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const eq = line.indexOf('=')
    if (eq <= 0) return null
    inputs[line.slice(0, eq).trim()] = line.slice(eq + 1).trim()
  }
  return inputs
}

function DispatchForm({ repo, file }: { repo: Repository; file: string }) {
  const { t } = useTranslation('actions')
  const dispatch = useDispatch(repo.owner.login, repo.name, file)
  const [ref, setRef] = useState(repo.default_branch)
  const [inputs, setInputs] = useState('')
  const parsed = parseInputs(inputs)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (parsed && ref.trim()) dispatch.mutate({ ref: ref.trim(), inputs: parsed })
  }
  return (
    <form className="action-form" onSubmit={submit} aria-label={t('dispatch.label', { workflow: file })}>
      <Field label={t('dispatch.ref')}>
        <Input value={ref} onChange={(e) => setRef(e.target.value)} />
      </Field>
      <Field label={t('dispatch.inputs')} hint={t('dispatch.inputsHint')} error={parsed ? undefined : t('dispatch.inputsBad')}>
        <Textarea rows={2} value={inputs} spellCheck={false} onChange={(e) => setInputs(e.target.value)} />
      </Field>
      <Button type="submit" size="sm" disabled={dispatch.isPending || !parsed || !ref.trim()}>
        {dispatch.isPending ? t('dispatch.running') : t('dispatch.run')}
      </Button>
      {dispatch.isError && (
        <p role="alert" className="field-error">
          {errorText(dispatch.error)}
        </p>
      )}
      {dispatch.isSuccess && (
        <p role="status" className="muted">
          {t('dispatch.started')}
        </p>
      )}
    </form>
  )
}
