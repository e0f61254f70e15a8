import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { NoDescription } from '@/components/EmptyStates'
import { Paged } from '@/components/Lists'
import { PreloadLink } from '@/components/PreloadLink'
import { Tabs } from '@/components/Tabs'
import { type Repository, repoHref, useRepoSearch } from '@/lib/forge/api'
import { useForgeFormat } from '@/lib/forge/format'

const PAGE_SIZE = 10
const KINDS = ['all', 'source', 'fork'] as const
type Kind = (typeof KINDS)[number]

/** A user's repositories on their profile: all, their own sources, or their forks (each marked, with what it forks). */
export function UserRepositories({ login }: { login: string }) {
  const { t } = useTranslation('people')
  const headingId = useId()
  const [kind, setKind] = useState<Kind>('all')
  const [page, setPage] = useState(1)
  const repos = useRepoSearch('', 'updated', page, PAGE_SIZE, { owner: login, mode: kind === 'all' ? undefined : kind })
  return (
    <Card as="section" className="profile-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('repositories.title')}</h2>
      <Tabs
        label={t('repositories.filter')}
        tabs={KINDS.map((id) => ({ id, label: t(`repositories.kind.${id}`) }))}
        selected={kind}
        onSelect={(id) => {
          setKind(id as Kind)
          setPage(1)
        }}
      >
        <Paged query={repos} page={page} onPage={setPage} limit={PAGE_SIZE} label={t('repositories.title')} empty={t(`repositories.empty.${kind}`)}>
          {(list) => <RepoRows repos={list} />}
        </Paged>
      </Tabs>
    </Card>
  )
}

function RepoRows({ repos }: { repos: Repository[] }) {
  const { t } = useTranslation('people')
  const fmt = useForgeFormat()
  return (
    <ul className="plain-list profile-repos">
      {repos.map((r) => (
        <li key={r.id}>
          <PreloadLink to={repoHref.home(r.owner.login, r.name)}>{r.name}</PreloadLink> {r.fork && <span className="badge">{t('repositories.forkBadge')}</span>}{' '}
          {r.private && <span className="badge">{t('repositories.privateBadge')}</span>}
          {r.fork && r.parent && (
            <span className="muted">
              {' '}
              {t('repositories.forkOf')} <PreloadLink to={repoHref.home(r.parent.owner.login, r.parent.name)}>{r.parent.full_name}</PreloadLink>
            </span>
          )}
          {r.description ? <p className="muted">{r.description}</p> : <NoDescription />}
          <p className="muted repo-stats">
            <span>{t('repositories.stars', { count: r.stars_count, n: fmt.count(r.stars_count) })}</span>{' '}
            <span title={r.updated_at}>{t('repositories.updated', { when: fmt.ago(r.updated_at) })}</span>
          </p>
        </li>
      ))}
    </ul>
  )
}
