import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import { useGovFormat } from '@/features/governance'
import { useReputation } from '@/features/rewards'
import { useChainFormat } from '@/lib/chain/format'

const SCORES = ['total', 'commit', 'pr', 'issue', 'review'] as const

/**
 * A user's contribution scores (counted from rewarded contributions), their
 * reputation and the multiplier it gives their rewards and votes. No
 * invented zeros: someone the chain has not rewarded yet gets an empty state.
 */
export function ContributionScores({ address }: { address: string }) {
  const { t } = useTranslation('users')
  const headingId = useId()
  const reputation = useReputation(address || undefined)
  return (
    <Card as="section" className="profile-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('contributions.title')}</h2>
      {address ? (
        <QueryState query={reputation}>{(r) => (r && r.scores.total > 0 ? <Figures reputation={r} /> : <EmptyState message={t('contributions.empty')} />)}</QueryState>
      ) : (
        <EmptyState message={t('contributions.empty')} />
      )}
      <p className="muted">{t('contributions.note')}</p>
    </Card>
  )
}

function Figures({ reputation: r }: { reputation: NonNullable<ReturnType<typeof useReputation>['data']> }) {
  const { t } = useTranslation('users')
  const fmt = useChainFormat()
  const gf = useGovFormat()
  return (
    <>
      <dl className="score-list">
        {SCORES.map((key) => (
          <div key={key}>
            <dt>{t(`contributions.scores.${key}`)}</dt>
            <dd data-testid={`score-${key}`}>{fmt.count(r.scores[key])}</dd>
          </div>
        ))}
      </dl>
      <dl className="profile-details reputation-details">
        <dt>{t('contributions.reputation')}</dt>
        <dd data-testid="score-reputation">{fmt.count(r.reputation)}</dd>
        <dt>{t('contributions.multiplier')}</dt>
        <dd data-testid="score-multiplier">{gf.multiplier(r.multiplier_bps)}</dd>
        <dt>{t('contributions.earned')}</dt>
        <dd data-testid="score-earned">{fmt.amount(r.earned)}</dd>
      </dl>
    </>
  )
}
