import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import type { Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { type Run, useApproveRun } from './api'

/**
 * A first-time contributor's run waits for a maintainer: the notice says so to everyone, and
 * gives the repository's writers the button that lets it run (its statuses then go in their name).
 */
export function ApprovalNotice({ repo, run, canApprove }: { repo: Repository; run: Run; canApprove: boolean }) {
  const { t } = useTranslation('actions')
  const approve = useApproveRun(repo.owner.login, repo.name, run.id)
  return (
    <div className="action-run-approval" role="status">
      <p>
        <strong>{t('run.needsApproval')}</strong> {t('run.needsApprovalWhy')}
      </p>
      {canApprove && (
        <Button size="sm" disabled={approve.isPending} onClick={() => approve.mutate()}>
          {approve.isPending ? t('actions.approving') : t('actions.approve')}
        </Button>
      )}
      {approve.error && (
        <p role="alert" className="field-error">
          {errorText(approve.error)}
        </p>
      )}
    </div>
  )
}
