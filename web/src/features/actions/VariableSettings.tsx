import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { QueryState } from '@/components/QueryState'
import { Textarea } from '@/components/Textarea'
import type { Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { nameProblem, useDeleteVariable, useSaveVariable, useVariables, type Variable } from './api'

/** The repository's variables with their values (they are plain), to add, edit (rename included) and delete. */
export function VariableSettings({ repo }: { repo: Repository }) {
  const { t } = useTranslation('actions')
  const id = useId()
  const o = repo.owner.login
  const variables = useVariables(o, repo.name)
  const save = useSaveVariable(o, repo.name)
  const remove = useDeleteVariable(o, repo.name)
  const [editing, setEditing] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [value, setValue] = useState('')
  const [tried, setTried] = useState(false)
  const problem = nameProblem(name.trim())
  const reset = () => {
    setEditing(null)
    setName('')
    setValue('')
    setTried(false)
  }
  const edit = (v: Variable) => {
    setEditing(v.name)
    setName(v.name)
    setValue(v.data)
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (problem) return
    save.mutate({ editing, name: name.trim(), value }, { onSuccess: reset })
  }
  return (
    <section className="action-settings-part" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('variables.heading')}</h3>
      <p className="muted">{t('variables.help')}</p>
      <QueryState query={variables}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message={t('variables.empty')} />
          ) : (
            <ul className="plain-list action-names" aria-label={t('variables.heading')}>
              {list.map((v) => (
                <li key={v.name}>
                  <code>{v.name}</code> <span className="action-variable-value">{v.data}</span>
                  <span className="button-row">
                    <Button size="sm" variant="ghost" aria-label={t('variables.editNamed', { name: v.name })} onClick={() => edit(v)}>
                      {t('variables.edit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={remove.isPending}
                      aria-label={t('variables.deleteNamed', { name: v.name })}
                      onClick={() => {
                        if (window.confirm(t('variables.confirmDelete', { name: v.name }))) remove.mutate(v.name)
                      }}
                    >
                      {t('variables.delete')}
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <form className="action-form" onSubmit={submit} aria-label={editing ? t('variables.editForm', { name: editing }) : t('variables.addForm')}>
        <Field label={t('variables.name')} error={tried && problem ? t(`name.${problem}`) : undefined}>
          <Input value={name} autoComplete="off" spellCheck={false} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('variables.value')}>
          <Textarea rows={2} value={value} onChange={(e) => setValue(e.target.value)} />
        </Field>
        <div className="button-row">
          <Button type="submit" size="sm" disabled={save.isPending}>
            {save.isPending ? t('variables.saving') : editing ? t('variables.saveEdit') : t('variables.add')}
          </Button>
          {editing && (
            <Button size="sm" variant="ghost" onClick={reset}>
              {t('variables.cancelEdit')}
            </Button>
          )}
        </div>
      </form>
      {(save.isError || remove.isError) && (
        <p role="alert" className="field-error">
          {errorText(save.error ?? remove.error)}
        </p>
      )}
    </section>
  )
}
