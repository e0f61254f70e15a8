import type { UseQueryResult } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { ProgressBar } from '@/components/ProgressBar'
import { Spinner } from '@/components/Spinner'
import { type RegisteredNode, useNodes } from '@/lib/nodes'
import { type Repository, repoHref } from '@/lib/forge/api'
import { originOf, type ReplicaState, useReplication } from './replication'

type NodeStatus = 'checking' | 'holds' | 'behind' | 'replicating' | 'failed' | 'notSeeding' | 'unreachable'

/** What a node's answer (or its silence) means for the reader. */
function statusOf(query: UseQueryResult<ReplicaState | null>): NodeStatus {
  if (query.isPending) return 'checking'
  if (query.isError) return 'unreachable'
  const s = query.data
  switch (s?.state) {
    case 'ready':
      return s.matches_chain ? 'holds' : 'behind'
    case 'replicating':
      return 'replicating'
    case 'failed':
      return 'failed'
    default: // not_seeded, or a node that does not know the repository (404)
      return 'notSeeding'
  }
}

/** host[:port] of a node's URL, for display. */
function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/**
 * Which nodes hold a public repository: this node and every node of the
 * chain's registry, each asked directly (GET .../replication) and shown as
 * holding it, replicating it (n of m refs), not seeding it or unreachable.
 */
export function NodesPanel({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  return (
    <Card as="section" aria-labelledby="repo-nodes" className="repo-nodes">
      <h2 id="repo-nodes">{t('nodes.title')}</h2>
      {repo.private ? <p className="muted">{t('nodes.private')}</p> : <NodeList repo={repo} />}
    </Card>
  )
}

function NodeList({ repo }: { repo: Repository }) {
  const { t } = useTranslation('repositories')
  const owner = repo.owner.login
  const registry = useNodes()
  const own = useReplication(owner, repo.name)
  const here = window.location.origin
  const ownOperator = own.data?.node.operator.toLowerCase()
  const isSelf = (n: RegisteredNode) => originOf(n.url) === here || (!!ownOperator && n.operator.toLowerCase() === ownOperator)
  const nodes = registry.data ?? []
  const self = nodes.find(isSelf)
  const others = nodes.filter((n) => !isSelf(n))
  return (
    <>
      <ul className="plain-list node-list" aria-labelledby="repo-nodes">
        <NodeRow url={self?.url ?? own.data?.node.url ?? here} self query={own} repo={repo} />
        {others.map((n) => (
          <RemoteNode key={n.operator} node={n} repo={repo} />
        ))}
      </ul>
      {registry.isPending && (
        <p className="inline-loading" role="status">
          <Spinner size="sm" /> <span>{t('nodes.loadingRegistry')}</span>
        </p>
      )}
      {registry.isError && (
        <div className="inline-error" role="alert">
          <p>{t('nodes.registryFailed')}</p>
          <Button size="sm" variant="outline" onClick={() => registry.refetch()}>
            {t('nodes.retry')}
          </Button>
        </div>
      )}
    </>
  )
}

function RemoteNode({ node, repo }: { node: RegisteredNode; repo: Repository }) {
  const origin = originOf(node.url)
  const query = useReplication(repo.owner.login, repo.name, origin || node.url)
  return <NodeRow url={node.url} query={query} repo={repo} />
}

function NodeRow({ url, self = false, query, repo }: { url: string; self?: boolean; query: UseQueryResult<ReplicaState | null>; repo: Repository }) {
  const { t } = useTranslation('repositories')
  const host = hostOf(url)
  const status = statusOf(query)
  const data = query.data
  const done = data?.refs_done ?? 0
  const total = data?.refs_total ?? 0
  const progress = t('nodes.refs', { done, total, count: total })
  // Another node's copy opens there; this node's is this page.
  const link = !self && (status === 'holds' || status === 'behind') ? `${originOf(url) || url}${repoHref.home(repo.owner.login, repo.name)}` : null
  return (
    <li className="node-row" data-status={status}>
      <div className="node-row-head">
        <span className="node-name mono">
          {link ? (
            <a href={link} rel="noopener noreferrer">
              {host}
            </a>
          ) : (
            host
          )}
        </span>
        {self && <span className="badge">{t('nodes.thisNode')}</span>}
      </div>
      <div className={`node-status node-status-${status}`}>
        {status === 'checking' && <Spinner size="sm" />}
        <span title={status === 'failed' ? data?.error : status === 'unreachable' ? query.error?.message : undefined}>
          {status === 'replicating' && total > 0 ? t('nodes.status.replicatingRefs', { progress }) : t(`nodes.status.${status}`)}
        </span>
      </div>
      {status === 'replicating' && <ProgressBar value={done} max={total} label={t('nodes.progressLabel', { node: host })} valueText={total > 0 ? progress : undefined} />}
    </li>
  )
}
