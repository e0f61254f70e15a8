import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { EmptyState } from '@/components/EmptyState'
import { QueryState } from '@/components/QueryState'
import { shortAddress } from '@/lib/chain/address'
import { type Delegation, useDelegations } from '@/lib/chain/delegation'
import type { TxStep } from '@/lib/chain/tx'
import { useRevokeDelegation } from './api'
import { ErrorAlert, Section, useFormatDate } from './Section'

/**
 * The nodes the user allowed to post in their name (their on-chain
 * delegations), like a forge's "Authorized applications": which node, for
 * what, since and until which block, and a Revoke that the user's own
 * wallet signs (an Undelegate transaction).
 */
export function AuthorizedNodesTab({ walletAddress }: { walletAddress?: string }) {
  const { t } = useTranslation('settings')
  const query = useDelegations()
  return (
    <Section title={t('nodes.title')}>
      <p className="muted">{t('nodes.description')}</p>
      <QueryState query={query}>
        {(delegations) =>
          delegations.length === 0 ? (
            <EmptyState message={t('nodes.empty')} />
          ) : (
            <ul className="settings-list" aria-label={t('nodes.listLabel')}>
              {delegations.map((d) => (
                <DelegationRow key={d.delegate} delegation={d} walletAddress={walletAddress} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </Section>
  )
}

function DelegationRow({ delegation: d, walletAddress }: { delegation: Delegation; walletAddress?: string }) {
  const { t } = useTranslation('settings')
  const formatDate = useFormatDate()
  const [confirming, setConfirming] = useState(false)
  const [step, setStep] = useState<TxStep | null>(null)
  const name = d.node?.url || shortAddress(d.delegate)
  const revoke = useRevokeDelegation(walletAddress, d, setStep, () => setConfirming(false))
  const scopes = d.scopes.map((s) => t(`nodes.scopeNames.${s}`, { defaultValue: s })).join(', ')
  return (
    <li className="settings-list-item">
      <div>
        <strong title={d.delegate}>{name}</strong> {d.thisNode && <span className="badge">{t('nodes.thisNode')}</span>}{' '}
        <span className={`badge ${d.live ? 'delegation-live' : 'delegation-expired'}`}>{d.live ? t('nodes.live') : t('nodes.expired')}</span>
        {d.node?.url && <div className="muted mono">{d.delegate}</div>}
        <div className="muted">{t('nodes.scopes', { scopes })}</div>
        <div className="muted">
          {t('nodes.period', { since: d.since, date: d.sinceTime ? formatDate(d.sinceTime) : '—', expiry: d.expiry })}
        </div>
      </div>
      {!walletAddress ? (
        <span className="muted">{t('nodes.noWallet')}</span>
      ) : confirming ? (
        <div className="settings-confirm" role="group" aria-label={t('nodes.confirmLabel', { name })}>
          <span>{t('nodes.confirm', { name })}</span>
          <Button size="sm" variant="danger" autoFocus onClick={() => revoke.mutate()} disabled={revoke.isPending}>
            {step ? t(`nodes.steps.${step}`) : t('nodes.confirmRevoke')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setConfirming(false)} disabled={revoke.isPending}>
            {t('cancel')}
          </Button>
        </div>
      ) : (
        <Button size="sm" variant="outline" aria-label={t('nodes.revokeNamed', { name })} onClick={() => setConfirming(true)}>
          {t('nodes.revoke')}
        </Button>
      )}
      {revoke.isError && <ErrorAlert error={revoke.error} />}
    </li>
  )
}
