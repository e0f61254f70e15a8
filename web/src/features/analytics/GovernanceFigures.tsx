import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { PROPOSAL_STATUSES } from '@/features/governance'
import { type Micro, toBigInt } from '@/lib/chain/amount'
import { useChainFormat } from '@/lib/chain/format'
import { type GovernanceFigures as Figures, useGovernanceFigures } from './api'

/** How many epochs the bar list shows, the latest ones. */
const EPOCHS = 12

/** Proposals by status and the rewards minted per epoch, as a bar list (no chart library). */
export function GovernanceFigures() {
  const { t } = useTranslation('analytics')
  const figures = useGovernanceFigures()
  return (
    <Card as="section" aria-labelledby="governance-title" className="governance-figures">
      <h2 id="governance-title">{t('governance.title')}</h2>
      {figures.isPending ? (
        // Placeholders of the same size while loading, so the page below does not move.
        <div aria-busy="true">
          <Proposals />
          <RewardsPerEpoch />
        </div>
      ) : (
        <QueryState query={figures}>
          {(f) => (
            <>
              <Proposals figures={f} />
              <RewardsPerEpoch epochs={f.rewards_per_epoch ?? []} />
            </>
          )}
        </QueryState>
      )}
    </Card>
  )
}

function Proposals({ figures }: { figures?: Figures }) {
  const { t } = useTranslation('analytics')
  const fmt = useChainFormat()
  return (
    <>
      <h3>{t('governance.proposals')}</h3>
      <dl className="amount-list">
        {PROPOSAL_STATUSES.map((status) => (
          <div key={status}>
            <dt>
              <PreloadLink to={`/governance?status=${status}`}>{t(`governance.status.${status}`)}</PreloadLink>
            </dt>
            <dd className="num" data-testid={figures ? `proposals-${status}` : undefined}>
              {figures ? fmt.count(figures.proposals?.[status] ?? 0) : <span className="figure-placeholder" aria-hidden="true" />}
            </dd>
          </div>
        ))}
      </dl>
    </>
  )
}

/** The bar list; without epochs (loading) an empty-state-sized placeholder. */
function RewardsPerEpoch({ epochs }: { epochs?: { epoch: number; minted: Micro }[] }) {
  const { t } = useTranslation('analytics')
  const fmt = useChainFormat()
  const shown = [...(epochs ?? [])].sort((a, b) => a.epoch - b.epoch).slice(-EPOCHS)
  const max = shown.reduce((m, e) => (toBigInt(e.minted) > m ? toBigInt(e.minted) : m), 0n)
  return (
    <>
      <h3>{t('governance.rewardsPerEpoch')}</h3>
      {!epochs ? (
        <div className="empty-state figure-block-placeholder" aria-hidden="true" />
      ) : shown.length === 0 ? (
        <EmptyState message={t('governance.noRewards')} />
      ) : (
        <div className="table-scroll">
          <table className="data epoch-bars">
            <caption className="sr-only">{t('governance.rewardsPerEpoch')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('governance.epoch')}</th>
                <th scope="col" className="num">
                  {t('governance.minted')}
                </th>
                <th scope="col" className="epoch-bar-cell">
                  <span className="sr-only">{t('governance.share')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={e.epoch} data-testid={`epoch-${e.epoch}`}>
                  <td>{fmt.count(e.epoch)}</td>
                  <td className="num">{fmt.amount(e.minted)}</td>
                  <td className="epoch-bar-cell" aria-hidden="true">
                    <span className="epoch-bar" style={{ width: `${max === 0n ? 0 : Number((toBigInt(e.minted) * 10_000n) / max) / 100}%` }} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">{t('governance.note')}</p>
    </>
  )
}
