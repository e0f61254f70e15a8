import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { Tabs } from '@/components/Tabs'
import { repoHref } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { useRoute } from '@/lib/routes'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Org, PAGE_SIZE, useMyTeams, useOrg, useOrgMembers, useOrgRepos, useRemoveOrgMember } from './api'
import { OrgSettings } from './OrgSettings'
import { TeamsPanel } from './TeamsPanel'
import './orgs.css'

type Tab = 'repos' | 'members' | 'teams' | 'settings'

/** /org/:name: an organization's repositories, members and teams; its owners manage the teams here. */
export default function OrgScreen() {
  const name = useRoute().params.name ?? ''
  const org = useOrg(name)
  const { t } = useTranslation('orgs')
  useDocumentTitle(org.data ? org.data.full_name || org.data.username : t('org.title'))
  return <QueryState query={org}>{(o) => <OrgPage org={o} />}</QueryState>
}

/** Whether the signed-in user is in the organization's Owners team. */
function useIsOwner(org: Org): boolean {
  const user = useSignedInUser()
  const teams = useMyTeams(Boolean(user))
  return Boolean(teams.data?.items.some((team) => team.organization?.id === org.id && team.permission === 'owner'))
}

function OrgPage({ org }: { org: Org }) {
  const { t } = useTranslation('orgs')
  const [tab, setTab] = useState<Tab>('repos')
  const owner = useIsOwner(org)
  const tabs: { id: Tab; label: string }[] = [
    { id: 'repos', label: t('org.tabs.repos') },
    { id: 'members', label: t('org.tabs.members') },
    { id: 'teams', label: t('org.tabs.teams') },
  ]
  if (owner) tabs.push({ id: 'settings', label: t('org.tabs.settings') })
  return (
    <div className="stack">
      <PageHeader title={org.full_name || org.username} lead={org.description || undefined} />
      <p className="org-meta muted">
        <span>@{org.username}</span>
        {org.location && <span>{org.location}</span>}
        {org.website && (
          <a href={org.website} rel="nofollow noopener noreferrer" target="_blank">
            {org.website}
          </a>
        )}
        {owner && <span>{t('org.youOwn')}</span>}
      </p>
      <Tabs label={t('org.tabs.label')} tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'repos' && <Repos org={org} />}
        {tab === 'members' && <Members org={org} owner={owner} />}
        {tab === 'teams' && <TeamsPanel org={org} owner={owner} />}
        {tab === 'settings' && owner && <OrgSettings org={org} />}
      </Tabs>
    </div>
  )
}

function Repos({ org }: { org: Org }) {
  const { t } = useTranslation('orgs')
  const [page, setPage] = useState(1)
  const query = useOrgRepos(org.username, page)
  return (
    <Card as="section" aria-label={t('org.tabs.repos')}>
      <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('org.tabs.repos')} empty={t('org.reposEmpty')}>
        {(repos) => (
          <ul className="plain-list org-list">
            {repos.map((r) => (
              <li key={r.id}>
                <PreloadLink to={repoHref.home(r.owner.login, r.name)} className="org-name">
                  {r.name}
                </PreloadLink>
                {r.description && <p className="muted org-description">{r.description}</p>}
              </li>
            ))}
          </ul>
        )}
      </Paged>
    </Card>
  )
}

function Members({ org, owner }: { org: Org; owner: boolean }) {
  const { t } = useTranslation('orgs')
  const me = useSignedInUser()
  const [page, setPage] = useState(1)
  const query = useOrgMembers(org.username, page)
  const remove = useRemoveOrgMember(org.username)
  return (
    <Card as="section" aria-label={t('org.tabs.members')}>
      <Paged query={query} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('org.tabs.members')} empty={t('org.membersEmpty')}>
        {(users) => (
          <ul className="plain-list org-list">
            {users.map((u) => (
              <li key={u.login} className="org-member-row">
                <PreloadLink to={`/user/${encodeURIComponent(u.login)}`}>{u.login}</PreloadLink>
                {(owner || u.login === me?.username) && (
                  <Button size="sm" variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate(u.login)} aria-label={t('org.removeMemberNamed', { login: u.login })}>
                    {u.login === me?.username ? t('org.leave') : t('org.removeMember')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Paged>
      {remove.isError && (
        <p className="alert-error" role="alert">
          {errorText(remove.error)}
        </p>
      )}
    </Card>
  )
}
