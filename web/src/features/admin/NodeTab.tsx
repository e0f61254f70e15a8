import { useTranslation } from 'react-i18next'
import { QueryState } from '@/components/QueryState'
import { EmptyState } from '@/components/EmptyState'
import { useNodeHealth, type NodeHealth, type Peer } from './api'

/** The node's health: chain and peers, the projection's lag, replication and disk; refreshed every 15 s. */
export function NodeTab() {
  const query = useNodeHealth()
  return (
    <QueryState query={query}>
      {(h) => (
        <div className="stack">
          <Health h={h} />
          {h.chain?.peer_list && <Peers peers={h.chain.peer_list} />}
        </div>
      )}
    </QueryState>
  )
}

/** The connected peers, the longest connected first. */
function Peers({ peers }: { peers: Peer[] }) {
  const { t } = useTranslation('admin')
  const duration = (s: number) => (s < 3600 ? t('node.minutes', { count: Math.floor(s / 60) }) : t('node.hours', { count: Math.floor(s / 3600) }))
  return (
    <section className="stack">
      <h2>{t('node.peerList')}</h2>
      {peers.length === 0 ? (
        <EmptyState message={t('node.noPeers')} />
      ) : (
        <table className="data admin-table" aria-label={t('node.peerList')}>
          <thead>
            <tr>
              <th scope="col">{t('node.peerName')}</th>
              <th scope="col">{t('node.peerAddress')}</th>
              <th scope="col">{t('node.peerDirection')}</th>
              <th scope="col">{t('node.peerSince')}</th>
            </tr>
          </thead>
          <tbody>
            {peers.map((p) => (
              <tr key={p.id}>
                <td>{p.moniker || <code>{p.id.slice(0, 12)}</code>}</td>
                <td>
                  <code>{p.address}</code>
                </td>
                <td>{p.outbound ? t('node.outbound') : t('node.inbound')}</td>
                <td>{duration(p.connected_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function Health({ h }: { h: NodeHealth }) {
  const { t, i18n } = useTranslation('admin')
  const num = (n: number) => n.toLocaleString(i18n.language)
  const bytes = (n: number) => t('node.gib', { value: (n / 2 ** 30).toLocaleString(i18n.language, { maximumFractionDigits: 1 }) })
  const rows: [string, string][] = [[t('node.version'), h.version]]
  if (h.chain) {
    rows.push([t('node.height'), num(h.chain.height)], [t('node.peers'), num(h.chain.peers)])
    if (h.chain.making_blocks !== undefined) {
      rows.push([t('node.makingBlocks'), h.chain.making_blocks ? t('node.yes') : t('node.notMaking', { reason: h.chain.stall ?? '' })])
    }
    if (h.chain.latest_block_time) rows.push([t('node.latestBlock'), new Date(h.chain.latest_block_time).toLocaleString(i18n.language)])
    rows.push([t('node.syncing'), h.chain.catching_up ? t('node.yes') : t('node.no')])
    if (h.chain.error) rows.push([t('node.chainError'), h.chain.error])
  } else {
    rows.push([t('node.height'), t('node.noChain')])
  }
  if (h.index) {
    rows.push([t('node.indexed'), num(h.index.height)], [t('node.lag'), t('node.blocks', { count: h.index.lag })])
    if (h.index.stalled) rows.push([t('node.stalled'), t('node.stuckAt', { height: h.index.stuck_at ?? 0, error: h.index.error ?? '' })])
  }
  const r = h.replication
  rows.push([
    t('node.replication'),
    r.enabled ? t('node.replicas', { repos: r.repos, ready: r.ready, replicating: r.replicating, failed: r.failed, queued: r.queued }) : t('node.noReplication'),
  ])
  if (h.disk) {
    rows.push([t('node.disk'), t('node.diskValue', { free: bytes(h.disk.free_bytes), total: bytes(h.disk.total_bytes), path: h.disk.path })])
  }
  return (
    <dl className="admin-facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  )
}
