import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { Input } from '@/components/Input'
import { Select } from '@/components/Select'
import { Field } from '@/components/Field'
import { repoHref } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import {
  type Org,
  PAGE_SIZE,
  type Team,
  TEAM_PERMISSIONS,
  useAddTeamMember,
  useAddTeamRepo,
  useCreateTeam,
  useDeleteTeam,
  useOrgTeams,
  useRemoveTeamMember,
  useRemoveTeamRepo,
  useTeamMembers,
  useTeamRepos,
} from './api'

/** An organization's teams, each with its members and repositories; owners create, change and delete them. */
export function TeamsPanel({ org, owner }: { org: Org; owner: boolean }) {
  const { t } = useTranslation('orgs')
  const [page, setPage] = useState(1)
  const query = useOrgTeams(org.username, page)
  return (
    <div className="stack">
      <Card as="section" aria-label={t('org.tabs.teams')}>
        <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('org.tabs.teams')} empty={t('teams.empty')}>
          {(teams) => (
            <ul className="plain-list team-list">
              {teams.map((team) => (
                <TeamRow key={team.id} org={org} team={team} owner={owner} />
              ))}
            </ul>
          )}
        </Paged>
      </Card>
      {owner && <NewTeamForm org={org} />}
    </div>
  )
}

function TeamRow({ org, team, owner }: { org: Org; team: Team; owner: boolean }) {
  const { t } = useTranslation('orgs')
  const [open, setOpen] = useState(false)
  const panel = useId()
  const del = useDeleteTeam(team.id)
  return (
    <li>
      <div className="org-member-row">
        <div>
          <strong>{team.name}</strong> <span className="muted">{t(`perm.${team.permission}`)}</span>
          {team.description && <p className="muted org-description">{team.description}</p>}
        </div>
        <div>
          <Button size="sm" variant="outline" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
            {open ? t('teams.hide') : t('teams.show')}
          </Button>
          {owner && team.permission !== 'owner' && (
            <Button size="sm" variant="danger" disabled={del.isPending} onClick={() => del.mutate()} aria-label={t('teams.deleteNamed', { name: team.name })}>
              {t('teams.delete')}
            </Button>
          )}
        </div>
      </div>
      {del.isError && (
        <p className="alert-error" role="alert">
          {errorText(del.error)}
        </p>
      )}
      {open && (
        <div id={panel} className="stack">
          <TeamMembers org={org} team={team} owner={owner} />
          <TeamRepos org={org} team={team} owner={owner} />
        </div>
      )}
    </li>
  )
}

function TeamMembers({ org, team, owner }: { org: Org; team: Team; owner: boolean }) {
  const { t } = useTranslation('orgs')
  const id = useId()
  const query = useTeamMembers(org.username, team.id)
  const [login, setLogin] = useState('')
  const add = useAddTeamMember(team.id, () => setLogin(''))
  const remove = useRemoveTeamMember(team.id)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (login.trim()) add.mutate(login.trim())
  }
  return (
    <section aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('teams.members')}</h3>
      <QueryState query={query}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="muted">{t('teams.membersEmpty')}</p>
          ) : (
            <ul className="plain-list">
              {page.items.map((u) => (
                <li key={u.login} className="org-member-row">
                  <PreloadLink to={`/user/${encodeURIComponent(u.login)}`}>{u.login}</PreloadLink>
                  {owner && (
                    <Button size="sm" variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate(u.login)} aria-label={t('teams.removeMemberNamed', { login: u.login })}>
                      {t('teams.remove')}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {owner && (
        <form onSubmit={submit} className="org-inline-form">
          <Field label={t('teams.username')}>
            <Input id={`${id}-u`} value={login} autoComplete="off" onChange={(e) => setLogin(e.target.value)} />
          </Field>
          <Button type="submit" size="sm" disabled={add.isPending || !login.trim()}>
            {t('teams.addMember')}
          </Button>
        </form>
      )}
      {(add.isError || remove.isError) && (
        <p className="alert-error" role="alert">
          {errorText(add.error ?? remove.error)}
        </p>
      )}
    </section>
  )
}

function TeamRepos({ org, team, owner }: { org: Org; team: Team; owner: boolean }) {
  const { t } = useTranslation('orgs')
  const id = useId()
  const query = useTeamRepos(org.username, team.id)
  const [repo, setRepo] = useState('')
  const add = useAddTeamRepo(team.id, org.username, () => setRepo(''))
  const remove = useRemoveTeamRepo(team.id, org.username)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (repo.trim()) add.mutate(repo.trim())
  }
  const manageable = owner && !team.includes_all_repositories
  return (
    <section aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('teams.repos')}</h3>
      {team.includes_all_repositories && <p className="muted">{t('teams.allRepos')}</p>}
      <QueryState query={query}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="muted">{t('teams.reposEmpty')}</p>
          ) : (
            <ul className="plain-list">
              {page.items.map((r) => (
                <li key={r.id} className="org-member-row">
                  <PreloadLink to={repoHref.home(r.owner.login, r.name)}>{r.name}</PreloadLink>
                  {manageable && (
                    <Button size="sm" variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate(r.name)} aria-label={t('teams.removeRepoNamed', { name: r.name })}>
                      {t('teams.remove')}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {manageable && (
        <form onSubmit={submit} className="org-inline-form">
          <Field label={t('teams.repoName')}>
            <Input id={`${id}-r`} value={repo} autoComplete="off" onChange={(e) => setRepo(e.target.value)} />
          </Field>
          <Button type="submit" size="sm" disabled={add.isPending || !repo.trim()}>
            {t('teams.addRepo')}
          </Button>
        </form>
      )}
      {(add.isError || remove.isError) && (
        <p className="alert-error" role="alert">
          {errorText(add.error ?? remove.error)}
        </p>
      )}
    </section>
  )
}

function NewTeamForm({ org }: { org: Org }) {
  const { t } = useTranslation('orgs')
  const id = useId()
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [permission, setPermission] = useState<(typeof TEAM_PERMISSIONS)[number]>('write')
  const [canCreate, setCanCreate] = useState(false)
  const [allRepos, setAllRepos] = useState(false)
  const create = useCreateTeam(org.username, () => {
    setName('')
    setDescription('')
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (name.trim()) create.mutate({ name: name.trim(), description: description.trim(), permission, can_create_org_repo: canCreate, includes_all_repositories: allRepos })
  }
  return (
    <Card as="section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('teams.newTitle')}</h2>
      <form onSubmit={submit} aria-labelledby={`${id}-h`}>
        <Field label={t('teams.name')} hint={t('teams.nameHelp')}>
          <Input id={`${id}-n`} value={name} maxLength={255} autoComplete="off" required onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('teams.description')}>
          <Input id={`${id}-d`} value={description} maxLength={255} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <Field label={t('teams.permission')}>
          <Select id={`${id}-p`} value={permission} onChange={(e) => setPermission(e.target.value as (typeof TEAM_PERMISSIONS)[number])}>
            {TEAM_PERMISSIONS.map((p) => (
              <option key={p} value={p}>
                {t(`perm.${p}`)}
              </option>
            ))}
          </Select>
        </Field>
        <div className="field checkbox-field">
          <label>
            <Input type="checkbox" checked={allRepos} onChange={(e) => setAllRepos(e.target.checked)} /> {t('teams.includesAll')}
          </label>
        </div>
        <div className="field checkbox-field">
          <label>
            <Input type="checkbox" checked={canCreate} onChange={(e) => setCanCreate(e.target.checked)} /> {t('teams.canCreate')}
          </label>
        </div>
        {create.isError && (
          <p className="alert-error" role="alert">
            {errorText(create.error)}
          </p>
        )}
        <Button type="submit" disabled={create.isPending || !name.trim()}>
          {create.isPending ? t('teams.creating') : t('teams.create')}
        </Button>
      </form>
    </Card>
  )
}
