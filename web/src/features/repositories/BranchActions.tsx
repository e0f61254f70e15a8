import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { type Branch, type Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { useCreateBranch, useDeleteBranch, useRenameBranch } from './api'
import './branches.css'

/** Creates a branch from another one (people who may push). */
export function NewBranchForm({ repo, branches }: { repo: Repository; branches: Branch[] }) {
  const { t } = useTranslation('branches')
  const id = useId()
  const [name, setName] = useState('')
  const [from, setFrom] = useState(repo.default_branch)
  const create = useCreateBranch(repo.owner.login, repo.name, () => setName(''))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (name.trim()) create.mutate({ name: name.trim(), from })
  }
  return (
    <Card as="section" aria-label={t('create.heading')}>
      <form onSubmit={submit} className="branch-form">
        <Field label={t('create.name')}>
          <Input id={`${id}-n`} value={name} maxLength={255} autoComplete="off" onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('create.from')}>
          <Select id={`${id}-f`} value={from} onChange={(e) => setFrom(e.target.value)}>
            {branches.map((b) => (
              <option key={b.name} value={b.name}>
                {b.name}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" disabled={!name.trim() || create.isPending}>
          {create.isPending ? t('create.creating') : t('create.submit')}
        </Button>
      </form>
      {create.isError && (
        <p className="alert-error" role="alert">
          {errorText(create.error)}
        </p>
      )}
    </Card>
  )
}

/** Rename and delete (with confirmation) for a branch that is neither the default nor protected. */
export function BranchRowActions({ repo, branch }: { repo: Repository; branch: Branch }) {
  const { t } = useTranslation('branches')
  const id = useId()
  const [mode, setMode] = useState<'idle' | 'rename' | 'delete'>('idle')
  const [name, setName] = useState(branch.name)
  const done = () => setMode('idle')
  const rename = useRenameBranch(repo.owner.login, repo.name, branch.name, done)
  const del = useDeleteBranch(repo.owner.login, repo.name, branch.name, done)
  const error = rename.error ?? del.error
  if (branch.name === repo.default_branch || branch.protected) return null
  return (
    <div className="branch-actions">
      {mode === 'idle' && (
        <>
          <Button size="sm" variant="ghost" onClick={() => setMode('rename')}>
            {t('rename.open')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setMode('delete')}>
            {t('delete.open')}
          </Button>
        </>
      )}
      {mode === 'rename' && (
        <form
          className="branch-inline"
          onSubmit={(e) => {
            e.preventDefault()
            if (name.trim() && name.trim() !== branch.name) rename.mutate(name.trim())
          }}
        >
          <Input id={`${id}-r`} aria-label={t('rename.label', { branch: branch.name })} value={name} maxLength={255} autoFocus onChange={(e) => setName(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && setMode('idle')} />
          <Button size="sm" type="submit" disabled={rename.isPending}>
            {t('rename.submit')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setMode('idle')}>
            {t('cancel')}
          </Button>
        </form>
      )}
      {mode === 'delete' && (
        <span className="branch-inline" role="group" aria-label={t('delete.confirm', { branch: branch.name })}>
          <span>{t('delete.confirm', { branch: branch.name })}</span>
          <Button size="sm" variant="danger" disabled={del.isPending} onClick={() => del.mutate()}>
            {t('delete.submit')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setMode('idle')}>
            {t('cancel')}
          </Button>
        </span>
      )}
      {error && (
        <p className="alert-error" role="alert">
          {errorText(error)}
        </p>
      )}
    </div>
  )
}
