import { useTranslation } from 'react-i18next'
import { EmptyState } from '@/components/EmptyState'

/** The empty state of a pull request list. */
export function NoPullRequests() {
  const { t } = useTranslation('pulls')
  return <EmptyState message={t('list.empty')} />
}
