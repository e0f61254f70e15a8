import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '@/components/Card'
import { DiffView } from '@/components/DiffView'
import { QueryState } from '@/components/QueryState'
import { parseDiff } from '@/lib/forge/diff'
import { type Repository } from '@/lib/forge/api'
import { type Comparison, comparisonDiff, useCompare } from './api'

/** The commits and the diff a new pull request from head into base would bring, before it is opened. */
export function ComparePreview({ repo, base, head }: { repo: Repository; base: string; head: string }) {
  const { t } = useTranslation('pulls')
  const compare = useCompare(repo.owner.login, repo.name, base, head, base !== '' && head !== '' && base !== head)
  if (base === '' || head === '' || base === head) return null
  return (
    <Card as="section" aria-label={t('compare.heading')}>
      <h2 className="compare-heading">{t('compare.heading')}</h2>
      <QueryState query={compare}>{(c) => <Comparing c={c} />}</QueryState>
    </Card>
  )
}

function Comparing({ c }: { c: Comparison }) {
  const { t } = useTranslation('pulls')
  const files = useMemo(() => parseDiff(comparisonDiff(c)), [c])
  if (c.total_commits === 0) return <p className="muted">{t('compare.nothing')}</p>
  return (
    <div className="stack">
      <p className="muted">{t('compare.summary', { commits: c.total_commits, files: c.files.length })}</p>
      <ul className="compare-commits">
        {c.commits.map((g) => (
          <li key={g.sha}>
            <code>{g.sha.slice(0, 10)}</code> {g.commit.message.split('\n')[0]}
          </li>
        ))}
      </ul>
      <DiffView files={files} />
    </div>
  )
}
