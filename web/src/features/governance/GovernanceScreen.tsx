import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { Tabs } from '@/components/Tabs'
import { Paged } from '@/components/Lists'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { useSignedInUser } from '@/stores/useSignedInUser'
import { proposalHref, useProposals } from './api'
import { AccountName, StatusBadge } from './ProposalBadges'
import { type Proposal, PROPOSAL_FILTERS, type ProposalFilter } from './proposals'
import './governance.css'

const LIMIT = 20

/** The proposals on chain, newest first, by status; and how voting power works. */
export default function GovernanceScreen() {
  const { t } = useTranslation('governance')
  useDocumentTitle(t('title'))
  const [status, setStatus] = useUrlParam('status', 'all')
  const filter: ProposalFilter = (PROPOSAL_FILTERS as readonly string[]).includes(status) ? (status as ProposalFilter) : 'all'
  const headingId = useId()
  return (
    <div>
      <PageHeader title={t('title')} lead={t('lead')} actions={<CreateProposalAction />} />
      <div className="governance-layout">
        <section aria-labelledby={headingId}>
          <h2 id={headingId}>{t('proposals')}</h2>
          <Tabs label={t('filterLabel')} tabs={PROPOSAL_FILTERS.map((id) => ({ id, label: t(`status.${id}`) }))} selected={filter} onSelect={setStatus}>
            {/* Keyed by the filter, so a new filter starts on its first page. */}
            <ProposalList key={filter} filter={filter} />
          </Tabs>
        </section>
        <VotingPower />
      </div>
    </div>
  )
}

function ProposalList({ filter }: { filter: ProposalFilter }) {
  const { t } = useTranslation('governance')
  const [page, setPage] = useState(1)
  const proposals = useProposals(filter, page, LIMIT)
  return (
    <Paged query={proposals} page={page} onPage={setPage} limit={LIMIT} label={t('proposals')} empty={t(`empty.${filter}`)}>
      {(items) => (
        <ul className="proposal-list">
          {items.map((p) => (
            <ProposalItem key={p.id} proposal={p} />
          ))}
        </ul>
      )}
    </Paged>
  )
}

function ProposalItem({ proposal: p }: { proposal: Proposal }) {
  const { t } = useTranslation('governance')
  return (
    <Card as="li" className="proposal-item">
      <div className="proposal-item-head">
        <StatusBadge status={p.status} />
        <span className="muted">{t(`types.${p.type}`)}</span>
      </div>
      <h3>
        <PreloadLink to={proposalHref(p.id)}>
          <span className="muted">#{p.id}</span> {p.title}
        </PreloadLink>
      </h3>
      <p className="muted proposal-meta">
        {t('list.proposedBy')} <AccountName address={p.proposer} name={p.proposer_name} /> ·{' '}
        {p.status === 'active' ? t('list.votingEnds', { height: p.voting_end_height }) : t('list.votingEnded', { height: p.ended_height ?? p.voting_end_height })} ·{' '}
        {t('list.voters', { count: p.tally.voters })}
      </p>
    </Card>
  )
}

/** Signed in, a link to the proposal form; signed out, the same action disabled with the reason. */
function CreateProposalAction() {
  const { t } = useTranslation('governance')
  const user = useSignedInUser()
  const noteId = useId()
  if (user) {
    return (
      <PreloadLink className="btn btn-primary btn-md" to="/governance/new">
        {t('createProposal')}
      </PreloadLink>
    )
  }
  return (
    <div className="pending-action">
      <Button disabled aria-describedby={noteId}>
        {t('createProposal')}
      </Button>
      <p id={noteId} className="muted">
        {t('createProposalSignIn')}
      </p>
    </div>
  )
}

function VotingPower() {
  const { t } = useTranslation('governance')
  const headingId = useId()
  return (
    <Card as="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('votingPower.title')}</h2>
      <p className="voting-formula">{t('votingPower.formula')}</p>
      <p>{t('votingPower.stake')}</p>
      <p>{t('votingPower.multiplier')}</p>
      <p>{t('votingPower.votes')}</p>
      <p>{t('votingPower.tally')}</p>
      <p className="muted">{t('votingPower.integer')}</p>
    </Card>
  )
}
