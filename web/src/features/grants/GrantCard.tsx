import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PreloadLink } from '@/components/PreloadLink'
import { ProgressBar } from '@/components/ProgressBar'
import { TxStatus } from '@/components/TxStatus'
import { shortAddress } from '@/lib/chain/address'
import { toBigInt } from '@/lib/chain/amount'
import { useChainParams } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { useChainTx } from '@/lib/chain/tx'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Grant, grantHref, type GrantMilestone, type GrantStatus, type Person } from './api'

export function GrantStatusBadge({ status }: { status: GrantStatus }) {
  const { t } = useTranslation('grants')
  return <span className={`badge grant-status grant-status-${status}`}>{t(`status.${status}`)}</span>
}

/** An account by its username when it has one (linking to the user's page), else by its short address. */
export function PersonName({ person }: { person: Person }) {
  if (person.username) return <PreloadLink to={`/user/${encodeURIComponent(person.username)}`}>{person.username}</PreloadLink>
  return (
    <span className="mono" title={person.address}>
      {shortAddress(person.address)}
    </span>
  )
}

/** Released of total, in thousandths, computed in integers so large totals keep their precision. */
function releasedShare(g: Grant): number {
  const total = toBigInt(g.total)
  return total === 0n ? 0 : Number((toBigInt(g.released) * 1000n) / total)
}

/** A grant with its milestones: progress, amounts, recipients and approvals; a reviewer may approve here. */
export function GrantCard({ grant: g, heading = 'h3' }: { grant: Grant; heading?: 'h2' | 'h3' }) {
  const { t } = useTranslation('grants')
  const fmt = useChainFormat()
  const headingId = useId()
  const Heading = heading
  return (
    <Card as="article" className="grant-card" aria-labelledby={headingId}>
      <div className="grant-card-head">
        <GrantStatusBadge status={g.status} />
        <span className="muted">{t('card.number', { id: g.id })}</span>
      </div>
      <Heading id={headingId}>
        {heading === 'h3' ? <PreloadLink to={grantHref(g.id)}>{g.title}</PreloadLink> : g.title}
      </Heading>
      <p className="muted grant-meta">
        {t('card.proposedBy')} <PersonName person={g.proposer} /> · {t('card.expiry', { height: g.expiry })} ·{' '}
        {t('card.reviewers', { n: g.reviewers.length, needed: g.approvals_needed })}
      </p>
      <ProgressBar
        value={releasedShare(g)}
        max={1000}
        label={t('card.progressLabel', { title: g.title })}
        valueText={t('card.progress', { released: fmt.amount(g.released), total: fmt.amount(g.total) })}
      />
      <p className="grant-amounts">
        {t('card.progress', { released: fmt.amount(g.released), total: fmt.amount(g.total) })}
        {g.status === 'expired' && <> · {t('card.refunded', { amount: fmt.amount(g.refunded) })}</>}
      </p>
      {g.status === 'rejected' && g.failure && <p className="grant-failure">{t('card.failure', { reason: g.failure })}</p>}
      <ol className="grant-milestones-list">
        {g.milestones.map((m) => (
          <MilestoneItem key={m.index} grant={g} milestone={m} />
        ))}
      </ol>
    </Card>
  )
}

function MilestoneItem({ grant: g, milestone: m }: { grant: Grant; milestone: GrantMilestone }) {
  const { t } = useTranslation('grants')
  const fmt = useChainFormat()
  const user = useSignedInUser()
  const me = user?.walletAddress?.toLowerCase()
  const reviewer = !!me && g.reviewers.some((r) => r.address.toLowerCase() === me)
  const approved = !!me && m.approvals.some((a) => a.reviewer.address.toLowerCase() === me)
  return (
    <li className="grant-milestone">
      <div className="grant-milestone-head">
        <strong>{t('card.milestone', { n: m.index + 1 })}</strong>
        <span className="num">{fmt.amount(m.amount)}</span>
        {m.released ? (
          <span className="badge grant-status grant-status-completed">{t('card.released', { height: m.released_height })}</span>
        ) : null}
      </div>
      <p className="grant-milestone-description">{m.description}</p>
      <p className="muted grant-meta">
        {t('card.recipient')} <PersonName person={m.recipient} /> ·{' '}
        {t('card.approvals', { n: m.approvals.length, needed: g.approvals_needed, reviewers: g.reviewers.length })}
        {m.approvals.length > 0 && (
          <>
            {' '}
            ({m.approvals.map((a, i) => (
              <span key={a.reviewer.address}>
                {i > 0 && ', '}
                <PersonName person={a.reviewer} />
              </span>
            ))}
            )
          </>
        )}
      </p>
      {g.status === 'active' && !m.released && reviewer && user?.walletAddress && (
        approved ? <p className="muted">{t('card.youApproved')}</p> : <ApproveButton from={user.walletAddress} grant={g.id} milestone={m.index} />
      )}
    </li>
  )
}

/** A reviewer's approval of one milestone, signed in the wallet as a GrantApprove transaction. */
function ApproveButton({ from, grant, milestone }: { from: string; grant: number; milestone: number }) {
  const { t } = useTranslation('grants')
  const tx = useChainTx(from, 'GrantApprove')
  const params = useChainParams()
  return (
    <div className="grant-approve">
      <Button size="sm" onClick={() => void tx.run({ grant, milestone })} disabled={tx.busy}>
        {t('card.approve', { n: milestone + 1 })}
      </Button>
      {params.data && <TxStatus state={tx.state} kind="GrantApprove" params={params.data} />}
    </div>
  )
}

/** Signed in, a link to the proposal form with the grant type and its template; signed out, the same action disabled with the reason. */
export function ApplyAction() {
  const { t } = useTranslation('grants')
  const user = useSignedInUser()
  const noteId = useId()
  if (user) {
    return (
      <PreloadLink className="btn btn-primary btn-md" to="/governance/new?type=grant">
        {t('apply')}
      </PreloadLink>
    )
  }
  return (
    <div className="pending-action">
      <Button disabled aria-describedby={noteId}>
        {t('apply')}
      </Button>
      <p id={noteId} className="muted">
        {t('applySignIn')}
      </p>
    </div>
  )
}
