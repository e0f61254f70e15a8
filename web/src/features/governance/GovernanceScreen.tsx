import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { EmptyState } from '@/components/EmptyState'
import { PageHeader } from '@/components/PageHeader'
import { Tabs } from '@/components/Tabs'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { PROPOSAL_FILTERS, type ProposalFilter } from './proposals'
import './governance.css'

/**
 * Proposals and how voting works. Proposals live on chain from the governance
 * milestone on; there is no endpoint to read them yet, so the list is empty.
 */
export default function GovernanceScreen() {
  const { t } = useTranslation('governance')
  useDocumentTitle(t('title'))
  const [filter, setFilter] = useState<ProposalFilter>('all')
  const headingId = useId()
  return (
    <div>
      <PageHeader title={t('title')} lead={t('lead')} actions={<CreateProposalAction />} />
      <div className="governance-layout">
        <section aria-labelledby={headingId}>
          <h2 id={headingId}>{t('proposals')}</h2>
          <Tabs label={t('filterLabel')} tabs={PROPOSAL_FILTERS.map((id) => ({ id, label: t(`status.${id}`) }))} selected={filter} onSelect={setFilter}>
            <EmptyState message={t(`empty.${filter}`)} />
          </Tabs>
        </section>
        <VotingPower />
      </div>
    </div>
  )
}

function CreateProposalAction() {
  const { t } = useTranslation('governance')
  const noteId = useId()
  return (
    <div className="pending-action">
      <Button disabled aria-describedby={noteId}>
        {t('createProposal')}
      </Button>
      <p id={noteId} className="muted">
        {t('createProposalNote')}
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
