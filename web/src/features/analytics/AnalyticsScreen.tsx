import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type MetricName, useWebVitals } from './api'
import { ChainFigures } from './ChainFigures'
import { GovernanceFigures } from './GovernanceFigures'
import './analytics.css'

/** The spec's thresholds (good up to, poor above); times in ms, CLS unitless. */
export const THRESHOLDS: Record<MetricName, [number, number]> = {
  CLS: [0.1, 0.25],
  LCP: [2500, 4000],
  INP: [200, 500],
  FCP: [1800, 3000],
  TTFB: [800, 1800],
}

export function formatMetric(metric: MetricName, value: number, locale?: string): string {
  if (metric === 'CLS') return value.toLocaleString(locale, { maximumFractionDigits: 3 })
  return `${Math.round(value).toLocaleString(locale)} ms`
}

export default function AnalyticsScreen() {
  const { t, i18n } = useTranslation('analytics')
  const vitals = useWebVitals()
  useDocumentTitle(t('title'))
  const locale = i18n.resolvedLanguage
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead', { days: vitals.data?.windowDays ?? 28 })} />
      {/* The chain's figures have a fixed shape and come first; the vitals
          table grows with the pages measured, so it is last and moves nothing. */}
      <ChainFigures />
      <GovernanceFigures />
      <Card as="section" aria-labelledby="vitals-title">
        <h2 id="vitals-title">{t('vitals.title')}</h2>
        {vitals.isPending ? (
          <div className="empty-state figure-block-placeholder" aria-busy="true" />
        ) : (
          <QueryState query={vitals}>
            {({ metrics }) =>
              metrics.length === 0 ? (
                <EmptyState message={t('vitals.empty')} />
              ) : (
                <div className="table-scroll">
                  <table className="data">
                    <thead>
                      <tr>
                        <th scope="col">{t('vitals.metric')}</th>
                        <th scope="col">{t('vitals.page')}</th>
                        <th scope="col">{t('vitals.p75')}</th>
                        <th scope="col">{t('vitals.samples')}</th>
                        <th scope="col">{t('vitals.rating')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {metrics.map((m) => (
                        <tr key={`${m.metric} ${m.page}`}>
                          <td>
                            <abbr title={t(`metrics.${m.metric}`)}>{m.metric}</abbr>
                            <div className="muted small">
                              {t('vitals.thresholds', {
                                good: formatMetric(m.metric, THRESHOLDS[m.metric][0], locale),
                                poor: formatMetric(m.metric, THRESHOLDS[m.metric][1], locale),
                              })}
                            </div>
                          </td>
                          <td>
                            <code>{m.page}</code>
                          </td>
                          <td>{formatMetric(m.metric, m.p75, locale)}</td>
                          <td>{m.count.toLocaleString(locale)}</td>
                          <td>
                            <span className={`badge rating-${m.rating}`}>{t(`ratings.${m.rating}`)}</span>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )
            }
          </QueryState>
        )}
      </Card>
    </div>
  )
}
