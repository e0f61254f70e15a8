import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { errorText } from '@/lib/http'
import { DELIVERIES_LIMIT, type Delivery, type Hook, type HookScope, useDeliveries, useHookActions } from './api'

/** A hook's delivery log, newest first: each request and answer, and a redelivery. */
export function DeliveryLog({ scope, hook, onClose }: { scope: HookScope; hook: Hook; onClose: () => void }) {
  const { t } = useTranslation('webhooks')
  const [page, setPage] = useState(1)
  const query = useDeliveries(scope, hook.id, page)
  const { redeliver } = useHookActions(scope)
  return (
    <Card as="section" aria-labelledby="webhook-log-h">
      <div className="webhook-log-head">
        <h2 id="webhook-log-h">{t('log.title', { url: hook.config.url })}</h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          {t('log.close')}
        </Button>
      </div>
      <Paged query={query} page={page} onPage={setPage} limit={DELIVERIES_LIMIT} label={t('log.label')} empty={t('log.empty')}>
        {(items) => (
          <ul className="plain-list webhook-deliveries">
            {items.map((d) => (
              <DeliveryItem key={d.id} d={d} pending={redeliver.isPending} onRedeliver={() => redeliver.mutate({ hook: hook.id, delivery: d.id })} />
            ))}
          </ul>
        )}
      </Paged>
      {redeliver.isError && (
        <p className="alert-error" role="alert">
          {errorText(redeliver.error)}
        </p>
      )}
    </Card>
  )
}

function DeliveryItem({ d, pending, onRedeliver }: { d: Delivery; pending: boolean; onRedeliver: () => void }) {
  const { t } = useTranslation('webhooks')
  const badge = d.state === 'delivered' ? 'badge badge-ok' : d.state === 'failed' ? 'badge badge-failed' : 'badge'
  return (
    <li>
      <details>
        <summary>
          <span className={badge}>{t(`log.state.${d.state}`)}</span> <code>{d.event_type}</code> <span className="muted">{d.uuid}</span>{' '}
          <span className="muted">{t('log.when', { when: new Date(d.created_at).toLocaleString(), ms: d.duration_ms, attempts: d.attempts })}</span>
        </summary>
        {d.error && <p className="alert-error">{d.error}</p>}
        {d.next_attempt_at && <p className="muted">{t('log.next', { when: new Date(d.next_attempt_at).toLocaleString() })}</p>}
        <h3>{t('log.request')}</h3>
        <pre className="webhook-pre">{headerText(d.request.headers)}</pre>
        <pre className="webhook-pre">{d.request.body || t('log.notRendered')}</pre>
        <h3>{t('log.response')}</h3>
        {d.response ? (
          <>
            <p>{t('log.status', { status: d.response.status })}</p>
            <pre className="webhook-pre">{headerText(d.response.headers)}</pre>
            <pre className="webhook-pre">{d.response.body}</pre>
          </>
        ) : (
          <p className="muted">{t('log.noResponse')}</p>
        )}
        <Button size="sm" variant="outline" disabled={pending || d.state === 'pending'} onClick={onRedeliver}>
          {t('log.redeliver')}
        </Button>
      </details>
    </li>
  )
}

function headerText(h: Record<string, string>): string {
  return Object.keys(h)
    .sort()
    .map((k) => `${k}: ${h[k]}`)
    .join('\n')
}
