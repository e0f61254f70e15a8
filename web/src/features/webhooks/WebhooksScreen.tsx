import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { RepoPage } from '@/features/repositories'
import { canMaintain, isOwner, type Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Hook, useHookActions, useHooks } from './api'
import { DeliveryLog } from './DeliveryLog'
import { HookForm } from './HookForm'
import './webhooks.css'

/** A repository's webhooks (settings → webhooks): its administrators list, add, edit, test and delete them and read their delivery logs. */
export default function WebhooksScreen() {
  const { t } = useTranslation('webhooks')
  const user = useSignedInUser()
  return (
    <RepoPage section="settings">
      {(repo) =>
        !user ? (
          <SignInNotice message={t('signIn')} />
        ) : isOwner(repo, user.username) || canMaintain(repo) ? (
          <Webhooks repo={repo} />
        ) : (
          <EmptyState message={t('forbidden')} />
        )
      }
    </RepoPage>
  )
}

/** What the page shows beside the list: nothing, the new-hook form, or one hook's form or log. */
type Panel = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; hook: Hook } | { kind: 'log'; hook: Hook }

function Webhooks({ repo }: { repo: Repository }) {
  const { t } = useTranslation('webhooks')
  useDocumentTitle(t('title', { repo: repo.full_name }))
  const owner = repo.owner.login
  const hooks = useHooks(owner, repo.name)
  const actions = useHookActions(owner, repo.name)
  const [panel, setPanel] = useState<Panel>({ kind: 'none' })
  const [tested, setTested] = useState<number | null>(null)
  const close = () => setPanel({ kind: 'none' })
  const failure = actions.remove.error ?? actions.test.error
  return (
    <div className="stack narrow webhooks">
      <PageHeader
        title={t('heading')}
        actions={
          <Button onClick={() => setPanel({ kind: 'new' })} disabled={panel.kind === 'new'}>
            {t('add')}
          </Button>
        }
      />
      <p className="muted">{t('intro')}</p>
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
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={actions.test.isPending}
                        onClick={() => actions.test.mutate(h.id, { onSuccess: () => setTested(h.id) })}
                      >
                        {t('list.test')}
                      </Button>
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
      {panel.kind === 'log' && <DeliveryLog key={panel.hook.id} owner={owner} repo={repo.name} hook={panel.hook} onClose={close} />}
    </div>
  )
}
