import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { Tabs } from '@/components/Tabs'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import './rewards.css'

const PERIODS = ['week', 'month', 'all'] as const
type Period = (typeof PERIODS)[number]
const COLUMNS = ['rank', 'contributor', 'score', 'commits', 'pullRequests', 'issues', 'reviews'] as const

/**
 * Contributors ranked per period. Scores come from rewarded contributions,
 * which start with the governance milestone, so no one is ranked yet.
 */
export default function LeaderboardScreen() {
  const { t } = useTranslation('rewards')
  useDocumentTitle(t('leaderboard.title'))
  const [period, setPeriod] = useState<Period>('week')
  return (
    <div>
      <PageHeader title={t('leaderboard.title')} lead={t('leaderboard.lead')} />
      <Tabs label={t('leaderboard.periodLabel')} tabs={PERIODS.map((id) => ({ id, label: t(`leaderboard.period.${id}`) }))} selected={period} onSelect={setPeriod}>
        <div className="leaderboard-table">
          <table className="data">
            <caption>{t(`leaderboard.caption.${period}`)}</caption>
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c} scope="col">
                    {t(`leaderboard.columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <td colSpan={COLUMNS.length}>
                  <EmptyState message={t('leaderboard.empty')} />
                </td>
              </tr>
            </tbody>
          </table>
        </div>
      </Tabs>
      <p className="muted">{t('leaderboard.availability')}</p>
    </div>
  )
}
