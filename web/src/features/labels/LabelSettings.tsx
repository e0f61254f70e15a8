import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { QueryState } from '@/components/QueryState'
import { SignerBadge } from '@/components/SignerBadge'
import { Input } from '@/components/Input'
import { Field } from '@/components/Field'
import type { Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { type Label, normalizeColor, textOn, useDeleteLabel, useLabels, useSaveLabel } from './api'
import './labels.css'

/** A repository's labels in its settings: list, create, edit (name, colour, description, exclusive) and delete. */
export function LabelSettings({ repo }: { repo: Repository }) {
  const { t } = useTranslation('labels')
  const id = useId()
  const owner = repo.owner.login
  const labels = useLabels(owner, repo.name)
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('title')}</h2>
      <p className="muted">{t('help')}</p>
      <QueryState query={labels}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">{t('empty')}</p>
          ) : (
            <ul className="plain-list label-list" aria-label={t('title')}>
              {list.map((l) =>
                editing === l.id ? (
                  <li key={l.id}>
                    <LabelForm repo={repo} label={l} onDone={() => setEditing(null)} />
                  </li>
                ) : (
                  <LabelRow key={l.id} repo={repo} label={l} onEdit={() => setEditing(l.id)} />
                ),
              )}
            </ul>
          )
        }
      </QueryState>
      {editing === 'new' ? (
        <LabelForm repo={repo} onDone={() => setEditing(null)} />
      ) : (
        <Button variant="outline" onClick={() => setEditing('new')}>
          {t('new')}
        </Button>
      )}
    </Card>
  )
}

export function LabelChip({ label }: { label: Pick<Label, 'name' | 'color'> }) {
  const color = `#${label.color.replace('#', '')}`
  return (
    <span className="label-chip" style={{ background: color, color: textOn(color) }}>
      {label.name}
    </span>
  )
}

function LabelRow({ repo, label, onEdit }: { repo: Repository; label: Label; onEdit: () => void }) {
  const { t } = useTranslation('labels')
  const [confirming, setConfirming] = useState(false)
  const remove = useDeleteLabel(repo.owner.login, repo.name, label.id)
  return (
    <li className="label-row">
      <LabelChip label={label} />
      {label.exclusive && <span className="badge">{t('exclusiveBadge')}</span>}
      <span className="muted label-description">
        {label.description}
        <SignerBadge signer={label.signer} delegation={label.delegation} />
      </span>
      <span className="button-row">
        <Button size="sm" variant="ghost" onClick={onEdit} aria-label={t('editNamed', { name: label.name })}>
          {t('edit')}
        </Button>
        {confirming ? (
          <>
            <Button size="sm" variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {t('confirmDelete', { name: label.name })}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
          </>
        ) : (
          <Button size="sm" variant="ghost" onClick={() => setConfirming(true)} aria-label={t('deleteNamed', { name: label.name })}>
            {t('delete')}
          </Button>
        )}
      </span>
      {remove.isError && (
        <p className="alert-error" role="alert">
          {errorText(remove.error)}
        </p>
      )}
    </li>
  )
}

const DEFAULT_COLOR = '#0075ca'

/** Creates a label, or edits label: only what changed is sent. */
function LabelForm({ repo, label, onDone }: { repo: Repository; label?: Label; onDone: () => void }) {
  const { t } = useTranslation('labels')
  const id = useId()
  const [name, setName] = useState(label?.name ?? '')
  const [color, setColor] = useState(label ? `#${label.color}` : DEFAULT_COLOR)
  const [description, setDescription] = useState(label?.description ?? '')
  const [exclusive, setExclusive] = useState(label?.exclusive ?? false)
  const hex = normalizeColor(color)
  const problem = !name.trim() ? t('errors.name') : name.length > 50 ? t('errors.nameLong') : !hex ? t('errors.color') : description.length > 255 ? t('errors.description') : null
  const save = useSaveLabel(repo.owner.login, repo.name, label, onDone)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!problem) save.mutate({ name: name.trim(), color: hex ?? '', description: description.trim(), exclusive })
  }
  return (
    <form className="label-form stack" onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && onDone()} aria-label={label ? t('editNamed', { name: label.name }) : t('new')}>
      <div className="label-form-fields">
        <Field label={t('name')}>
          <Input id={`${id}-n`} value={name} maxLength={50} autoFocus autoComplete="off" onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('color')} row="label-color" before={<Input type="color" aria-label={t('colorPicker')} value={hex ?? DEFAULT_COLOR} onChange={(e) => setColor(e.target.value)} />}>
          <Input id={`${id}-c`} value={color} maxLength={7} autoComplete="off" onChange={(e) => setColor(e.target.value)} />
        </Field>
        <Field label={t('description')}>
          <Input id={`${id}-d`} value={description} maxLength={255} autoComplete="off" onChange={(e) => setDescription(e.target.value)} />
        </Field>
      </div>
      <label className="checkbox">
        <Input type="checkbox" checked={exclusive} onChange={(e) => setExclusive(e.target.checked)} /> {t('exclusive')}
      </label>
      <p className="muted">{t('exclusiveHelp')}</p>
      <p>
        {t('preview')} <LabelChip label={{ name: name.trim() || t('name'), color: hex ?? DEFAULT_COLOR }} />
      </p>
      {(problem || save.isError) && (
        <p className="alert-error" role="alert">
          {save.isError ? errorText(save.error) : problem}
        </p>
      )}
      <div className="button-row">
        <Button type="submit" size="sm" disabled={Boolean(problem) || save.isPending}>
          {label ? t('save') : t('create')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  )
}
