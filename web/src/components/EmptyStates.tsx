import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'

/** What a repository, issue or pull request shows in place of a missing description. */
export function NoDescription() {
  const { t } = useTranslation('issues')
  return <p className="muted no-description">{t('noDescription')}</p>
}

/** The empty state of an issue list. */
export function NoIssues() {
  const { t } = useTranslation('issues')
  return <EmptyState message={t('list.empty')} />
}
