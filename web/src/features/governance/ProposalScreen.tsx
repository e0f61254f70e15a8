import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useRoute } from '@/lib/routes'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { Markdown } from '@/components/Markdown'
import { NotFoundCard } from '@/components/NotFoundCard'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { NotFoundError, QueryState } from '@/components/QueryState'
import { SignInNotice } from '@/components/SignInNotice'
import { toBigInt } from '@/lib/chain/amount'
import { type ChainParams, useBlocks, useChainParams, useChainStatus, useLiveChain } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { AddressLink, BlockLink } from '@/components/ChainLinks'
import { type Column, ChainTable, Paged } from '@/components/Lists'
import { TxStatus } from '@/components/TxStatus'
import { Input } from '@/components/Input'
import { useChainTx } from '@/lib/chain/tx'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { useOwnVote, usePower, useProposal, useVotes } from './api'
import { nextVotingEnd, storedVotingEnd, storeVotingEnd, type VotingEnd } from './countdown'
import { useGovFormat } from './format'
import { AccountName, OptionBadge, StatusBadge } from './ProposalBadges'
import { type Proposal, readTally, type Vote, VOTE_OPTIONS, type VoteOption } from './proposals'
import '@/components/data.css'
import './governance.css'

const VOTES_LIMIT = 20

/** /governance/:id: one proposal, its live tally and voters, and the signed-in user's vote while voting is open. */
export default function ProposalScreen() {
  const { t } = useTranslation('governance')
  const raw = useRoute().params.id ?? ''
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : -1
  // Polls the height; each new block refreshes the proposal, its tally and votes.
  useLiveChain()
  const proposal = useProposal(id)
  useDocumentTitle(proposal.data ? proposal.data.title : t('proposal.title'))
  if (id < 0 || proposal.error instanceof NotFoundError) {
    return (
      <NotFoundCard
        title={t('proposal.notFound.title')}
        description={t('proposal.notFound.description', { id: raw })}
        links={[
          { to: '/governance', label: t('proposal.notFound.list') },
          { to: '/explorer', label: t('proposal.notFound.explorer') },
        ]}
      />
    )
  }
  return <QueryState query={proposal}>{(p) => <ProposalView proposal={p} />}</QueryState>
}

function ProposalView({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('governance')
  return (
    <div className="stack">
      <PageHeader
        title={p.title}
        lead={
          <span className="proposal-lead">
            <StatusBadge status={p.status} /> <span>{t('proposal.number', { id: p.id })}</span> <span className="muted">{t(`types.${p.type}`)}</span>
          </span>
        }
        actions={
          <PreloadLink className="btn btn-outline btn-md" to="/governance">
            {t('back')}
          </PreloadLink>
        }
      />
      {p.status === 'failed' && (
        <p className="alert-error" role="alert">
          {t('proposal.failure', { reason: p.failure || t('proposal.failureUnknown') })}
        </p>
      )}
      <div className="governance-layout">
        <div className="stack">
          <Section title={t('proposal.description')}>{p.description.trim() ? <Markdown html={p.description_html} /> : <p className="muted">{t('proposal.noDescription')}</p>}</Section>
          <Details proposal={p} />
          <Voters proposal={p} />
        </div>
        <div className="stack">
          <TallyCard proposal={p} />
          <Countdown proposal={p} />
          {p.status === 'active' && <VotePanel proposal={p} />}
        </div>
      </div>
    </div>
  )
}

function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  const headingId = useId()
  return (
    <Card as="section" aria-labelledby={headingId} className={`proposal-section ${className ?? ''}`.trim()}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </Card>
  )
}

/** Who proposed what: the type, its payload, the deposit and the heights. */
function Details({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('governance')
  const fmt = useChainFormat()
  const rows: [string, ReactNode][] = [
    [t('proposal.proposer'), <AccountName address={p.proposer} name={p.proposer_name} />],
    [t('proposal.type'), t(`types.${p.type}`)],
    ...payloadRows(p, t, fmt),
    [t('proposal.deposit'), <span className="num">{fmt.amount(p.deposit)}</span>],
    [
      t('proposal.created'),
      <>
        <BlockLink height={p.created_height} /> <span className="muted">{fmt.time(p.created_at)}</span>
      </>,
    ],
  ]
  if (p.execute_height > 0) rows.push([t('proposal.executes'), <BlockLink height={p.execute_height} />])
  return (
    <Section title={t('proposal.details')}>
      <dl className="proposal-details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {p.type === 'text' && <p className="muted">{t('proposal.textEffect')}</p>}
      {p.type === 'validator' && p.payload.power === '0' && <p className="muted">{t('proposal.removesValidator')}</p>}
    </Section>
  )
}

type T = ReturnType<typeof useTranslation>['t']

/** The payload's fields in words; a value the proposer left out reads as a dash. */
function payloadRows(p: Proposal, t: T, fmt: ReturnType<typeof useChainFormat>): [string, ReactNode][] {
  const v = (k: string) => p.payload[k] ?? ''
  const dash = (s: string, show: (s: string) => ReactNode = (x) => x) => (s ? show(s) : '—')
  switch (p.type) {
    case 'param':
      return [
        [t('proposal.param.name'), dash(v('name'), (s) => <code>{s}</code>)],
        [t('proposal.param.value'), dash(v('value'), (s) => <code>{s}</code>)],
      ]
    case 'spend':
      return [
        [t('proposal.spend.to'), dash(v('to'), (s) => <AddressLink address={s} full />)],
        [t('proposal.spend.amount'), dash(v('amount'), (s) => (/^\d+$/.test(s) ? fmt.amount(s) : s))],
        [t('proposal.spend.reason'), dash(v('reason'))],
      ]
    case 'validator':
      return [
        [t('proposal.validator.pubKey'), dash(v('pubKey'), (s) => <code className="mono">{s}</code>)],
        [t('proposal.validator.power'), dash(v('power'))],
      ]
    case 'role':
      return [
        [t('proposal.role.account'), dash(v('account'), (s) => <AddressLink address={s} full />)],
        [t('proposal.role.role'), dash(v('role'), (s) => t(`roles.${s}`, { defaultValue: s }))],
        [t('proposal.role.action'), dash(v('action'), (s) => t(`roleActions.${s}`, { defaultValue: s }))],
      ]
    case 'grant':
      // Its milestones, reviewers and approvals are on the grant's page (features/grants).
      return [[t('types.grant'), <PreloadLink to={`/grants/${p.id}`}>{p.title}</PreloadLink>]]
    default:
      return []
  }
}

/** Yes, no and abstain with their power and share of the votes cast, and whether quorum and threshold are met. */
function TallyCard({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('governance')
  const gf = useGovFormat()
  const r = readTally(p.tally)
  const ongoing = p.status === 'active'
  return (
    <Section title={t('tally.title')} className="tally">
      <ul className="tally-list">
        {VOTE_OPTIONS.map((o) => (
          <li key={o} data-testid={`tally-${o}`}>
            <div className="tally-label">
              <span>{t(`options.${o}`)}</span>
              <span className="num">{t('tally.share', { power: gf.power(p.tally[o]), percent: gf.percent(r.shares[o]) })}</span>
            </div>
            <div className={`tally-bar tally-${o}`} aria-hidden="true">
              <span style={{ width: `${r.shares[o] / 100}%` }} />
            </div>
          </li>
        ))}
      </ul>
      <p className="muted">{t('tally.voters', { count: p.tally.voters })}</p>
      <dl className="tally-checks">
        <div data-testid="tally-quorum">
          <dt>{t('tally.quorum', { quorum: gf.percent(p.tally.quorum_bps) })}</dt>
          <dd>
            {t('tally.turnout', { turnout: gf.percent(r.turnoutBps), total: gf.power(p.tally.total_power) })} <Reached reached={r.quorumReached} ongoing={ongoing} />
          </dd>
        </div>
        <div data-testid="tally-threshold">
          <dt>{t('tally.threshold', { threshold: gf.percent(p.tally.threshold_bps) })}</dt>
          <dd>
            {t('tally.yesOfDecided', { yes: gf.percent(r.yesOfDecidedBps) })} <Reached reached={r.thresholdReached} ongoing={ongoing} />
          </dd>
        </div>
      </dl>
    </Section>
  )
}

function Reached({ reached, ongoing }: { reached: boolean; ongoing: boolean }) {
  const { t } = useTranslation('governance')
  return <span className={`badge ${reached ? 'badge-ok' : 'badge-pending'}`}>{reached ? t('tally.reached') : ongoing ? t('tally.notYet') : t('tally.notReached')}</span>
}

/** Blocks until voting ends, from the polled height, with a time estimate from the recent blocks' pace. */
function Countdown({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('governance')
  const status = useChainStatus()
  const blockMs = useAverageBlockMs()
  const duration = useDuration()
  const height = status.data?.height
  const left = height === undefined ? null : p.voting_end_height - height
  const end = useVotingEnd(p.id, left, blockMs)
  let body: ReactNode
  if (p.status !== 'active') {
    body = <p>{t('countdown.ended', { height: p.ended_height ?? p.voting_end_height })}</p>
  } else if (height === undefined) {
    body = <QueryState query={status}>{() => null}</QueryState>
  } else {
    const left = p.voting_end_height - height
    const msLeft = end === null ? null : end - Date.now()
    body = (
      <>
        <p data-testid="countdown">
          {left > 0 ? t('countdown.left', { count: left }) : t('countdown.closing')}
          {left > 0 && msLeft !== null && <> {t('countdown.about', { time: duration(msLeft) })}</>}
        </p>
        <p className="muted">{t('countdown.endsAt', { end: p.voting_end_height, height })}</p>
      </>
    )
  }
  return (
    <Section title={t('countdown.title')}>
      {body}
      {p.status === 'passed' && p.execute_height > 0 && <p>{t('countdown.executes', { height: p.execute_height })}</p>}
    </Section>
  )
}

/**
 * The smoothed estimate of when proposal's voting ends, updated with each
 * polled height (see countdown.ts) and kept for the tab, so a reload goes
 * on counting down rather than starting again from a raw average.
 */
function useVotingEnd(proposal: number, blocksLeft: number | null, blockMs: number | null): number | null {
  const [estimate, setEstimate] = useState<VotingEnd | null>(null)
  useEffect(() => {
    if (blocksLeft === null || blocksLeft <= 0 || blockMs === null) return
    setEstimate((previous) => nextVotingEnd(previous ?? storedVotingEnd(proposal), Date.now(), blocksLeft, blockMs))
  }, [proposal, blocksLeft, blockMs])
  useEffect(() => {
    if (estimate) storeVotingEnd(proposal, estimate)
  }, [proposal, estimate])
  return estimate?.end ?? null
}

/** The average time between the latest blocks, or null with fewer than two. */
function useAverageBlockMs(): number | null {
  const blocks = useBlocks(1, 20).data?.items ?? []
  if (blocks.length < 2) return null
  const first = blocks[0]
  const last = blocks[blocks.length - 1]
  const ms = Date.parse(first.time) - Date.parse(last.time)
  const n = first.height - last.height
  return n > 0 && ms > 0 ? ms / n : null
}

/** A duration in its largest sensible unit ("3 hours"), in the current language. */
function useDuration() {
  const { i18n } = useTranslation()
  return (ms: number) => {
    const units: [Intl.NumberFormatOptions['unit'], number][] = [
      ['day', 86_400_000],
      ['hour', 3_600_000],
      ['minute', 60_000],
      ['second', 1_000],
    ]
    const [unit, size] = units.find(([, size]) => ms >= size) ?? units[units.length - 1]
    return new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 0 }).format(Math.max(1, Math.round(ms / size)))
  }
}

function VotePanel({ proposal }: { proposal: Proposal }) {
  const { t } = useTranslation('governance')
  const user = useSignedInUser()
  const params = useChainParams()
  if (!user) return <SignInNotice message={t('vote.signedOut')} />
  return (
    <Section title={t('vote.title')}>
      {user.walletAddress ? (
        <QueryState query={params}>{(p) => <VoteForm proposal={proposal} address={user.walletAddress!} params={p} />}</QueryState>
      ) : (
        <p>{t('vote.noWallet')}</p>
      )}
    </Section>
  )
}

/** The user's power on the proposal, shown before anything is signed, their current vote, and yes/no/abstain. */
function VoteForm({ proposal: p, address, params }: { proposal: Proposal; address: string; params: ChainParams }) {
  const { t } = useTranslation('governance')
  const fmt = useChainFormat()
  const gf = useGovFormat()
  const id = useId()
  const power = usePower(address, p.id)
  const own = useOwnVote(address, p.id)
  const tx = useChainTx(address, 'Vote')
  const [choice, setChoice] = useState<VoteOption | null>(null)
  const [error, setError] = useState<string | null>(null)
  const current = own.data?.option ?? null
  const selected = choice ?? current

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (tx.busy) return
    if (!selected) return setError(t('vote.errors.choose'))
    if (selected === current) return setError(t('vote.errors.same', { option: t(`options.${selected}`) }))
    setError(null)
    // After the vote commits, the choice follows the user's vote as the chain has it.
    if (await tx.run({ proposal: p.id, option: selected })) setChoice(null)
  }

  return (
    <QueryState query={power}>
      {(pw) => {
        const none = toBigInt(pw.power) === 0n
        return (
          <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('vote.title')} className="vote-form">
            <p data-testid="vote-power">
              {t('vote.power', { power: gf.power(pw.power), stake: fmt.amount(pw.stake), multiplier: gf.multiplier(pw.multiplierBps) })}
            </p>
            <p className="muted">{t('vote.snapshot')}</p>
            <p data-testid="own-vote">
              {own.isPending ? t('state.loading', { ns: 'common' }) : own.data ? <OwnVote vote={own.data} /> : t('vote.notVoted')}
            </p>
            {none ? (
              <p className="alert-error">{t('vote.noPower')}</p>
            ) : (
              <fieldset disabled={tx.busy} aria-describedby={error ? `${id}-error` : undefined}>
                <legend>{t('vote.choose')}</legend>
                {VOTE_OPTIONS.map((o) => (
                  <label key={o} className="vote-option-choice">
                    <Input type="radio" name={`${id}-option`} value={o} checked={selected === o} onChange={() => setChoice(o)} /> {t(`options.${o}`)}
                  </label>
                ))}
                {error && (
                  <p id={`${id}-error`} className="field-error" role="alert">
                    {error}
                  </p>
                )}
                <Button type="submit">{current ? t('vote.change') : t('vote.submit')}</Button>
              </fieldset>
            )}
            <TxStatus state={tx.state} kind="Vote" params={params} />
          </form>
        )
      }}
    </QueryState>
  )
}

function OwnVote({ vote }: { vote: Vote }) {
  const { t } = useTranslation('governance')
  return (
    <>
      {t('vote.current')} <OptionBadge option={vote.option} /> <span className="muted">{t('vote.currentAt', { height: vote.height })}</span>
    </>
  )
}

/** Who voted what, newest first. */
function Voters({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('governance')
  const fmt = useChainFormat()
  const gf = useGovFormat()
  const [page, setPage] = useState(1)
  const votes = useVotes(p.id, page, VOTES_LIMIT)
  const columns: Column<Vote>[] = [
    { heading: t('voters.voter'), cell: (v) => <AccountName address={v.voter} name={v.voter_name} /> },
    { heading: t('voters.option'), cell: (v) => <OptionBadge option={v.option} /> },
    { heading: t('voters.power'), num: true, cell: (v) => gf.power(v.power) },
    { heading: t('voters.block'), num: true, cell: (v) => <BlockLink height={v.height} /> },
    { heading: t('voters.time'), cell: (v) => fmt.time(v.time) },
  ]
  return (
    <Section title={t('voters.title')}>
      <Paged query={votes} page={page} onPage={setPage} limit={VOTES_LIMIT} label={t('voters.title')} empty={t('voters.empty')}>
        {(items) => <ChainTable rows={items} rowKey={(v) => v.voter} columns={columns} caption={t('voters.title')} />}
      </Paged>
    </Section>
  )
}
