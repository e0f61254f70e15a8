import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { Spinner } from '@/components/Spinner'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useHealth } from './api'
import './analytics.css'

export default function StatusScreen() {
  const { t, i18n } = useTranslation('analytics')
  const health = useHealth()
  useDocumentTitle(t('status.title'))
  const node = health.isError ? 'unreachable' : health.data?.status === 'ok' ? 'operational' : 'degraded'
  const rows: [string, string][] = [
    [t('status.node'), t(`status.${node}`)],
    [t('status.database'), health.data?.database === 'ok' ? t('status.operational') : t('status.unreachable')],
    [t('status.version'), health.data?.version ?? '-'],
  ]
  return (
    <div className="stack">
      <PageHeader
        title={t('status.title')}
        lead={t('status.lead')}
        actions={
          <Button variant="outline" onClick={() => void health.refetch()} disabled={health.isFetching}>
            {t('status.refresh')}
          </Button>
        }
      />
      <Card as="section" aria-live="polite">
        {health.isPending ? (
          <Spinner />
        ) : (
          <>
            <p className={`status-banner status-${node}`}>{t(`status.${node}`)}</p>
            <dl className="status-list">
              {rows.map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            <p className="muted">{t('status.checked', { time: new Date(health.dataUpdatedAt || Date.now()).toLocaleTimeString(i18n.resolvedLanguage) })}</p>
          </>
        )}
      </Card>
      <p className="muted">{t('status.endpoints')}</p>
    </div>
  )
}
