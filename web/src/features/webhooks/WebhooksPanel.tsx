import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { errorText } from '@/lib/http'
import { type Hook, type HookScope, useHookActions, useHooks } from './api'
import { DeliveryLog } from './DeliveryLog'
import { HookForm } from './HookForm'
import './webhooks.css'

/** What the page shows beside the list: nothing, the new-hook form, or one hook's form or log. */
type Panel = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; hook: Hook } | { kind: 'log'; hook: Hook }

/**
 * A scope's webhooks: list, add, edit, test (a repository's) and delete
 * them, and read their delivery logs. Embedded in another page (an
 * organization's settings) its heading is a section's, not the page's.
 */
export function WebhooksPanel({ scope, intro, embedded = false }: { scope: HookScope; intro: string; embedded?: boolean }) {
  const { t } = useTranslation('webhooks')
  const hooks = useHooks(scope)
  const actions = useHookActions(scope)
  const [panel, setPanel] = useState<Panel>({ kind: 'none' })
  const [tested, setTested] = useState<number | null>(null)
  const close = () => setPanel({ kind: 'none' })
  const failure = actions.remove.error ?? actions.test.error
  const add = (
    <Button onClick={() => setPanel({ kind: 'new' })} disabled={panel.kind === 'new'}>
      {t('add')}
    </Button>
  )
  return (
    <div className="stack narrow webhooks">
      {embedded ? (
        <div className="webhook-log-head">
          <h2>{t('heading')}</h2>
          {add}
        </div>
      ) : (
        <PageHeader title={t('heading')} actions={add} />
      )}
      <p className="muted">{intro}</p>
      {panel.kind === 'new' && (
        <HookForm
          title={t('form.newTitle')}
          pending={actions.create.isPending}
          error={actions.create.error}
          onCancel={close}
          onSubmit={(s) => actions.create.mutate(s, { onSuccess: close })}
        />
      )}
      <Card as="section" aria-labelledby="webhooks-list-h">
        <h2 id="webhooks-list-h">{t('list.title')}</h2>
        <QueryState query={hooks}>
          {(list) =>
            list.length === 0 ? (
              <p className="muted">{t('list.empty')}</p>
            ) : (
              <ul className="plain-list webhook-list">
                {list.map((h) => (
                  <li key={h.id}>
                    <div className="webhook-summary">
                      <span className={h.active ? 'badge badge-ok' : 'badge'}>{h.active ? t('list.active') : t('list.inactive')}</span>
                      <code className="webhook-url">{h.config.url}</code>
                      <span className="muted">{t('list.events', { events: h.events.map((e) => t(`events.${e}`, { defaultValue: e })).join(', ') })}</span>
                    </div>
                    <div className="webhook-actions">
                      <Button size="sm" variant="outline" onClick={() => setPanel({ kind: 'edit', hook: h })}>
                        {t('list.edit')}
                      </Button>
                      <Button size="sm" variant="outline" onClick={() => setPanel({ kind: 'log', hook: h })}>
                        {t('list.deliveries')}
                      </Button>
                      {scope.testable && (
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={actions.test.isPending}
                          onClick={() => actions.test.mutate(h.id, { onSuccess: () => setTested(h.id) })}
                        >
                          {t('list.test')}
                        </Button>
                      )}
                      <Button
                        size="sm"
                        variant="danger"
                        disabled={actions.remove.isPending}
                        aria-label={t('list.deleteNamed', { url: h.config.url })}
                        onClick={() => {
                          if (window.confirm(t('list.confirmDelete', { url: h.config.url }))) actions.remove.mutate(h.id, { onSuccess: close })
                        }}
                      >
                        {t('list.delete')}
                      </Button>
                    </div>
                    {tested === h.id && (
                      <p className="alert-success" role="status">
                        {t('list.tested')}
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
        {failure && (
          <p className="alert-error" role="alert">
            {errorText(failure)}
          </p>
        )}
      </Card>
      {panel.kind === 'edit' && (
        <HookForm
          key={panel.hook.id}
          title={t('form.editTitle')}
          hook={panel.hook}
          pending={actions.edit.isPending}
          error={actions.edit.error}
          onCancel={close}
          onSubmit={(s) => actions.edit.mutate({ id: panel.hook.id, s }, { onSuccess: close })}
        />
      )}
      {panel.kind === 'log' && <DeliveryLog key={panel.hook.id} scope={scope} hook={panel.hook} onClose={close} />}
    </div>
  )
}
