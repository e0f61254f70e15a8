import { useTranslation } from 'react-i18next'
import { Button } from '@/components/Button'
import type { Repository } from '@/lib/forge/api'
import { errorText } from '@/lib/http'
import { hasEnded, type Run, useCancelRun, useRerun } from './api'

/** Cancel (while the run goes on) and re-run all or the failed jobs (once it ended), for the repository's writers. */
export function RunActions({ repo, run, onRerun }: { repo: Repository; run: Run; onRerun: (next: Run) => void }) {
  const { t } = useTranslation('actions')
  const cancel = useCancelRun(repo.owner.login, repo.name, run.id)
  const rerun = useRerun(repo.owner.login, repo.name, run.id, onRerun)
  const ended = hasEnded(run.state)
  const busy = cancel.isPending || rerun.isPending
  const error = cancel.error ?? rerun.error
  return (
    <div className="action-buttons">
      <div className="button-row" role="group" aria-label={t('actions.label')}>
        {!ended && (
          <Button size="sm" variant="danger" disabled={busy} onClick={() => cancel.mutate()}>
            {cancel.isPending ? t('actions.cancelling') : t('actions.cancel')}
          </Button>
        )}
        {ended && (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => rerun.mutate('all')}>
            {rerun.isPending && rerun.variables === 'all' ? t('actions.rerunning') : t('actions.rerunAll')}
          </Button>
        )}
        {ended && (run.state === 'failure' || run.state === 'cancelled') && (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => rerun.mutate('failed')}>
            {rerun.isPending && rerun.variables === 'failed' ? t('actions.rerunning') : t('actions.rerunFailed')}
          </Button>
        )}
      </div>
      {error && (
        <p role="alert" className="field-error">
          {errorText(error)}
        </p>
      )}
    </div>
  )
}
