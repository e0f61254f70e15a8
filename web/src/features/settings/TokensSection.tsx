import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import {
  type AccessToken,
  type NewAccessToken,
  SCOPE_CATEGORIES,
  type ScopeCategory,
  type ScopeLevel,
  useCreateToken,
  useRevokeToken,
  useTokens,
} from './api'
import { CopyButton, ErrorAlert, Section, useFormatDate } from './Section'

type Levels = Partial<Record<ScopeCategory, ScopeLevel>>

/** The scopes a form's levels ask for, as Gitea names them. */
const scopesOf = (levels: Levels) => SCOPE_CATEGORIES.flatMap((c) => (levels[c] ? [`${levels[c]}:${c}`] : []))

/** Personal access tokens: create (the token is shown once), list, revoke. */
export function TokensSection({ username }: { username: string }) {
  const { t } = useTranslation('settings')
  const [created, setCreated] = useState<NewAccessToken | null>(null)
  return (
    <Section title={t('security.tokens.title')}>
      <p className="muted">{t('security.tokens.description')}</p>
      {created ? <NewToken token={created} onDone={() => setCreated(null)} /> : <CreateForm username={username} onCreated={setCreated} />}
      <TokenList username={username} />
    </Section>
  )
}

function CreateForm({ username, onCreated }: { username: string; onCreated: (t: NewAccessToken) => void }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const [name, setName] = useState('')
  const [levels, setLevels] = useState<Levels>({ repository: 'read' })
  const scopes = scopesOf(levels)
  const [tried, setTried] = useState(false)
  const create = useCreateToken(username, onCreated)
  const nameMissing = !name.trim()
  const scopeMissing = scopes.length === 0
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (!nameMissing && !scopeMissing) create.mutate({ name: name.trim(), scopes })
  }
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('security.tokens.new')}</h3>
      <Field label={t('security.tokens.name')} hint={t('security.tokens.nameHint')} error={tried && nameMissing ? t('security.tokens.nameRequired') : undefined}>
        <Input
          id={`${id}-name`}
          name="name"
          value={name}
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <fieldset className="settings-checks" aria-describedby={tried && scopeMissing ? `${id}-scope-error` : undefined}>
        <legend>{t('security.tokens.scopes')}</legend>
        <p className="muted">{t('security.tokens.scopesHint')}</p>
        {SCOPE_CATEGORIES.map((category) => (
          <div key={category} className="settings-scope-row">
            <label htmlFor={`${id}-scope-${category}`}>{t(`security.tokens.category.${category}`)}</label>
            <Select
              id={`${id}-scope-${category}`}
              name={category}
              value={levels[category] ?? ''}
              onChange={(e) => {
                const value = e.target.value
                setLevels((l) => ({ ...l, [category]: value === 'read' || value === 'write' ? value : undefined }))
              }}
            >
              <option value="">{t('security.tokens.level.none')}</option>
              <option value="read">{t('security.tokens.level.read')}</option>
              <option value="write">{t('security.tokens.level.write')}</option>
            </Select>
          </div>
        ))}
        {tried && scopeMissing && (
          <span id={`${id}-scope-error`} className="field-error">
            {t('security.tokens.scopeRequired')}
          </span>
        )}
      </fieldset>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? t('saving') : t('security.tokens.create')}
      </Button>
      {create.isError && <ErrorAlert error={create.error} />}
    </form>
  )
}

function NewToken({ token, onDone }: { token: NewAccessToken; onDone: () => void }) {
  const { t } = useTranslation('settings')
  const id = useId()
  return (
    <div className="settings-secret" role="region" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('security.tokens.created', { name: token.name })}</h3>
      <p role="alert">
        <strong>{t('security.tokens.warning')}</strong>
      </p>
      <p className="settings-copy-row">
        <code aria-label={t('security.tokens.token')}>{token.sha1}</code>
        <CopyButton text={token.sha1} />
      </p>
      <Button size="sm" onClick={onDone}>
        {t('security.tokens.done')}
      </Button>
    </div>
  )
}

function TokenList({ username }: { username: string }) {
  const { t } = useTranslation('settings')
  const query = useTokens(username)
  return (
    <>
      <h3>{t('security.tokens.listTitle')}</h3>
      <QueryState query={query}>
        {(tokens) =>
          tokens.length === 0 ? (
            <EmptyState message={t('security.tokens.empty')} />
          ) : (
            <ul className="settings-list" aria-label={t('security.tokens.listTitle')}>
              {tokens.map((token) => (
                <TokenRow key={token.id} username={username} token={token} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </>
  )
}

function TokenRow({ username, token }: { username: string; token: AccessToken }) {
  const { t } = useTranslation('settings')
  const formatDate = useFormatDate()
  const [confirming, setConfirming] = useState(false)
  const revoke = useRevokeToken(username, token.id)
  return (
    <li className="settings-list-item">
      <div>
        <strong>{token.name}</strong> <code>…{token.token_last_eight}</code>
        <div className="muted">
          {t('security.tokens.meta', { scopes: token.scopes.join(', '), date: formatDate(token.created_at) })}
        </div>
      </div>
      {confirming ? (
        <div className="settings-confirm" role="group" aria-label={t('security.tokens.confirmLabel', { name: token.name })}>
          <span>{t('security.tokens.confirm', { name: token.name })}</span>
          <Button size="sm" variant="danger" autoFocus onClick={() => revoke.mutate()} disabled={revoke.isPending}>
            {t('security.tokens.confirmRevoke')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setConfirming(false)} disabled={revoke.isPending}>
            {t('cancel')}
          </Button>
        </div>
      ) : (
        <Button size="sm" variant="outline" aria-label={t('security.tokens.revokeNamed', { name: token.name })} onClick={() => setConfirming(true)}>
          {t('security.tokens.revoke')}
        </Button>
      )}
      {revoke.isError && <ErrorAlert error={revoke.error} />}
    </li>
  )
}
