import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import { type RegisteredNode, useNodes } from '@/lib/nodes'

/** The node registry: each operator's node with its public URL and its IPFS (libp2p) peer id and addresses. */
export function NodesSection() {
  const { t } = useTranslation('explorer')
  const nodes = useNodes()
  return (
    <section aria-labelledby="node-registry" className="stack">
      <h2 id="node-registry">{t('nodes.heading')}</h2>
      <p>{t('nodes.lead')}</p>
      <QueryState query={nodes}>
        {(list) => (list.length === 0 ? <EmptyState message={t('nodes.empty')} /> : <NodeTable nodes={list} />)}
      </QueryState>
    </section>
  )
}

function NodeTable({ nodes }: { nodes: RegisteredNode[] }) {
  const { t } = useTranslation('explorer')
  return (
    <div className="table-scroll">
      <table className="data chain-table">
        <caption className="sr-only">{t('nodes.heading')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('nodes.url')}</th>
            <th scope="col">{t('nodes.operator')}</th>
            <th scope="col">{t('nodes.peerId')}</th>
            <th scope="col">{t('nodes.addrs')}</th>
            <th scope="col" className="num">
              {t('nodes.height')}
            </th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => (
            <tr key={n.operator}>
              <td>
                <a href={n.url} rel="noopener noreferrer">
                  {n.url}
                </a>
              </td>
              <td className="mono">{n.operator}</td>
              <td className="mono">{n.peer_id}</td>
              <td className="mono">{n.addrs.length === 0 ? t('nodes.noAddrs') : n.addrs.map((a) => <div key={a}>{a}</div>)}</td>
              <td className="num">{n.height === 0 ? t('nodes.genesis') : n.height}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
