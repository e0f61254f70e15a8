import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { ProgressBar } from '@/components/ProgressBar'
import { type Repository, repoKeys } from '@/lib/forge/api'
import { useReplication } from './replication'

/** Whether this node has the repository's record but is still copying its git data. */
export function isReplicating(repo: Repository): boolean {
  return repo.has_git_data === false && !!repo.replication && repo.replication.state !== 'ready'
}

/**
 * Stands in for the code of a repository whose git data is on its way to
 * this node: "Replicating… n of m refs" with a progress bar, asked again
 * every 2 s; once this node answers ready, the repository's pages load
 * again.
 */
export function Replicating({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const owner = repo.owner.login
  const own = useReplication(owner, repo.name, undefined, { untilReady: true })
  const client = useQueryClient()
  const state = own.data?.state
  // Ready: the repository (has_git_data) and its code load again.
  useEffect(() => {
    if (state === 'ready') void client.invalidateQueries({ queryKey: repoKeys.repo(owner, repo.name) })
  }, [client, owner, repo.name, state])
  const done = own.data?.refs_done ?? repo.replication?.done ?? 0
  const total = own.data?.refs_total ?? repo.replication?.total ?? 0
  const failed = state === 'failed' ? (own.data?.error ?? '') : repo.replication?.state === 'failed' && !own.data ? (repo.replication.error ?? '') : null
  const progress = total > 0 ? t('replicating.progress', { done, total, count: total }) : t('replicating.starting')
  return (
    <Card as="section" className="replicating stack" aria-labelledby="repo-replicating">
      <h2 id="repo-replicating">{t('replicating.title')}</h2>
      <p>{t('replicating.text')}</p>
      <ProgressBar value={done} max={total} label={t('replicating.label')} valueText={progress} />
      <p role="status" className="muted">
        {state === 'ready' ? t('replicating.ready') : progress}
      </p>
      {failed !== null && (
        <p className="field-error">{failed ? t('replicating.failed', { error: failed }) : t('replicating.failedNoReason')}</p>
      )}
      <p className="muted">{t('replicating.otherNodes')}</p>
    </Card>
  )
}

/** For a repository this node neither holds nor seeds: where to find it instead of a missing page. */
export function NotOnThisNode() {
  const { t } = useTranslation('repositories')
  return (
    <Card as="section" className="stack" aria-labelledby="repo-not-here">
      <h2 id="repo-not-here">{t('replicating.notHereTitle')}</h2>
      <p>{t('replicating.notHere')}</p>
    </Card>
  )
}
