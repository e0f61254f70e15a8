import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { canMaintain, isOwner, type Permission, PERMISSIONS, type Repository, useCollaborators } from '@/lib/forge/api'
import { nav } from '@/lib/forge/nav'
import { useDeleteRepo, useEditRepo, usePutCollaborator, useRemoveCollaborator } from './api'
import { RepoPage } from './RepoLayout'
import { BranchProtectionSettings } from './BranchProtectionSettings'
import { errorText } from '@/lib/http'
import { LabelSettings } from '@/features/labels'
import { TransferRepository } from '@/features/orgs'
import { ActionsSettings } from '@/features/actions'

/** A repository's settings: description, labels, collaborators (owner) and deletion (owner, confirmed by typing the name). */
export default function RepoSettingsScreen() {
  const { t } = useTranslation('repositories')
  const user = useSignedInUser()
  return (
    <RepoPage section="settings">
      {(repo) =>
        !user ? (
          <SignInNotice message={t('settings.signIn')} />
        ) : isOwner(repo, user.username) || canMaintain(repo) ? (
          <Settings repo={repo} owner={isOwner(repo, user.username)} />
        ) : (
          <EmptyState message={t('settings.forbidden')} />
        )
      }
    </RepoPage>
  )
}

function Settings({ repo, owner }: { repo: Repository; owner: boolean }) {
  const { t } = useTranslation('repositories')
  useDocumentTitle(t('settings.title', { repo: repo.full_name }))
  return (
    <div className="stack narrow">
      <PageHeader title={t('settings.heading')} />
      <GeneralSettings repo={repo} />
      <Card as="section">
        <h2>{t('settings.webhooks.title')}</h2>
        <p className="muted">{t('settings.webhooks.help')}</p>
        <PreloadLink to={`/${encodeURIComponent(repo.owner.login)}/${encodeURIComponent(repo.name)}/settings/hooks`}>{t('settings.webhooks.manage')}</PreloadLink>
      </Card>
      <LabelSettings repo={repo} />
      {owner && <Collaborators repo={repo} />}
      {owner && <TransferRepository repo={repo} />}
      {owner && <BranchProtectionSettings repo={repo} />}
      {owner && <ActionsSettings repo={repo} />}
      {owner && <DeleteRepository repo={repo} />}
    </div>
  )
}

function GeneralSettings({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const id = useId()
  const { t: tw } = useTranslation('website')
  const [description, setDescription] = useState(repo.description)
  const [website, setWebsite] = useState(repo.website ?? '')
  const save = useEditRepo(repo.owner.login, repo.name)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate({ description: description.trim(), website: website.trim() })
  }
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('settings.general')}</h2>
      <form onSubmit={submit}>
        <Field label={t('create.description')}>
          <Input id={`${id}-d`} value={description} maxLength={2048} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field label={tw('label')} hint={tw('help')}>
          <Input
            id={`${id}-w`}
            type="url"
            inputMode="url"
            placeholder="https://"
            value={website}
            maxLength={255}
            onChange={(e) => setWebsite(e.target.value)}
          />
        </Field>
        {save.isError && (
          <p className="alert-error" role="alert">
            {errorText(save.error)}
          </p>
        )}
        {save.isSuccess && (
          <p className="alert-success" role="status">
            {t('settings.saved')}
          </p>
        )}
        <Button type="submit" disabled={save.isPending}>
          {t('settings.save')}
        </Button>
      </form>
    </Card>
  )
}

function Collaborators({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const id = useId()
  const o = repo.owner.login
  const list = useCollaborators(o, repo.name)
  const [login, setLogin] = useState('')
  const [permission, setPermission] = useState<Permission>('write')
  const add = usePutCollaborator(o, repo.name, () => setLogin(''))
  const remove = useRemoveCollaborator(o, repo.name)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (login.trim()) add.mutate({ login: login.trim(), permission })
  }
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('settings.collaborators.title')}</h2>
      <p className="muted">{t('settings.collaborators.help')}</p>
      <QueryState query={list}>
        {(users) =>
          users.length === 0 ? (
            <p className="muted">{t('settings.collaborators.empty')}</p>
          ) : (
            <ul className="plain-list collaborator-list">
              {users.map((u) => (
                <li key={u.login}>
                  <PreloadLink to={`/user/${encodeURIComponent(u.login)}`}>{u.login}</PreloadLink>
                  <Button size="sm" variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate(u.login)} aria-label={t('settings.collaborators.removeNamed', { login: u.login })}>
                    {t('settings.collaborators.remove')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <form onSubmit={submit} className="collaborator-form">
        <Field label={t('settings.collaborators.username')}>
          <Input id={`${id}-u`} value={login} autoComplete="off" onChange={(e) => setLogin(e.target.value)} />
        </Field>
        <Field label={t('settings.collaborators.permission')}>
          <Select id={`${id}-p`} value={permission} onChange={(e) => setPermission(e.target.value as Permission)}>
            {PERMISSIONS.map((p) => (
              <option key={p} value={p}>
                {t(`settings.collaborators.perm.${p}`)}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" disabled={add.isPending || !login.trim()}>
          {t('settings.collaborators.add')}
        </Button>
      </form>
      {(add.isError || remove.isError) && (
        <p className="alert-error" role="alert">
          {errorText(add.error ?? remove.error)}
        </p>
      )}
    </Card>
  )
}

function DeleteRepository({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const id = useId()
  const [typed, setTyped] = useState('')
  const del = useDeleteRepo(repo.owner.login, repo.name, () => nav.go('/explore'))
  const confirmed = typed === repo.name
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (confirmed) del.mutate()
  }
  return (
    <Card as="section" aria-labelledby={`${id}-h`} className="danger-zone">
      <h2 id={`${id}-h`}>{t('settings.delete.title')}</h2>
      <p>{t('settings.delete.warning')}</p>
      <form onSubmit={submit}>
        <Field label={t('settings.delete.confirm', { name: repo.name })}>
          <Input id={`${id}-c`} value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
        </Field>
        {del.isError && (
          <p className="alert-error" role="alert">
            {errorText(del.error)}
          </p>
        )}
        <Button type="submit" variant="danger" disabled={!confirmed || del.isPending}>
          {t('settings.delete.submit')}
        </Button>
      </form>
    </Card>
  )
}
