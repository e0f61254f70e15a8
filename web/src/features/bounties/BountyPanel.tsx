import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { BlockLink } from '@/components/ChainLinks'
import { PreloadLink } from '@/components/PreloadLink'
import { QueryState } from '@/components/QueryState'
import { TxStatus } from '@/components/TxStatus'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { decimalSeparator, parseAmount } from '@/lib/chain/amount'
import { type ChainParams, useChainParams, useLiveChain } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { useChainTx } from '@/lib/chain/tx'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { type Bounty, refundableShare, useIssueBounty } from './api'
import './bounties.css'

export interface BountyPanelProps {
  owner: string
  repo: string
  /** The repository's id, which names it on chain. */
  repoId: number
  /** Private repositories never reach the chain, so they have no bounties. */
  isPrivate: boolean
  number: number
  /** Only an open issue takes new funding. */
  open: boolean
}

/**
 * An issue's bounty: what is in escrow and who put it there, "Fund this
 * issue" (amount and expiry, signed in the user's wallet) and "Refund my
 * share" once the user's share has expired. A merge that fixes the issue
 * pays it all to the pull request's author.
 */
export function BountyPanel(props: BountyPanelProps) {
  const { t } = useTranslation('bounties')
  const headingId = useId()
  if (props.isPrivate) return null
  return (
    <section className="issue-side-section bounty-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {t('panel.title')}
      </h2>
      <PanelBody {...props} />
    </section>
  )
}

function PanelBody(props: BountyPanelProps) {
  const query = useIssueBounty(props.owner, props.repo, props.number)
  const status = useLiveChain()
  const params = useChainParams()
  const user = useSignedInUser()
  const { t } = useTranslation('bounties')
  return (
    <QueryState query={query}>
      {(b) => (
        <>
          <Summary bounty={b} />
          {!user ? (
            <p className="muted">{t('panel.signedOut')}</p>
          ) : !user.walletAddress ? (
            <p className="muted">{t('panel.noWallet')}</p>
          ) : params.data && status.data ? (
            <Actions bounty={b} props={props} address={user.walletAddress} height={status.data.height} params={params.data} />
          ) : null}
        </>
      )}
    </QueryState>
  )
}

function Summary({ bounty: b }: { bounty: Bounty }) {
  const { t } = useTranslation('bounties')
  const fmt = useChainFormat()
  if (b.status === 'paid' && b.paid_to) {
    return (
      <p data-testid="bounty-paid">
        {t('panel.paid', { amount: fmt.amount(b.paid_amount), user: b.paid_to.username })} <BlockLink height={b.paid_height} />
      </p>
    )
  }
  const funders = b.funders ?? []
  if (funders.length === 0) return <p className="muted">{t('panel.none')}</p>
  return (
    <>
      <p className="bounty-total" data-testid="bounty-total">
        {fmt.amount(b.total)}
      </p>
      <ul className="bounty-funders" aria-label={t('panel.funders')}>
        {funders.map((f) => (
          <li key={f.address}>
            <PreloadLink to={`/${f.username}`}>{f.username}</PreloadLink> <span className="num">{fmt.amount(f.amount)}</span>{' '}
            <span className="muted">{t('panel.expires', { height: fmt.count(f.expiry) })}</span>
          </li>
        ))}
      </ul>
    </>
  )
}

/** A default expiry: about a week of six-second blocks from now. */
const DEFAULT_EXPIRY_BLOCKS = 100_000

function Actions({ bounty, props, address, height, params }: { bounty: Bounty; props: BountyPanelProps; address: string; height: number; params: ChainParams }) {
  const share = refundableShare(bounty, address, height)
  return (
    <>
      {props.open && <FundForm props={props} address={address} height={height} params={params} />}
      {share && <RefundButton props={props} address={address} params={params} />}
    </>
  )
}

function FundForm({ props, address, height, params }: { props: BountyPanelProps; address: string; height: number; params: ChainParams }) {
  const { t, i18n } = useTranslation('bounties')
  const id = useId()
  const tx = useChainTx(address, 'BountyFund')
  const [amount, setAmount] = useState('')
  const [expiry, setExpiry] = useState(String(height + DEFAULT_EXPIRY_BLOCKS))
  const [errors, setErrors] = useState<{ amount?: string; expiry?: string }>({})
  const { symbol, decimals } = params.token

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (tx.busy) return
    const next: { amount?: string; expiry?: string } = {}
    const parsed = parseAmount(amount, decimals, decimalSeparator(i18n.resolvedLanguage))
    if (!parsed.ok) next.amount = t(`errors.amount.${parsed.error}`, { symbol, decimals })
    const at = Number(expiry)
    if (!/^\d+$/.test(expiry.trim()) || !Number.isSafeInteger(at) || at <= height) next.expiry = t('errors.expiry', { height })
    setErrors(next)
    if (next.amount || next.expiry || !parsed.ok) return
    if (await tx.run({ repo: props.repoId, issue: props.number, amount: parsed.micro, expiry: at })) setAmount('')
  }

  return (
    <form className="bounty-form" onSubmit={(e) => void submit(e)} noValidate aria-label={t('fund.title')}>
      <fieldset disabled={tx.busy}>
        <legend>{t('fund.title')}</legend>
        <Field label={t('fund.amount', { symbol })} error={errors.amount} announce>
          <Input
            id={`${id}-amount`}
            className="amount-input"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </Field>
        <Field label={t('fund.expiry')} hint={t('fund.expiryHint', { height })} error={errors.expiry} announce>
          <Input
            id={`${id}-expiry`}
            inputMode="numeric"
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
          />
        </Field>
        <Button type="submit" size="sm">
          {t('fund.submit')}
        </Button>
      </fieldset>
      <TxStatus state={tx.state} kind="BountyFund" params={params} />
    </form>
  )
}

function RefundButton({ props, address, params }: { props: BountyPanelProps; address: string; params: ChainParams }) {
  const { t } = useTranslation('bounties')
  const tx = useChainTx(address, 'BountyRefund')
  return (
    <div className="bounty-refund">
      <Button size="sm" variant="outline" disabled={tx.busy} onClick={() => void tx.run({ repo: props.repoId, issue: props.number })}>
        {t('refund.submit')}
      </Button>
      <p className="muted">{t('refund.hint')}</p>
      <TxStatus state={tx.state} kind="BountyRefund" params={params} />
    </div>
  )
}
