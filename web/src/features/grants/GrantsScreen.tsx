import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { Tabs } from '@/components/Tabs'
import { useLiveChain } from '@/lib/chain/api'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { useUrlParam } from '@/lib/useUrlParam'
import { GRANT_FILTERS, type GrantFilter, useGrants } from './api'
import { ApplyAction, GrantCard } from './GrantCard'
import './grants.css'

const LIMIT = 10

/** /grants: treasury grants by status, each with its milestones, and how a grant works. */
export default function GrantsScreen() {
  const { t } = useTranslation('grants')
  useDocumentTitle(t('title'))
  // Each new block refreshes approvals and statuses.
  useLiveChain()
  const [status, setStatus] = useUrlParam('status', 'all')
  const filter: GrantFilter = (GRANT_FILTERS as readonly string[]).includes(status) ? (status as GrantFilter) : 'all'
  const headingId = useId()
  return (
    <div>
      <PageHeader title={t('title')} lead={t('lead')} actions={<ApplyAction />} />
      <div className="grants-layout">
        <section aria-labelledby={headingId}>
          <h2 id={headingId}>{t('list.title')}</h2>
          <Tabs label={t('list.filterLabel')} tabs={GRANT_FILTERS.map((id) => ({ id, label: t(`filter.${id}`) }))} selected={filter} onSelect={setStatus}>
            <GrantList key={filter} filter={filter} />
          </Tabs>
        </section>
        <HowItWorks />
      </div>
    </div>
  )
}

function GrantList({ filter }: { filter: GrantFilter }) {
  const { t } = useTranslation('grants')
  const [page, setPage] = useState(1)
  const grants = useGrants(filter, page, LIMIT)
  return (
    <Paged query={grants} page={page} onPage={setPage} limit={LIMIT} label={t('list.title')} empty={t(`empty.${filter}`)}>
      {(items) => (
        <div className="grant-list">
          {items.map((g) => (
            <GrantCard key={g.id} grant={g} />
          ))}
        </div>
      )}
    </Paged>
  )
}

function HowItWorks() {
  const { t } = useTranslation('grants')
  const headingId = useId()
  return (
    <Card as="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('how.title')}</h2>
      <p>{t('how.apply')}</p>
      <p>{t('how.escrow')}</p>
      <p>{t('how.release')}</p>
      <p>{t('how.expiry')}</p>
      <p>
        <PreloadLink to="/governance">{t('how.governance')}</PreloadLink>
      </p>
    </Card>
  )
}
