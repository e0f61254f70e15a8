import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { QueryState } from '@/components/QueryState'
import type { Repository } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'
import { errorText } from '@/lib/http'
import { nameProblem, useDeleteSecret, usePutSecret, useSecrets } from './api'

/** The repository's secrets by name (their values never come back), with a form to add or replace one. */
export function SecretSettings({ repo }: { repo: Repository }) {
  const { t } = useTranslation('actions')
  const fmt = useForgeFormat()
  const id = useId()
  const o = repo.owner.login
  const secrets = useSecrets(o, repo.name)
  const put = usePutSecret(o, repo.name)
  const remove = useDeleteSecret(o, repo.name)
  const [name, setName] = useState('')
  const [value, setValue] = useState('')
  const [tried, setTried] = useState(false)
  const problem = nameProblem(name.trim())
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (problem || value === '') return
    put.mutate(
      { name: name.trim(), data: value },
      {
        onSuccess: () => {
          setName('')
          setValue('')
          setTried(false)
        },
      },
    )
  }
  return (
    <section className="action-settings-part" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('secrets.heading')}</h3>
      <p className="muted">{t('secrets.help')}</p>
      <QueryState query={secrets}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message={t('secrets.empty')} />
          ) : (
            <ul className="plain-list action-names" aria-label={t('secrets.heading')}>
              {list.map((s) => (
                <li key={s.name}>
                  <code>{s.name}</code>
                  {s.created_at && <span className="muted"> {t('secrets.added', { when: fmt.date(s.created_at) })}</span>}
                  <span className="button-row">
                    <Button size="sm" variant="ghost" aria-label={t('secrets.updateNamed', { name: s.name })} onClick={() => setName(s.name)}>
                      {t('secrets.update')}
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={remove.isPending}
                      aria-label={t('secrets.deleteNamed', { name: s.name })}
                      onClick={() => {
                        if (window.confirm(t('secrets.confirmDelete', { name: s.name }))) remove.mutate(s.name)
                      }}
                    >
                      {t('secrets.delete')}
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <form className="action-form" onSubmit={submit} aria-label={t('secrets.form')}>
        <Field label={t('secrets.name')} error={tried && problem ? t(`name.${problem}`) : undefined}>
          <Input value={name} autoComplete="off" spellCheck={false} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('secrets.value')} error={tried && value === '' ? t('secrets.valueRequired') : undefined}>
          <Input type="password" value={value} autoComplete="new-password" onChange={(e) => setValue(e.target.value)} />
        </Field>
        <Button type="submit" size="sm" disabled={put.isPending}>
          {put.isPending ? t('secrets.saving') : t('secrets.save')}
        </Button>
      </form>
      {(put.isError || remove.isError) && (
        <p role="alert" className="field-error">
          {errorText(put.error ?? remove.error)}
        </p>
      )}
      {put.isSuccess && (
        <p role="status" className="muted">
          {t('secrets.saved')}
        </p>
      )}
    </section>
  )
}
