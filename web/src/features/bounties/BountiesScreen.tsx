import { type FormEvent, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import { Card } from '@/components/Card'
import { BlockLink } from '@/components/ChainLinks'
import { ChainTable, type Column, Paged } from '@/components/Lists'
import { PageHeader } from '@/components/PageHeader'
import { PreloadLink } from '@/components/PreloadLink'
import { Tabs } from '@/components/Tabs'
import { Field } from '@/components/Field'
import { Input } from '@/components/Input'
import { useLiveChain } from '@/lib/chain/api'
import { useChainFormat } from '@/lib/chain/format'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { type Bounty, BOUNTY_TABS, type BountyFilter, type BountyTab, bountyIssueHref, COMMON_LANGUAGES, useBounties } from './api'
import '@/components/data.css'
import './bounties.css'

const LIMIT = 20

/**
 * /bounties: open bounties, the most valuable first, and the history of
 * paid ones, newest first; both narrow to a repository (owner/name) and a
 * language (the repository's main one, counted from its code on the node).
 * Funding happens on an issue's page.
 */
export default function BountiesScreen() {
  const { t } = useTranslation('bounties')
  useDocumentTitle(t('title'))
  // Follows new blocks: a payout or a new share refreshes the list.
  useLiveChain()
  const [filter, setFilter] = useState<BountyFilter>({ tab: 'open', repo: '', language: '' })
  const [page, setPage] = useState(1)
  const change = (next: Partial<BountyFilter>) => {
    setFilter((f) => ({ ...f, ...next }))
    setPage(1)
  }
  return (
    <div className="stack">
      <PageHeader title={t('title')} lead={t('lead')} />
      <Filters filter={filter} onApply={change} />
      <Card as="section" aria-label={t('title')}>
        <Tabs label={t('tabs.label')} tabs={BOUNTY_TABS.map((id) => ({ id, label: t(`tabs.${id}`) }))} selected={filter.tab} onSelect={(tab: BountyTab) => change({ tab })}>
          <BountyList filter={filter} page={page} onPage={setPage} />
        </Tabs>
      </Card>
      <HowBountiesWork />
    </div>
  )
}

/** The repository and language filters, applied together on submit. */
function Filters({ filter, onApply }: { filter: BountyFilter; onApply: (f: Partial<BountyFilter>) => void }) {
  const { t } = useTranslation('bounties')
  const id = useId()
  const [repo, setRepo] = useState(filter.repo)
  const [language, setLanguage] = useState(filter.language)
  const [error, setError] = useState<string | null>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const r = repo.trim()
    if (r && !/^[^/\s]+\/[^/\s]+$/.test(r)) return setError(t('filters.repoShape'))
    setError(null)
    onApply({ repo: r, language: language.trim() })
  }
  const clear = () => {
    setRepo('')
    setLanguage('')
    setError(null)
    onApply({ repo: '', language: '' })
  }
  return (
    <form className="bounty-filters" onSubmit={submit} noValidate aria-label={t('filters.label')}>
      <Field label={t('filters.repo')} error={error} announce>
        <Input
          id={`${id}-repo`}
          value={repo}
          onChange={(e) => setRepo(e.target.value)}
          placeholder="owner/name"
        />
      </Field>
      <Field
        label={t('filters.language')}
        hint={t('filters.languageHint')}
        after={
          <datalist id={`${id}-languages`}>
            {COMMON_LANGUAGES.map((l) => (
              <option key={l} value={l} />
            ))}
          </datalist>
        }
      >
        <Input id={`${id}-language`} value={language} onChange={(e) => setLanguage(e.target.value)} list={`${id}-languages`} maxLength={64} autoComplete="off" />
      </Field>
      <div className="bounty-filter-actions">
        <Button type="submit" size="md">
          {t('filters.apply')}
        </Button>
        <Button type="button" size="md" variant="ghost" onClick={clear}>
          {t('filters.clear')}
        </Button>
      </div>
    </form>
  )
}

function BountyList({ filter, page, onPage }: { filter: BountyFilter; page: number; onPage: (p: number) => void }) {
  const { t } = useTranslation('bounties')
  const fmt = useChainFormat()
  const query = useBounties(filter, page, LIMIT)
  const issue: Column<Bounty> = {
    heading: t('columns.issue'),
    cell: (b) => (
      <>
        <PreloadLink to={bountyIssueHref(b)}>{b.title}</PreloadLink> <span className="muted">{`${b.repo}#${b.number}`}</span>
        {b.language && (
          <>
            {' '}
            <span className="bounty-language">
              <span className="sr-only">{t('columns.language')} </span>
              {b.language}
            </span>
          </>
        )}
      </>
    ),
  }
  const columns: Column<Bounty>[] =
    filter.tab === 'open'
      ? [
          issue,
          { heading: t('columns.total'), num: true, cell: (b) => fmt.amount(b.total) },
          { heading: t('columns.funders'), num: true, cell: (b) => fmt.count(b.funder_count) },
          { heading: t('columns.expiry'), num: true, cell: (b) => fmt.count(b.expiry) },
        ]
      : [
          issue,
          { heading: t('columns.paid'), num: true, cell: (b) => fmt.amount(b.paid_amount) },
          { heading: t('columns.paidTo'), cell: (b) => (b.paid_to ? <PreloadLink to={`/${b.paid_to.username}`}>{b.paid_to.username}</PreloadLink> : '—') },
          { heading: t('columns.block'), num: true, cell: (b) => <BlockLink height={b.paid_height} /> },
        ]
  const filtered = filter.repo !== '' || filter.language !== ''
  return (
    <Paged query={query} page={page} onPage={onPage} limit={LIMIT} label={t(`tabs.${filter.tab}`)} empty={t(`empty.${filter.tab}${filtered ? 'Filtered' : ''}`)}>
      {(items) => <ChainTable rows={items} rowKey={(b) => `${b.repo_id}-${b.number}`} columns={columns} caption={t(`tabs.${filter.tab}`)} />}
    </Paged>
  )
}

function HowBountiesWork() {
  const { t } = useTranslation('bounties')
  const headingId = useId()
  return (
    <Card as="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('how.title')}</h2>
      <ul className="bounty-how">
        {(['fund', 'paid', 'refund', 'closed'] as const).map((k) => (
          <li key={k}>{t(`how.${k}`)}</li>
        ))}
      </ul>
    </Card>
  )
}
