import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { Tabs } from '@/components/Tabs'
import { AccountName } from '@/features/governance'
import { useChainFormat } from '@/lib/chain/format'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { type Period, PERIODS, type Rank, useLeaderboard } from './api'
// The tabular figures the chain pages share.
import '@/components/data.css'
import './rewards.css'

const COLUMNS = ['rank', 'contributor', 'earned', 'contributions', 'reputation'] as const
const NUMERIC = new Set<string>(['rank', 'earned', 'contributions', 'reputation'])

/** Contributors ranked by the rewards they earned in a period. */
export default function LeaderboardScreen() {
  const { t } = useTranslation('rewards')
  useDocumentTitle(t('leaderboard.title'))
  const [param, setParam] = useUrlParam('period', 'week')
  const period: Period = (PERIODS as readonly string[]).includes(param) ? (param as Period) : 'week'
  const ranks = useLeaderboard(period)
  return (
    <div>
      <PageHeader title={t('leaderboard.title')} lead={t('leaderboard.lead')} />
      <Tabs label={t('leaderboard.periodLabel')} tabs={PERIODS.map((id) => ({ id, label: t(`leaderboard.period.${id}`) }))} selected={period} onSelect={setParam}>
        <QueryState query={ranks}>{(rows) => <RankTable period={period} rows={rows} stale={ranks.isPlaceholderData} />}</QueryState>
      </Tabs>
      <p className="muted">{t('leaderboard.how')}</p>
    </div>
  )
}

function RankTable({ period, rows, stale }: { period: Period; rows: Rank[]; stale: boolean }) {
  const { t } = useTranslation('rewards')
  return (
    <div className="leaderboard-table" aria-busy={stale || undefined}>
      <table className="data">
        <caption>{t(`leaderboard.caption.${period}`)}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col" className={NUMERIC.has(c) ? 'num' : undefined}>
                {t(`leaderboard.columns.${c}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows.length === 0 ? <EmptyRow /> : rows.map((r) => <RankRow key={r.address} rank={r} />)}</tbody>
      </table>
    </div>
  )
}

function EmptyRow() {
  const { t } = useTranslation('rewards')
  return (
    <tr>
      <td colSpan={COLUMNS.length}>
        <EmptyState message={t('leaderboard.empty')} />
      </td>
    </tr>
  )
}

function RankRow({ rank: r }: { rank: Rank }) {
  const fmt = useChainFormat()
  return (
    <tr>
      <td className="num">{fmt.count(r.rank)}</td>
      <td>
        <AccountName address={r.address} name={r.name} />
      </td>
      <td className="num">{fmt.amount(r.earned)}</td>
      <td className="num">{fmt.count(r.contributions)}</td>
      <td className="num">{fmt.count(r.reputation)}</td>
    </tr>
  )
}
